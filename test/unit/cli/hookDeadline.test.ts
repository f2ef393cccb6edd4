import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { finished, type Finished } from '../../support/childProcesses';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { spawnHook } from '../../support/runHook';

// Valid globs and mcp_tools keys the loader accepts, whose matching backtracked for minutes on a long name.
const HOSTILE_GLOB = `src/${'*a'.repeat(40)}*b/**`;
const HOSTILE_TOOL = `mcp__${'*a'.repeat(40)}*b__*`;
const HOSTILE_INTENTS = `mcp_tools:
  "${HOSTILE_TOOL}": read
active_intents:
  - id: auth-refactor
    name: Refactor authentication
    status: IN_PROGRESS
    owned_scope:
      - "${HOSTILE_GLOB}"
`;
const LONG_NAME = 'a'.repeat(200);

/** A real process on `stdin`, killed if it outlives `limitMs` (then `gaveUp`), with how long it took. */
async function within(child: ChildProcess, stdin: string, limitMs: number): Promise<Finished & { gaveUp: boolean; elapsed: number }> {
  const started = Date.now();
  let gaveUp = false;
  const timer = setTimeout(() => {
    gaveUp = true;
    child.kill('SIGKILL');
  }, limitMs);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(stdin);
  try {
    return { ...(await finished(child)), gaveUp, elapsed: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

function preAnswer(stdout: string): { permissionDecision: string; permissionDecisionReason: string } {
  return (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
}

describe('a hook answers within its deadline, whatever the plan and whatever its judging does', () => {
  let workspace: HeadlessHookWorkspace;
  beforeEach(async () => (workspace = await headlessHookWorkspace({ intents: HOSTILE_INTENTS })));
  afterEach(() => workspace.dispose());

  const write = (root: string) =>
    JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 'toolu_1', tool_input: { file_path: join(root, 'src', LONG_NAME, 'x.ts'), content: 'x\n' } });

  it('governor decide judges a long path against a hostile owned_scope glob at once (out of scope)', async () => {
    const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
    const child = spawn(process.execPath, [cli, 'decide', '--workspace', workspace.h.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    const call = { tool: 'write_file', input: { path: `src/${LONG_NAME}/x.ts`, content: 'x' }, session_id: 's', intent_id: 'auth-refactor' };
    const run = await within(child, JSON.stringify(call), 15_000);
    assert.equal(run.gaveUp, false, 'governor decide gave no answer in 15 s');
    assert.equal(run.code, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { decision: string; code: string };
    assert.deepEqual([answer.decision, answer.code], ['deny', 'SCOPE_VIOLATION']);
    assert.ok(run.elapsed < 10_000, `${run.elapsed} ms`);
  });

  it('governor hook claude --timeout-ms 3000 refuses a write under a hostile glob before its deadline', async () => {
    const run = await within(spawnHook('claude', ['--intent', 'auth-refactor', '--timeout-ms', '3000'], workspace.env), write(workspace.h.root), 15_000);
    assert.equal(run.gaveUp, false, 'the hook outlived its own timeout');
    assert.ok(run.elapsed < 3_000 + 2_000, `${run.elapsed} ms`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(preAnswer(run.stdout).permissionDecision, 'deny');
  });

  it('governor hook claude refuses another server’s tool with a long name under a hostile mcp_tools key before its deadline', async () => {
    const root = workspace.h.root;
    const payload = JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'PreToolUse', tool_name: `mcp__${'a'.repeat(3000)}__x`, tool_use_id: 'toolu_2', tool_input: {} });
    const run = await within(spawnHook('claude', ['--intent', 'auth-refactor', '--timeout-ms', '3000'], workspace.env), payload, 15_000);
    assert.equal(run.gaveUp, false, 'the hook outlived its own timeout');
    assert.ok(run.elapsed < 3_000 + 2_000, `${run.elapsed} ms`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(preAnswer(run.stdout).permissionDecision, 'deny');
  });

  describe('when the judging thread is stuck in JavaScript', () => {
    let dir: string;
    let env: NodeJS.ProcessEnv;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ig-stall-'));
      // Preloaded into the hook process: once the headless governor is loaded (through the code cache's vm.Script) to
      // judge, the main thread never yields again.
      const stall = join(dir, 'stall.js');
      await writeFile(
        stall,
        `const vm = require('node:vm');
const run = vm.Script.prototype.runInThisContext;
vm.Script.prototype.runInThisContext = function (...args) {
  if (require('node:worker_threads').isMainThread) setImmediate(() => { for (;;) {} });
  return run.apply(this, args);
};
`,
      );
      env = { ...workspace.env, NODE_OPTIONS: `--require ${stall}` };
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('still refuses at --timeout-ms, in the dialect the timer would have used, and exits with its code', async () => {
      const run = await within(spawnHook('claude', ['--intent', 'auth-refactor', '--timeout-ms', '1500'], env), write(workspace.h.root), 15_000);
      assert.equal(run.gaveUp, false, 'the hook hung with its event loop');
      assert.ok(run.elapsed < 1_500 + 1_500, `${run.elapsed} ms`);
      assert.deepEqual([run.code, run.signal], [2, null], run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, 'Intent Governor blocked this call: Intent Governor did not decide within 1500 ms, so the call is refused (fail closed).\n');
    });
  });
});
