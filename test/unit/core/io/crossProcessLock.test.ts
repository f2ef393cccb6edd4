import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../../src/core/io/crossProcessLock';
import { bundledScript } from '../../../support/bundledScript';
import { finished, runNode, waitForOutput } from '../../../support/childProcesses';

/** The owner marker another process would have left: `owner-<pid>-<start>-<host id>-<token>` inside the lock directory. */
async function plantOwner(lockPath: string, owner: { pid: number; start: number; host: string }): Promise<void> {
  await mkdir(lockPath);
  const token = randomBytes(16).toString('hex');
  const hostId = createHash('sha256').update(owner.host).digest('hex').slice(0, 16);
  await writeFile(join(lockPath, `owner-${owner.pid}-${owner.start}-${hostId}-${token}`), JSON.stringify({ ...owner, token }));
}

/** Linux: field 22 of /proc/<pid>/stat, the process start time the lock records. */
function startTime(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await finished(child);
  return child.pid as number;
}

/** Sets the mtime of the lock (and of whatever it holds) ten minutes back, whatever shape the lock has. */
async function backdate(lockPath: string): Promise<void> {
  const old = new Date(Date.now() - 600_000);
  if ((await stat(lockPath)).isDirectory()) for (const name of await readdir(lockPath)) await utimes(join(lockPath, name), old, old);
  await utimes(lockPath, old, old);
}

describe('crossProcessLock', function () {
  this.timeout(60_000);
  let dir: string;
  let lockPath: string;
  const holders: ChildProcess[] = [];
  const child = () => bundledScript(join(__dirname, '..', '..', '..', 'support', 'lockChild.ts'));
  const hold = async (): Promise<ChildProcess> => {
    const holder = spawn(process.execPath, [child(), 'hold', lockPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    holders.push(holder);
    await waitForOutput(holder, 'locked');
    return holder;
  };
  const kill = async (holder: ChildProcess) => {
    const done = finished(holder);
    holder.kill('SIGKILL');
    await done;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-lock-'));
    lockPath = join(dir, 'log.jsonl.lock');
  });
  afterEach(async () => {
    for (const holder of holders.splice(0)) if (holder.exitCode === null && holder.signalCode === null) await kill(holder);
    await rm(dir, { recursive: true, force: true });
  });

  it('lets only one process at a time into the critical section (no overlap, no lost increments)', async () => {
    const counter = join(dir, 'counter');
    await writeFile(counter, '0');
    const runs = await Promise.all(Array.from({ length: 4 }, () => runNode(child(), ['count', lockPath, counter, '150'])));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    assert.equal(await readFile(counter, 'utf8'), '600');
    assert.deepEqual(await readdir(dir), ['counter'], 'released locks leave nothing behind');
  });

  it('takes over a lock whose holder was killed with SIGKILL', async () => {
    await kill(await hold());
    const lock = await acquireLock(lockPath, { timeoutMs: 5000 });
    await lock.release();
    await assert.rejects(stat(lockPath), /ENOENT/);
  });

  it('never takes a lock from a live holder, however old the lock is', async () => {
    const holder = await hold();
    await backdate(lockPath);
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 300 }), new RegExp(`held by pid ${holder.pid} on ${hostname()}.*it is stuck, stop it`));
  });

  it('leaves nothing behind when a waiter is killed while it waits', async () => {
    await hold();
    const waiter = spawn(process.execPath, [child(), 'hold', lockPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    holders.push(waiter);
    await waitForOutput(waiter, 'trying');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await kill(waiter);
    assert.deepEqual(await readdir(dir), ['log.jsonl.lock']);
    assert.equal((await readdir(lockPath)).length, 1, 'only the holder\'s marker');
  });

  it('does not remove the lock of a successor when the old holder releases late', async () => {
    const first = await acquireLock(lockPath, { timeoutMs: 1000 });
    // The first holder's lock is gone (as if judged dead) and another process holds the lock now.
    await rm(lockPath, { recursive: true, force: true });
    const successor = await hold();
    await first.release();
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 200 }), new RegExp(`held by pid ${successor.pid}`));
    await kill(successor);
  });

  it('takes over a dead holder once even when many processes wait for it (no overlap)', async () => {
    await plantOwner(lockPath, { pid: await deadPid(), start: 0, host: hostname() });
    const counter = join(dir, 'counter');
    await writeFile(counter, '0');
    const runs = await Promise.all(Array.from({ length: 4 }, () => runNode(child(), ['count', lockPath, counter, '20'])));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    assert.equal(await readFile(counter, 'utf8'), '80');
  });

  it('takes over a lock whose pid now belongs to another process (pid reuse)', async function () {
    if (process.platform !== 'linux') this.skip();
    const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    holders.push(unrelated);
    const pid = unrelated.pid as number;
    await plantOwner(lockPath, { pid, start: startTime(pid) + 1, host: hostname() });
    const lock = await acquireLock(lockPath, { timeoutMs: 2000 });
    await lock.release();
    await rm(lockPath, { recursive: true, force: true });
    // The same pid with its real start time is a live holder.
    await plantOwner(lockPath, { pid, start: startTime(pid), host: hostname() });
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 200 }), new RegExp(`held by pid ${pid}`));
  });

  it('never takes over a lock held on another machine, and says who holds it and how to clear it', async () => {
    await plantOwner(lockPath, { pid: 1, start: 0, host: 'another-machine' });
    await backdate(lockPath);
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 300 }), (error: Error) => {
      assert.match(error.message, /held by pid 1 on another machine \(another-machine\)/);
      assert.match(error.message, new RegExp(`remove ${lockPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(rm -r`));
      return true;
    });
  });

  it('takes an empty lock directory left by a crash between steps', async () => {
    await mkdir(lockPath);
    const lock = await acquireLock(lockPath, { timeoutMs: 1000 });
    await lock.release();
    await assert.rejects(stat(lockPath), /ENOENT/);
  });

  it('stops waiting when its signal is aborted', async () => {
    await hold();
    const controller = new AbortController();
    const waiting = acquireLock(lockPath, { timeoutMs: 30_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.deepEqual((await readdir(dir)).sort(), ['log.jsonl.lock'], 'the waiter cleans up after itself');
  });

  it('honours a lock file left by an older version: waits for a live pid, takes over a dead one', async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token: 't', created: Date.now() }));
    await assert.rejects(acquireLock(lockPath, { timeoutMs: 200 }), new RegExp(`held by pid ${process.pid}`));
    await writeFile(lockPath, JSON.stringify({ pid: await deadPid(), host: hostname(), token: 't', created: Date.now() }));
    const lock = await acquireLock(lockPath, { timeoutMs: 1000 });
    await lock.release();
    assert.deepEqual(await readdir(dir), []);
  });
});
