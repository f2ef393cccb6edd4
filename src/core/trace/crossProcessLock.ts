import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { errnoOf } from '../ioError';

/**
 * A lock file shared by every process that appends to one log (VS Code windows, the CLI, the hook bridge).
 * Acquire = create `<path>` with O_EXCL holding `{pid, host, token, created}`; release = unlink it if it is
 * still the file we created (same inode). A holder killed with SIGKILL leaves the file behind, so a waiter
 * treats it as stale when the pid is gone (same host) or it is older than `staleMs` (other hosts, pid
 * reuse). Stale locks are broken under a second O_EXCL "breaker" file, re-checking inode and content first,
 * so two waiters cannot both break the same stale lock and one of them remove a fresh lock the other took.
 * Lost races are harmless for the logs anyway: two writers holding a broken lock fork the chain (reported
 * as a merge), they never tear a line, since each line is one O_APPEND write.
 */

export interface LockOptions {
  /** Give up waiting after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its pid looks alive (default 30 s; our critical sections take ms). */
  staleMs?: number;
}

export interface LockHandle {
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  created: number;
}

interface Observed {
  ino: number;
  mtimeMs: number;
  raw: string;
  owner?: LockOwner;
}

/** Between open(O_EXCL) and writing the owner there is a moment with an empty file; only a crash makes it last. */
const EMPTY_LOCK_GRACE_MS = 2000;

export async function acquireLock(path: string, options: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomUUID(), created: Date.now() };
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  for (;;) {
    const ino = tryCreate(path, JSON.stringify(owner));
    if (ino !== undefined) return handleFor(path, ino);
    const holder = await observe(path);
    if (!holder) continue; // released between our attempt and the look
    if (isStale(holder, staleMs)) {
      await breakStale(path, holder, staleMs);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder.owner ? `pid ${holder.owner.pid} on ${holder.owner.host}` : 'an unknown process';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for the lock ${path}, held by ${who}. If no governor is running, delete that file.`);
    }
    // Jittered exponential backoff keeps 16 waiters from polling in lockstep.
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 25);
  }
}

/**
 * Creates the lock file with O_EXCL and writes the owner; returns its inode, or undefined when it already
 * exists. Synchronous like the rest of the critical section: a few µs, versus a thread-pool hop per call.
 */
function tryCreate(path: string, content: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(fd, content);
    return fstatSync(fd).ino;
  } finally {
    closeSync(fd);
  }
}

function handleFor(path: string, ino: number): LockHandle {
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // If our lock was judged stale and broken, the file there now is someone else's (another inode): leave it.
      try {
        if (statSync(path).ino === ino) unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}

async function observe(path: string): Promise<Observed | undefined> {
  try {
    const [info, raw] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    let owner: LockOwner | undefined;
    try {
      const parsed = JSON.parse(raw) as LockOwner;
      if (typeof parsed.pid === 'number' && typeof parsed.token === 'string') owner = parsed;
    } catch {
      owner = undefined;
    }
    return { ino: info.ino, mtimeMs: info.mtimeMs, raw, owner };
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(lock: Observed, staleMs: number): boolean {
  const age = Date.now() - lock.mtimeMs;
  if (!lock.owner) return age > Math.min(EMPTY_LOCK_GRACE_MS, staleMs);
  if (age > staleMs) return true;
  return lock.owner.host === hostname() && !pidAlive(lock.owner.pid);
}

/** Signal 0 probes without delivering anything: ESRCH = gone, EPERM = alive but not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

async function breakStale(path: string, observed: Observed, staleMs: number): Promise<void> {
  const breaker = `${path}.break`;
  const breakerOwner = { pid: process.pid, host: hostname(), token: randomUUID(), created: Date.now() };
  if (tryCreate(breaker, JSON.stringify(breakerOwner)) === undefined) {
    // Someone else is breaking it; if that someone died mid-break, clear the breaker so the next round can.
    const other = await observe(breaker);
    if (other && isStale(other, staleMs)) unlinkQuietly(breaker);
    else await sleep(1);
    return;
  }
  try {
    const current = await observe(path);
    if (current && current.ino === observed.ino && current.raw === observed.raw) unlinkQuietly(path);
  } finally {
    unlinkQuietly(breaker);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Someone else removed it first: the outcome we wanted.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
