import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandHookExecutor } from '../../../../src/core/userHooks/commandHookExecutor';
import type { HookExecution, HookRunContext } from '../../../../src/core/userHooks/hookExecution';
import { readHookExecution } from '../../../../src/core/userHooks/hookOutput';
import type { HookAction, HookSpec } from '../../../../src/core/userHooks/hookSpec';

type CommandAction = Extract<HookAction, { type: 'command' }>;

/** Alive and not a zombie waiting for a reaper (containers often have none). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = /\) (\S) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 20) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function spec(action: CommandAction, overrides: Partial<HookSpec> = {}): HookSpec {
  return {
    id: '.orchestration/hooks.json#PreToolUse[0].hooks[0]',
    identity: 'sha256:guard',
    name: 'guard',
    event: 'PreToolUse',
    matcher: '',
    action,
    timeoutMs: 15_000,
    async: false,
    asyncRewake: false,
    once: false,
    onFailure: 'block',
    source: { layer: 'project', file: '.orchestration/hooks.json' },
    approvalHash: 'sha256:0',
    ...overrides,
  };
}

describe('commandHookExecutor: hook commands as real processes', () => {
  let cwd: string;
  const leftovers: number[] = [];
  const context = (overrides: Partial<HookRunContext> = {}): HookRunContext => ({
    input: '{"hook_event_name":"PreToolUse","tool_name":"Bash"}',
    env: { PATH: process.env.PATH, TOOL_NAME: 'Bash' },
    cwd,
    timeoutMs: 15_000,
    ...overrides,
  });
  const run = (action: CommandAction, overrides: Partial<HookRunContext> = {}): Promise<HookExecution> => commandHookExecutor.run(action, spec(action), context(overrides));

  beforeEach(async () => {
    cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ig-command-hook-')));
  });
  afterEach(async () => {
    for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await fs.rm(cwd, { recursive: true, force: true });
  });

  it('runs a shell string with the input on stdin, only the env it is given, in the workspace', async () => {
    const execution = await run({ type: 'command', command: 'cat; printf " %s %s " "$TOOL_NAME" "${HOME:-nohome}"; pwd; echo careful >&2' });
    assert.deepEqual({ ...execution, durationMs: 0 }, {
      kind: 'exited',
      exitCode: 0,
      stdout: `{"hook_event_name":"PreToolUse","tool_name":"Bash"} Bash nohome ${cwd}\n`,
      stderr: 'careful\n',
      durationMs: 0,
    });
  });

  it('passes exec-form arguments to the program as written: no shell expands $(..), ; or backquotes', async () => {
    const args = [process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', '$(touch pwned)', 'a; touch pwned2', '`touch pwned3`', '"quoted" *'];
    const execution = await run({ type: 'command', args });
    assert.equal(execution.kind, 'exited');
    assert.deepEqual(JSON.parse((execution as { stdout: string }).stdout), args.slice(3));
    assert.deepEqual(await fs.readdir(cwd), [], 'nothing ran that the arguments spelled');
  });

  it('reports exit 2 with its stderr, which refuses the call with that reason', async () => {
    const action: CommandAction = { type: 'command', command: 'echo "no pushes on Fridays" >&2; exit 2' };
    const execution = await run(action);
    assert.equal(execution.kind === 'exited' && execution.exitCode, 2);
    const verdict = readHookExecution(spec(action), execution);
    assert.equal(verdict.decision, 'deny');
    assert.equal(verdict.reason, 'no pushes on Fridays');
  });

  it('kills the hook and the children in its process group at its timeout, and fails saying so', async () => {
    const pidFile = path.join(cwd, 'sleeper.pid');
    const action: CommandAction = { type: 'command', command: `sleep 60 & echo $! > ${pidFile}; wait` };
    const execution = await run(action, { timeoutMs: 500 });
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    leftovers.push(pid);
    assert.equal(execution.kind, 'failed');
    assert.match((execution as { message: string }).message, /did not finish within 500 ms; its process group was killed/);
    assert.equal(await gone(pid), true, `the hook's sleep (${pid}) is still running`);
    const verdict = readHookExecution(spec(action), execution);
    assert.equal(verdict.decision, 'deny', 'a hook that did not finish refuses the call (fail closed)');
    assert.match(verdict.reason ?? '', /^The hook 'guard' did not finish within 500 ms.*refused until the hook is fixed/);
  });

  it('stops a hook that writes 1 MB and fails it, rather than reading a cut answer', async () => {
    const execution = await run({ type: 'command', command: 'head -c 1048576 /dev/zero' });
    assert.equal(execution.kind, 'failed');
    assert.match((execution as { message: string }).message, /more than 64 KiB of output/);
  });

  it('fails a missing program and names it, in the exec form and through the shell', async () => {
    const missing = await run({ type: 'command', args: ['/nonexistent/hook-guard', '--check'] });
    assert.equal(missing.kind, 'failed');
    assert.match((missing as { message: string }).message, /could not start '\/nonexistent\/hook-guard'.*ENOENT/);
    const action: CommandAction = { type: 'command', command: 'no-such-hook-program-4711 --check' };
    const throughShell = await run(action);
    assert.equal(throughShell.kind === 'exited' && throughShell.exitCode, 127);
    const verdict = readHookExecution(spec(action), throughShell);
    assert.deepEqual(verdict.failures.map((f) => f.hook), ['guard']);
    assert.match(verdict.failures[0].message, /exited with code 127: .*no-such-hook-program-4711/);
  });

  it('stops the hook when its call is cancelled, and fails it as cancelled', async () => {
    const pidFile = path.join(cwd, 'sleeper.pid');
    const controller = new AbortController();
    const running = run({ type: 'command', command: `sleep 60 & echo $! > ${pidFile}; wait` }, { signal: controller.signal });
    while (!existsSync(pidFile) || (await fs.readFile(pidFile, 'utf8')).trim() === '') await new Promise((resolve) => setTimeout(resolve, 10));
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    leftovers.push(pid);
    controller.abort();
    const execution = await running;
    assert.equal(execution.kind, 'failed');
    assert.match((execution as { message: string }).message, /cancelled/);
    assert.equal(await gone(pid), true, `the hook's sleep (${pid}) is still running`);
  });

  it('fails an exec form with no program instead of running something', async () => {
    const execution = await run({ type: 'command', args: [] });
    assert.equal(execution.kind, 'failed');
    assert.match((execution as { message: string }).message, /empty 'args'/);
  });
});
