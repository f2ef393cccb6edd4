import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertAgentTraceFile } from '../support/agentTraceSchema';
import { finished, type Finished } from '../support/childProcesses';
import type { Workbench } from '../vscode/codeServer';
import { repoRoot } from '../vscode/provisioned';
import { launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode } from './e2eSupport';

const LOGIN = 'src/auth/login.ts';

/**
 * Claude Code running beside VS Code: its command hook (`node dist/hook.js hook claude`, what Install Agent Hooks
 * writes) finds the running extension through the discovery file and is answered by it, under the intent the
 * person picked in VS Code. VS Code's own agent, refusals and the approval modal included, is driven for real in
 * vscodeAgent.e2e.test.ts; the real Claude Code binary in test/agents/.
 */
describe('e2e: Claude Code’s hooks answered by the running extension (hook bridge)', function () {
  let temp: string;
  let workspace: string;
  let governorHome: string;
  let vscode: GovernedVsCode | undefined;
  let workbench: Workbench;

  const claude = (event: string, tool: string, input: object, id: string): Promise<Finished> => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist', 'hook.js'), 'hook', 'claude', '--timeout-ms', '90000'], {
      env: { ...process.env, INTENT_GOVERNOR_HOME: governorHome, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'cli-anchors'), INTENT_GOVERNOR_INTENT: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(JSON.stringify({ session_id: 'e2e-claude', transcript_path: '/tmp/t.jsonl', cwd: workspace, permission_mode: 'default', hook_event_name: event, tool_name: tool, tool_input: input, tool_use_id: id }));
    return finished(child);
  };

  before(async function () {
    this.timeout(600_000);
    assert.ok(existsSync(join(repoRoot, 'dist', 'hook.js')), 'run `npm run build` first');
    // Its writes mean to land without a modal: the hook tests click none.
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-hook-', settings: { 'intentGovernor.approval': 'destructive-only' } });
    ({ temp, workspace, governorHome, workbench } = vscode);
  });

  after(async function () {
    this.timeout(60_000);
    await vscode?.stop();
  });

  it('after a person picks the intent in VS Code, Claude Code’s in-scope Edit is allowed and traced as claude-code by the extension', async () => {
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
});
