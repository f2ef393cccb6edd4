import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertAgentTraceFile } from '../../../../support/agentTraceSchema';
import { createHarness, type Harness } from '../../../../support/governorHarness';
import { hookFixture, runHook } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

const LOGIN = 'export function login() {\n  return false;\n}\n';
const INVOICE = 'export const total = 0;\n';

interface TraceRecord {
  files: { path: string; conversations: { ranges: { start_line: number; end_line: number }[] }[] }[];
  metadata: Record<string, unknown>;
}

/**
 * VS Code's agent through the real hook bundle (`node hook.js hook vscode`), headless, with the payloads VS Code
 * 1.139 sends for its tools (test/fixtures/hooks/vscode/): what the person sees is the answer VS Code gets and
 * the trace the change leaves.
 */
describe('VS Code agent tools through governor hook vscode (headless)', () => {
  let h: Harness;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN, 'src/billing/invoice.ts': INVOICE } });
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
  });
  afterEach(async () => {
    await h.dispose();
    await removeTree(home);
  });

  const hook = (fixture: string) => runHook('vscode', hookFixture('vscode', fixture, h.root), ['--intent', 'auth-refactor'], env);

  async function decision(fixture: string): Promise<{ permissionDecision?: string; permissionDecisionReason?: string } | undefined> {
    const run = await hook(fixture);
    assert.equal(run.code, 0, run.stderr);
    if (run.stdout === '') return undefined;
    return (JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string } }).hookSpecificOutput;
  }

  const traces = async () => {
    const file = join(h.root, '.orchestration', 'agent_trace.jsonl');
    return (await stat(file).catch(() => undefined)) ? (assertAgentTraceFile(file) as unknown as TraceRecord[]) : [];
  };

  it('lets insert_edit_into_file change an in-scope file, and traces the lines it changed under vscode-agent', async () => {
    assert.equal(await decision('pre-insert-edit-in-scope'), undefined);
    await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;')); // VS Code merges the code
    assert.equal((await hook('post-insert-edit-in-scope')).code, 0);
    const records = await traces();
    assert.equal(records.length, 1);
    assert.equal(records[0].files[0].path, 'src/auth/login.ts');
    assert.deepEqual(records[0].files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
    assert.match(JSON.stringify(records[0].metadata), /vscode-agent/);
    assert.match(JSON.stringify(records[0].metadata), /auth-refactor/);
  });

  it('refuses insert_edit_into_file outside the intent’s scope and on a protected path', async () => {
    assert.match((await decision('pre-insert-edit-out-of-scope'))?.permissionDecisionReason ?? '', /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts" is outside the owned scope of intent auth-refactor/);
    assert.match((await decision('pre-insert-edit-protected'))?.permissionDecisionReason ?? '', /^\[PROTECTED_PATH\] "\.vscode\/tasks\.json" is protected/);
  });

  it('refuses insert_edit_into_file when no intent is bound, and says how to get one', async () => {
    const run = await runHook('vscode', hookFixture('vscode', 'pre-insert-edit-in-scope', h.root), [], env);
    const out = JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(out.hookSpecificOutput.permissionDecisionReason, /^\[NO_ACTIVE_INTENT\]/);
  });

  it('refuses insert_edit_into_file on a FIFO at once instead of waiting on it for the before-content', async () => {
    await rm(join(h.root, 'src/auth/login.ts'));
    execFileSync('mkfifo', [join(h.root, 'src/auth/login.ts')]);
    const out = await decision('pre-insert-edit-in-scope');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /src\/auth\/login\.ts/);
  });

  it('judges create_directory as the mkdir it amounts to: a human is asked for an in-scope folder, one outside the scope is refused', async () => {
    const inside = await decision('pre-create-directory-in-scope');
    assert.equal(inside?.permissionDecision, 'ask');
    assert.match(inside?.permissionDecisionReason ?? '', /mkdir -p -- .*src\/auth\/providers: creates directories/);
    const out = await decision('pre-create-directory-out-of-scope');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /src\/billing\/providers.*outside the owned scope of intent auth-refactor/);
  });

  it('judges every file an apply_patch touches: an out-of-scope one refuses the patch, an in-scope one lands and is traced', async () => {
    const out = await decision('pre-apply-patch-out-of-scope');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);

    assert.equal(await decision('pre-apply-patch-in-scope'), undefined);
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;');
    await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;'));
    assert.equal((await hook('post-apply-patch-in-scope')).code, 0);
    assert.deepEqual((await traces()).map((r) => r.files[0].path).sort(), ['src/auth/login.ts', 'src/auth/token.ts']);
  });

  it('lets edit_notebook_file change an in-scope notebook', async () => {
    assert.equal(await decision('pre-edit-notebook-in-scope'), undefined);
  });

  it('asks a human for a destructive command typed into a terminal with send_to_terminal', async () => {
    const out = await decision('pre-send-to-terminal-destructive');
    assert.equal(out?.permissionDecision, 'ask');
    assert.match(out?.permissionDecisionReason ?? '', /Destructive command: rm -rf src\/auth/);
  });

  it('refuses vscode_renameSymbol with how to make the change in checked steps, and logs the refusal', async () => {
    const out = await decision('pre-rename-symbol');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /vscode_listCodeUsages.*replace_string_in_file/);
    const log = (await readFile(join(h.root, '.orchestration/governance_log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { tool_name: string; decision: string; agent: { name: string } });
    assert.deepEqual(log.map((r) => [r.tool_name, r.decision, r.agent.name]), [['vscode_renameSymbol', 'deny', 'vscode-agent']]);
  });

  it('lets the intent-governor MCP tools through (they are governed where they run) and refuses another server’s', async () => {
    assert.equal(await decision('pre-own-mcp-tool'), undefined);
    const out = await decision('pre-other-mcp-tool');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /'mcp_github_create_or_update_file' is a tool of another MCP server, and its name does not say where the server's name ends .*it reads as 'github\/create_or_update_file', 'github_create\/or_update_file', and a plan must allow every reading/);
  });

  it('refuses a tool of another extension it does not know', async () => {
    const out = await decision('pre-unknown-tool');
    assert.equal(out?.permissionDecision, 'deny');
    assert.match(out?.permissionDecisionReason ?? '', /^\[INVALID_INPUT\] Intent Governor does not know VS Code's tool 'configure_python_environment'/);
  });
});
