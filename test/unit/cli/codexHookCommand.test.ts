import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** `node dist/hook.js hook codex` as Codex CLI runs it (the command `governor hooks install --agent codex` writes), headless. */
describe('governor hook codex (headless, as Codex CLI runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => ({ h, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  /** A payload captured from codex-cli 0.169.0, aimed at the harness, with another tool input where given. */
  const payload = (fixture: string, toolInput?: Record<string, unknown>) => {
    const value = JSON.parse(hookFixture('codex', fixture, h.root)) as Record<string, unknown>;
    return JSON.stringify(toolInput ? { ...value, tool_input: toolInput } : value);
  };
  const hook = (stdin: string) => runHook('codex', stdin, ['--intent', 'auth-refactor'], env);
  const decision = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;

  it('lets an in-scope apply_patch through by saying nothing, and its PostToolUse traces every file the patch changed as codex-cli', async () => {
    const input = { command: '*** Begin Patch\n*** Update File: src/auth/login.ts\n@@\n export function login() {\n-  return false;\n+  return true;\n }\n*** Add File: src/auth/token.ts\n+export const token = 1;\n*** End Patch\n' };
    const pre = await hook(payload('pre-apply-patch', input));
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    // Codex applies the patch.
    await writeFile(join(h.root, 'src/auth/login.ts'), 'export function login() {\n  return true;\n}\n');
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    const post = await hook(payload('post-apply-patch', input));
    assert.equal(post.code, 0, post.stderr);
    const records = workspace.traceRecords();
    assert.deepEqual(records.map((r) => r.files[0].path), ['src/auth/login.ts', 'src/auth/token.ts']);
    assert.deepEqual(records.map((r) => [r.metadata.agent, r.metadata.intent_id]), [['codex-cli', 'auth-refactor'], ['codex-cli', 'auth-refactor']]);
  });

  it('denies the captured patch (a.txt and sub/c.txt at the root, outside the intent) with the reason the model reads', async () => {
    const run = await hook(payload('pre-apply-patch'));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(decision(run.stdout).permissionDecision, 'deny');
    assert.match(decision(run.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\] "a\.txt" is outside the owned scope of intent auth-refactor/);
  });

  it('denies an edit whose text is no longer in the file (changed since the model read it)', async () => {
    const input = { command: '*** Begin Patch\n*** Update File: src/auth/login.ts\n@@\n-  return false;\n+  return true;\n*** End Patch\n' };
    await writeFile(join(h.root, 'src/auth/login.ts'), 'export function login() {\n  return 42;\n}\n');
    const run = await hook(payload('pre-apply-patch', input));
    assert.equal(decision(run.stdout).permissionDecision, 'deny');
    assert.match(decision(run.stdout).permissionDecisionReason, /edits\[0\]\.search was not found in src\/auth\/login\.ts/);
  });

  it('denies a command that needs a person, saying so, because Codex would run it on an "ask"', async () => {
    const run = await hook(payload('pre-bash', { command: 'rm -rf src/auth' }));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(decision(run.stdout).permissionDecision, 'deny');
    assert.match(decision(run.stdout).permissionDecisionReason, /^Intent Governor asks a human: .*Codex cannot ask a person from a hook, so the call is refused/);
  });

  it('refuses a command that opens an interactive session, the only way write_stdin (which fires no hook) could run unchecked commands', async () => {
    for (const command of ['bash', 'python3']) {
      const run = await hook(payload('pre-bash', { command }));
      assert.equal(decision(run.stdout).permissionDecision, 'deny', `${command}: ${run.stdout}`);
      assert.match(decision(run.stdout).permissionDecisionReason, /starts an interactive session\..* Codex cannot ask a person from a hook/, `${command}: ${run.stdout}`);
    }
  });

  it('judges a command in the directory Codex runs it in (its workdir): outside the workspace, it is refused', async () => {
    const outside = await runHook('codex', payload('pre-bash-workdir'), ['--intent', 'auth-refactor', '--workspace', h.root], env);
    assert.equal(decision(outside.stdout).permissionDecision, 'deny');
    assert.match(decision(outside.stdout).permissionDecisionReason, /^\[PATH_OUTSIDE_WORKSPACE\]/);
    // Without --workspace the governed root is looked up from that directory (/tmp): nothing governs there, so it is refused too.
    assert.equal(decision((await hook(payload('pre-bash-workdir'))).stdout).permissionDecision, 'deny');
  });

  it('gives the model the intent handshake at SessionStart, and frees the session at SessionEnd', async () => {
    const start = await hook(payload('session-start'));
    assert.equal(start.code, 0, start.stderr);
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
    assert.equal(context.hookEventName, 'SessionStart');
    assert.match(context.additionalContext, /auth-refactor/);
    const end = await hook(payload('session-end'));
    assert.equal(end.code, 0, end.stderr);
  });

  it('audits an unknown tool it refuses', async () => {
    const run = await hook(payload('pre-update-goal').replace('"update_goal"', '"request_permissions"'));
    assert.match(decision(run.stdout).permissionDecisionReason, /does not know Codex's tool 'request_permissions'/);
    const log = (await readFile(join(h.root, '.orchestration/governance_log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(log.map((r) => [r.decision, r.code, r.tool_name]), [['deny', 'INVALID_INPUT', 'request_permissions']]);
  });
});
