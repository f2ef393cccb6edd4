import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { errnoOf } from '../ioError';
import { acquireLock, type LockHandle } from '../io/crossProcessLock';
import { localProcessGone } from '../io/processIdentity';

/**
 * The intent map for doors that live one call long (a `governor hook` process per agent tool call): such a
 * process cannot wait for a rebuild, and a fresh process would reread the whole trace each time. So it only
 * asks, and a detached worker rebuilds, once for a burst of asks, keeping its model between rebuilds.
 *
 * Four small files per workspace under the governor's home: `requested` (a token each ask rewrites), `built`
 * (the token the last rebuild covered), `worker` (a cross-process lock the running worker holds, taken over
 * from a worker that died) and `starting` (a worker was started and has not taken `worker` yet: its pid).
 * An ask writes `requested`, then starts a worker only if none holds `worker` and none is on its way; a
 * worker takes `worker`, clears `starting`, and before it exits lets go of `worker` and looks at `requested`
 * once more. One of them always sees the other, so no ask is lost, and a burst of parallel asks starts one
 * worker (and at most a spare), not one each.
 */
export interface RebuildFiles {
  requested: string;
  built: string;
  worker: string;
  starting: string;
}

/** How long a started worker waits for another one still finishing before it gives up (that one will see the ask). */
const WORKER_WAIT_MS = 60_000;

export function rebuildFiles(home: string, workspaceRoot: string): RebuildFiles {
  const dir = join(home, 'intent-map');
  const key = createHash('sha256').update(workspaceRoot, 'utf8').digest('hex').slice(0, 32);
  return { requested: join(dir, `${key}.requested`), built: join(dir, `${key}.built`), worker: join(dir, `${key}.worker`), starting: join(dir, `${key}.starting`) };
}

/**
 * An ask: record it, and call `startWorker` (which answers the started process's pid) unless a worker is
 * running or on its way: either reads `requested` after this write.
 */
export async function requestRebuild(files: RebuildFiles, startWorker: () => number | undefined): Promise<void> {
  mkdirSync(join(files.requested, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(files.requested, randomBytes(16).toString('hex'), { mode: 0o600 });
  let probe: LockHandle;
  try {
    probe = await acquireLock(files.worker, { timeoutMs: 0 });
  } catch {
    return; // held by a live worker, which looks at `requested` again before it lets go
  }
  await probe.release();
  if (!claimStart(files.starting)) return; // a worker on its way clears `starting` before it reads `requested`
  const pid = startWorker();
  if (pid !== undefined) writeFileSync(files.starting, JSON.stringify({ pid, at: Date.now() }), { mode: 0o600 });
}

/** A marker with no pid yet is an asker between its claim and its spawn; one this old has died there. */
const UNSPAWNED_STALE_MS = 10_000;

/** True when this ask is the one to start a worker: no `starting` marker, or one whose worker will never come. */
function claimStart(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ at: Date.now() }));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
    if (!startAbandoned(path)) return false;
    rmSync(path, { force: true }); // two askers taking over at once both start one: a harmless spare
  }
  return false;
}

function startAbandoned(path: string): boolean {
  let marker: { pid?: unknown; at?: unknown };
  try {
    marker = JSON.parse(readFileSync(path, 'utf8')) as typeof marker;
  } catch {
    marker = {}; // being written, or damaged: judged by its age
  }
  const at = typeof marker.at === 'number' ? marker.at : mtimeOf(path);
  // A started worker waits at most WORKER_WAIT_MS for the lock: a marker older than that is a pid reused.
  if (Date.now() - at > WORKER_WAIT_MS + UNSPAWNED_STALE_MS) return true;
  if (typeof marker.pid === 'number' && Number.isSafeInteger(marker.pid) && marker.pid > 0) return localProcessGone(marker.pid, 0);
  return Date.now() - at > UNSPAWNED_STALE_MS;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0; // gone while we looked: free to claim
  }
}

/**
 * The worker: waits `delayMs` so a burst of asks arrives, rebuilds until `built` matches `requested`, and exits
 * once no ask is left. `rebuild` reports failure as false: the worker then stops, and the next ask starts another.
 */
export async function serveRebuilds(files: RebuildFiles, rebuild: () => Promise<boolean>, options: { delayMs: number; waitMs?: number }): Promise<void> {
  let lock: LockHandle;
  try {
    lock = await acquireLock(files.worker, { timeoutMs: options.waitMs ?? WORKER_WAIT_MS });
  } catch {
    return; // another worker is still at it, and will see every ask written so far
  }
  rmSync(files.starting, { force: true }); // from here on, askers see `worker` held
  for (;;) {
    await delay(options.delayMs);
    let ok = true;
    try {
      for (let wanted = read(files.requested); ok && wanted !== read(files.built); wanted = read(files.requested)) {
        ok = await rebuild();
        if (ok) writeFileSync(files.built, wanted, { mode: 0o600 });
      }
    } finally {
      await lock.release();
    }
    if (!ok || read(files.requested) === read(files.built)) return;
    // An ask arrived while we were letting go: serve it, unless a worker it started already took over.
    try {
      lock = await acquireLock(files.worker, { timeoutMs: 0 });
    } catch {
      return;
    }
  }
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
