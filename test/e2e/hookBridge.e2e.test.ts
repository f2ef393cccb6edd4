import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertAgentTraceFile } from '../support/agentTraceSchema';
import { finished, type Finished } from '../support/childProcesses';
import type { Workbench } from '../vscode/codeServer';
import { repoRoot } from '../vscode/provisioned';
import { answerModal, launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'e2e');
const LOGIN = 'src/auth/login.ts';

/**
 * VS Code's own hook runner only fires inside a chat turn driven by a language model, which this harness has
 * none of; so the bridge is run exactly as VS Code (or Claude Code) runs it: `node dist/hook.js hook <agent>` (what Install Agent Hooks writes)
 * with the documented payload on stdin, talking to the extension inside the real code-server.
 */
describe('e2e: agents’ native tools governed by the running extension (hook bridge)', function () {
  let temp: string;
  let workspace: string;
  let governorHome: string;
  let vscode: GovernedVsCode | undefined;
  let workbench: Workbench;

  const hook = (agent: string, payload: object): Promise<Finished> => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist', 'hook.js'), 'hook', agent, '--timeout-ms', '90000'], {
      env: { ...process.env, INTENT_GOVERNOR_HOME: governorHome, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'cli-anchors'), INTENT_GOVERNOR_INTENT: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(JSON.stringify(payload));
    return finished(child);
  };
  const claude = (event: string, tool: string, input: object, id: string) =>
    hook('claude', { session_id: 'e2e-claude', transcript_path: '/tmp/t.jsonl', cwd: workspace, permission_mode: 'default', hook_event_name: event, tool_name: tool, tool_input: input, tool_use_id: id });

  before(async function () {
    this.timeout(600_000);
    assert.ok(existsSync(join(repoRoot, 'dist', 'hook.js')), 'run `npm run build` first');
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-hook-' });
    ({ temp, workspace, governorHome, workbench } = vscode);
  });

  after(async function () {
    this.timeout(60_000);
    await vscode?.stop();
  });

  it('refuses a native write while no intent is picked, telling the model how to get one', async () => {
    const run = await claude('PreToolUse', 'Write', { file_path: join(workspace, 'src/auth/token.ts'), content: 'x\n' }, 'toolu_e2e_0');
    const answer = JSON.parse(run.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny');
    assert.match(answer.permissionDecisionReason, /^\[NO_ACTIVE_INTENT\]/);
  });

  it('after a human picks the intent, an in-scope native edit is allowed and traced by the extension', async () => {
    await pickIntentInPalette(workbench.page, 'auth-refactor');

    const file = join(workspace, LOGIN);
    const before = readFileSync(file, 'utf8');
    const lines = before.split('\n');
    const edit = { file_path: file, old_string: lines[0], new_string: `${lines[0]} // governed`, replace_all: false };
    const pre = await claude('PreToolUse', 'Edit', edit, 'toolu_e2e_1');
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    writeFileSync(file, before.replace(lines[0], `${lines[0]} // governed`)); // what Claude Code's Edit does
    const post = await claude('PostToolUse', 'Edit', edit, 'toolu_e2e_1');
    assert.equal(post.code, 0, post.stderr);
    const records = await waitFor('the trace record', () => {
      const path = join(workspace, '.orchestration', 'agent_trace.jsonl');
      return existsSync(path) ? assertAgentTraceFile(path) : undefined;
    });
    const record = records.at(-1) as { files: { path: string }[]; metadata: Record<string, unknown> };
    assert.equal(record.files[0].path, LOGIN);
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.agent, 'claude-code');
  });

  it('denies a native write out of scope with the reason', async () => {
    const run = await claude('PreToolUse', 'Write', { file_path: join(workspace, 'src/billing/invoice.ts'), content: 'x\n' }, 'toolu_e2e_2');
    assert.match(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason, /^\[SCOPE_VIOLATION\]/);
  });

  it('a destructive native command shows the modal: Approve lets it run, Reject denies it', async () => {
    const command = { command: 'rm -rf src/auth/tmp', description: 'clean up' };
    const approved = claude('PreToolUse', 'Bash', command, 'toolu_e2e_3');
    const shown = await answerModal(workbench.page, 'Approve', join(shots, 'hook-bridge-modal.png'));
    assert.match(shown, /rm -rf src\/auth\/tmp/);
    const run = await approved;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');

    const rejected = claude('PreToolUse', 'Bash', command, 'toolu_e2e_4');
    await answerModal(workbench.page, 'Reject');
    const answer = JSON.parse((await rejected).stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny');
    assert.match(answer.permissionDecisionReason, /^\[HITL_REJECT\]/);
  });
});
