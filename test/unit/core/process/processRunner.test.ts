import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runProcess, runShellCommand, type RunOptions } from '../../../../src/core/process/processRunner';

/** Alive and not a zombie waiting for a reaper (containers often have none). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = /\) (\S) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Signals take effect asynchronously: wait (generously) for the processes to be gone. */
async function gone(pids: number[]): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 20) {
    if (!pids.some(isAlive)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const pidsIn = (stdout: string): number[] => stdout.split(/\s+/).filter(Boolean).map(Number);

describe('processRunner', () => {
  let cwd: string;
  const options = (overrides: Partial<RunOptions> = {}): RunOptions => ({
    cwd,
    timeoutMs: 15_000,
    maxOutputBytes: 1_000_000,
    env: process.env,
    ...overrides,
  });
  const spawned: number[] = [];

  beforeEach(async () => {
    cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ig-run-')));
  });
  afterEach(async () => {
    for (const pid of spawned.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL'); // never leak on failure
    await fs.rm(cwd, { recursive: true, force: true });
  });

  it('reports the exit code and captures stdout and stderr separately, in the given directory', async () => {
    const result = await runShellCommand('pwd; echo oops >&2; exit 3', options());
    assert.equal(result.exitCode, 3);
    assert.equal(result.signal, null);
    assert.equal(result.stdout, `${cwd}\n`);
    assert.equal(result.stderr, 'oops\n');
    assert.equal(result.truncated, false);
    assert.equal(result.timedOut, false);
    assert.ok(result.durationMs >= 0);
  });

  it('passes arguments verbatim, without a shell', async () => {
    const result = await runProcess(process.execPath, ['-e', 'process.stdout.write(process.argv[1])', 'a b; $(rm -rf /)'], options());
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, 'a b; $(rm -rf /)');
  });

  it('feeds stdin, and closes it when none is given', async () => {
    assert.equal((await runShellCommand('cat', options({ stdin: '{"tool":"write_file"}\n' }))).stdout, '{"tool":"write_file"}\n');
    assert.equal((await runShellCommand('cat', options())).stdout, '');
  });

  it('decodes output as UTF-8', async () => {
    assert.equal((await runShellCommand("printf 'h\\303\\251llo \\342\\234\\223'", options())).stdout, 'héllo ✓');
  });

  it('kills a command that runs past its timeout, with its background children', async () => {
    const result = await runShellCommand('sleep 999 & echo $!; sleep 999 & echo $!; wait', options({ timeoutMs: 300, killGraceMs: 200 }));
    const pids = pidsIn(result.stdout);
    spawned.push(...pids);
    assert.equal(result.timedOut, true);
    assert.equal(pids.length, 2);
    assert.equal(await gone(pids), true, `still running: ${pids.filter(isAlive).join(', ')}`);
  });

  it('kills the command with its background children when the call is cancelled, and says so', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ig-cancel-'));
    const pidFile = path.join(dir, 'pids');
    try {
      const controller = new AbortController();
      const running = runShellCommand(`sleep 999 & echo $! >> ${pidFile}; sleep 999 & echo $! >> ${pidFile}; wait`, options({ timeoutMs: 60_000, killGraceMs: 200, signal: controller.signal }));
      let pids: number[] = [];
      while (pids.length < 2) {
        pids = pidsIn(await fs.readFile(pidFile, 'utf8').catch(() => ''));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      spawned.push(...pids);
      controller.abort();
      const result = await running;
      assert.equal(result.cancelled, true);
      assert.equal(result.timedOut, false);
      assert.equal(await gone(pids), true, `still running: ${pids.filter(isAlive).join(', ')}`);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('does not start a command whose call was already cancelled', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ig-cancel-'));
    try {
      const result = await runShellCommand(`touch ${dir}/ran`, options({ signal: AbortSignal.abort() }));
      assert.equal(result.cancelled, true);
      assert.equal(result.exitCode, null);
      await assert.rejects(fs.stat(path.join(dir, 'ran')));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const result = await runShellCommand("trap '' TERM; sleep 999 & echo $!; wait", options({ timeoutMs: 300, killGraceMs: 200 }));
    const pids = pidsIn(result.stdout);
    spawned.push(...pids);
    assert.equal(result.timedOut, true);
    assert.equal(result.signal, 'SIGKILL');
    assert.equal(await gone(pids), true);
  });

  it('does not wait for, nor leave behind, background processes once the command itself exits', async () => {
    const holdingPipes = await runShellCommand('sleep 999 & echo $!', options());
    const detached = await runShellCommand('sleep 999 >/dev/null 2>&1 & echo $!', options());
    const pids = [...pidsIn(holdingPipes.stdout), ...pidsIn(detached.stdout)];
    spawned.push(...pids);
    assert.equal(holdingPipes.timedOut, false); // it would time out after 15 s if it waited for the pipes
    assert.equal(holdingPipes.exitCode, 0);
    assert.equal(detached.exitCode, 0);
    assert.equal(pids.length, 2);
    assert.equal(await gone(pids), true, `still running: ${pids.filter(isAlive).join(', ')}`);
  });

  it('caps 100 MB of output at maxOutputBytes and stops the command', async () => {
    const result = await runShellCommand('head -c 100000000 /dev/zero', options({ maxOutputBytes: 1_000_000 }));
    assert.equal(result.truncated, true);
    assert.equal(result.stdout.length, 1_000_000);
    assert.notEqual(result.exitCode, 0);
  });

  it('counts stdout and stderr together against the cap', async () => {
    const result = await runShellCommand('head -c 3000 /dev/zero >&2; head -c 3000 /dev/zero', options({ maxOutputBytes: 4000 }));
    assert.equal(result.truncated, true);
    assert.equal(result.stdout.length + result.stderr.length, 4000);
  });

  it('returns a spawn failure as a result instead of throwing', async () => {
    const badCwd = await runShellCommand('echo hi', options({ cwd: path.join(cwd, 'missing') }));
    assert.equal(badCwd.exitCode, null);
    assert.match(badCwd.stderr, /ENOENT/);
    const badFile = await runProcess(path.join(cwd, 'no-such-program'), [], options());
    assert.equal(badFile.exitCode, null);
    assert.match(badFile.stderr, /no-such-program/);
    const badArgument = await runProcess('/bin/echo', ['nul\0byte'], options());
    assert.equal(badArgument.exitCode, null);
    assert.match(badArgument.stderr, /Could not start/);
  });
});
