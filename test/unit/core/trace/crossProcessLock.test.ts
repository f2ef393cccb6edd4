import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../../src/core/trace/crossProcessLock';
import { bundledScript } from '../../../support/bundledScript';
import { finished, runNode, waitForOutput } from '../../../support/childProcesses';

describe('crossProcessLock', () => {
  let dir: string;
  let lockPath: string;
  const child = () => bundledScript(join(__dirname, '..', '..', '..', 'support', 'lockChild.ts'));
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-lock-'));
    lockPath = join(dir, 'log.jsonl.lock');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lets only one process at a time into the critical section (no lost increments)', async () => {
    const counter = join(dir, 'counter');
    await writeFile(counter, '0');
    const runs = await Promise.all(Array.from({ length: 4 }, () => runNode(child(), ['count', lockPath, counter, '150'])));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    assert.equal(await readFile(counter, 'utf8'), '600');
    await assert.rejects(stat(lockPath), /ENOENT/, 'released locks leave no file behind');
  });

  it('takes over a lock whose holder was killed with SIGKILL', async () => {
    const holder = spawn(process.execPath, [child(), 'hold', lockPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(holder, 'locked');
    const done = finished(holder);
    holder.kill('SIGKILL');
    await done;
    // staleMs is far away, so only the dead pid can explain getting the lock.
    const lock = await acquireLock(lockPath, { timeoutMs: 5000, staleMs: 600_000 });
    await lock.release();
  });

  it('waits for a live holder and then says who holds the lock', async () => {
    const holder = spawn(process.execPath, [child(), 'hold', lockPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitForOutput(holder, 'locked');
      await assert.rejects(acquireLock(lockPath, { timeoutMs: 100 }), new RegExp(`held by pid ${holder.pid}`));
    } finally {
      holder.kill('SIGKILL');
      await finished(holder);
    }
  });

  it('treats a lock from another host as stale only once it is old', async () => {
    await writeFile(lockPath, JSON.stringify({ pid: 1, host: 'another-machine', token: 't', created: 0 }));
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 100, staleMs: 60_000 }), /another-machine/);
    const old = new Date(Date.now() - 120_000);
    await utimes(lockPath, old, old);
    const lock = await acquireLock(lockPath, { timeoutMs: 1000, staleMs: 60_000 });
    await lock.release();
  });

  it('breaks an empty lock file left by a crash between create and write', async () => {
    await writeFile(lockPath, '');
    const old = new Date(Date.now() - 10_000);
    await utimes(lockPath, old, old);
    const lock = await acquireLock(lockPath, { timeoutMs: 1000 });
    await lock.release();
  });
});
