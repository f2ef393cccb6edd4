import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { errnoOf } from '../ioError';
import { currentProcess, localProcessGone, pidAlive } from './processIdentity';


/**
 * A lock shared by every process that writes one thing (a log, a workspace file): VS Code windows, the CLI,
 * the hook bridge. The lock is a DIRECTORY holding one owner marker, `owner-<pid>-<start>-<host id>-<token>`
 * (content: the same as JSON, plus the host name, for messages).
 * - Acquire: build `<path>.acquire-<token>/` with the marker inside, then rename it to `<path>`. rename(2)
 *   onto a missing or empty directory succeeds and onto a non-empty one fails, atomically: one winner, and
 *   the lock never exists without its owner's name in it. An empty lock directory is free.
 * - Release: unlink our own marker (by its unique name), then rmdir, which fails harmlessly when a
 *   successor's marker is already there. Nothing is ever removed by what it looked like a moment ago.
 * - Stale: ONLY a holder on this host that is provably dead (pid gone, or reused: another start time). Age
 *   never counts, so a slow live holder keeps its lock. A reclaimer renames the exact marker it judged dead
 *   to its own `reclaim-…` name: of two reclaimers one rename wins, the other finds nothing to take.
 * - A holder on another host (a shared folder) is never taken over: the waiter times out naming it.
 * Critical sections are short and callers hold the lock across a few syscalls, so acquire and release use
 * synchronous calls: no thread-pool hops while others wait (see chainedLog.ts).
 */

export interface LockOptions {
  /** Give up waiting after this long (default 10 s). */
  timeoutMs?: number;
  /** Stop waiting when aborted; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface LockHandle {
  release(): Promise<void>;
}

interface Entry {
  name: string;
  pid: number;
  start: number;
  hostId: string;
}

/** What is at the lock path now, and what a waiter does about it. */
type Holder =
  | { state: 'free' }
  /** `target` is provably abandoned: rename it to `claimed`, then clear the lock directory. */
  | { state: 'dead'; target: string; claimed: string }
  | { state: 'held'; who: string; remedy: string };

const ENTRY_PATTERN = /^(owner|reclaim)-(\d+)-(\d+)-([0-9a-f]{16})-[0-9a-f]{32}$/;
/** rename(2) of a directory onto a non-empty one (POSIX allows either), or onto a file (an older lock). */
const TAKEN = new Set(['ENOTEMPTY', 'EEXIST', 'ENOTDIR']);
/** Windows refuses to rename onto any existing directory, empty or not. */
const TAKEN_WIN32 = new Set(['EPERM', 'EACCES', 'EBUSY']);

let ownHostId: string | undefined;

function hostIdOf(host: string): string {
  return createHash('sha256').update(host, 'utf8').digest('hex').slice(0, 16);
}

function entryName(kind: 'owner' | 'reclaim', token: string): string {
  const self = currentProcess();
  ownHostId ??= hostIdOf(self.host);
  return `${kind}-${self.pid}-${self.start}-${ownHostId}-${token}`;
}

export async function acquireLock(path: string, options: LockOptions = {}): Promise<LockHandle> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { signal } = options;
  signal?.throwIfAborted();
  const token = randomBytes(16).toString('hex');
  const self = currentProcess();
  const attempt: Attempt = {
    path,
    staging: `${path}.acquire-${token}`,
    marker: entryName('owner', token),
    content: JSON.stringify({ pid: self.pid, host: self.host, start: self.start, token, acquired: new Date().toISOString() }),
  };
  // Optimistic first try: an uncontended lock costs mkdir, one small write, rename.
  if (tryTake(attempt)) return handleFor(path, attempt.marker);
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  let quick = 0;
  for (;;) {
    // Waiters only look (readdir, a liveness probe) and build their staging directory only when the
    // lock is free, so a waiter killed while waiting leaves nothing behind.
    const holder = inspect(path, token);
    if (holder.state === 'free' && tryTake(attempt)) return handleFor(path, attempt.marker);
    if (holder.state === 'dead') reclaim(path, holder);
    // Free or just reclaimed: look again at once, but never spin (an empty directory Windows will not remove).
    if (holder.state !== 'held' && quick++ < 3) continue;
    quick = 0;
    if (Date.now() >= deadline) throw new Error(timeoutMessage(path, timeoutMs, holder));
    // Jittered exponential backoff keeps a crowd of waiters from polling in lockstep.
    try {
      await delay(wait + Math.random() * wait, undefined, { signal });
    } catch (error) {
      signal?.throwIfAborted(); // the caller's reason, as at the start
      throw error;
    }
    wait = Math.min(wait * 2, 25);
  }
}

interface Attempt {
  path: string;
  staging: string;
  marker: string;
  content: string;
}

/**
 * Builds `<path>.acquire-<token>/<marker>` and renames it onto the lock path. True when it is ours; false
 * when someone holds it (the staging directory is removed again). ENOENT means the lock's folder is gone:
 * the caller decides whether to recreate it.
 */
function tryTake(attempt: Attempt): boolean {
  mkdirSync(attempt.staging);
  try {
    writeFileSync(join(attempt.staging, attempt.marker), attempt.content, { flag: 'wx' });
    renameSync(attempt.staging, attempt.path);
    return true;
  } catch (error) {
    rmSync(attempt.staging, { recursive: true, force: true });
    const code = errnoOf(error) ?? '';
    if (TAKEN.has(code) || (process.platform === 'win32' && TAKEN_WIN32.has(code))) return false;
    throw error;
  }
}

function handleFor(path: string, marker: string): LockHandle {
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        unlinkSync(join(path, marker));
      } catch {
        // Our marker is gone: we were judged dead and someone else holds the lock now. Leave theirs alone.
        return;
      }
      rmdirQuietly(path);
    },
  };
}

function inspect(path: string, token: string): Holder {
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return { state: 'free' };
    if (code === 'ENOTDIR') return inspectLegacy(path, token);
    throw error;
  }
  if (names.length === 0) {
    // A crash between steps, or a release half done: nobody's lock. (POSIX renames onto it anyway.)
    rmdirQuietly(path);
    return { state: 'free' };
  }
  ownHostId ??= hostIdOf(currentProcess().host);
  let held: Holder | undefined;
  for (const name of names) {
    const entry = parseEntry(name);
    if (!entry) {
      held ??= { state: 'held', who: `held by something this version does not know (${name})`, remedy: removeHint(path) };
    } else if (entry.hostId === ownHostId && localProcessGone(entry.pid, entry.start)) {
      return { state: 'dead', target: join(path, name), claimed: join(path, entryName('reclaim', token)) };
    } else {
      held ??= describeHolder(path, entry);
    }
  }
  return held ?? { state: 'free' };
}

function parseEntry(name: string): Entry | undefined {
  const match = ENTRY_PATTERN.exec(name);
  if (!match) return undefined;
  return { name, pid: Number(match[2]), start: Number(match[3]), hostId: match[4] };
}

function describeHolder(path: string, entry: Entry): Holder {
  let host: string | undefined;
  let since = '';
  try {
    const owner = JSON.parse(readFileSync(join(path, entry.name), 'utf8')) as { host?: unknown; acquired?: unknown };
    if (typeof owner.host === 'string') host = owner.host;
    if (typeof owner.acquired === 'string') since = ` since ${owner.acquired}`;
  } catch {
    // Released while we looked, or unreadable: the name alone still says who.
  }
  if (entry.hostId !== ownHostId) {
    return {
      state: 'held',
      who: `held by pid ${entry.pid} on another machine (${host ?? `host id ${entry.hostId}`})${since}`,
      remedy: `This machine cannot tell whether that process still runs there, so it never takes the lock over. ${removeHint(path)}`,
    };
  }
  return {
    state: 'held',
    who: `held by pid ${entry.pid} on ${host ?? 'this machine'}${since}`,
    remedy: `That process is alive; if it is stuck, stop it: the lock of a process that has exited is taken over automatically.`,
  };
}

/**
 * Before the lock was a directory it was a file holding `{pid, host}`, and a governor of that version may
 * still run (or have died holding it). Same rules: only a provably dead holder on this host is taken over.
 */
function inspectLegacy(path: string, token: string): Holder {
  let owner: { pid?: unknown; host?: unknown } | undefined;
  try {
    owner = JSON.parse(readFileSync(path, 'utf8')) as typeof owner;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { state: 'free' };
    owner = undefined;
  }
  const pid = typeof owner?.pid === 'number' ? owner.pid : undefined;
  const host = typeof owner?.host === 'string' ? owner.host : undefined;
  if (pid === undefined || host === undefined) {
    return { state: 'held', who: 'held by a lock file of an older version that names no owner', remedy: removeHint(path) };
  }
  if (host === currentProcess().host && !pidAlive(pid)) return { state: 'dead', target: path, claimed: `${path}.reclaim-${token}` };
  return { state: 'held', who: `held by pid ${pid} on ${host} (a lock file of an older version)`, remedy: removeHint(path) };
}

/** Takes the exact entry judged dead; losing the rename to another reclaimer (ENOENT) is fine. */
function reclaim(path: string, dead: { target: string; claimed: string }): void {
  try {
    renameSync(dead.target, dead.claimed);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw error;
  }
  try {
    unlinkSync(dead.claimed);
  } catch {
    // Already gone: the outcome we wanted.
  }
  rmdirQuietly(path);
}

function rmdirQuietly(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Not empty (a new holder's marker), already gone, or a file: in every case not ours to remove.
  }
}

function removeHint(path: string): string {
  return `If no governor is running, remove ${path} (rm -r; the next writer creates it again).`;
}

function timeoutMessage(path: string, timeoutMs: number, holder: Holder): string {
  const about = holder.state === 'held' ? `${holder.who}. ${holder.remedy}` : 'which kept changing hands.';
  return `Timed out after ${timeoutMs} ms waiting for the lock ${path}, ${about}`;
}
