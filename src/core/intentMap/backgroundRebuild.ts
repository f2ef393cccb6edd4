import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { acquireLock, type LockHandle } from '../trace/crossProcessLock';

/**
 * The intent map for doors that live one call long (a `governor hook` process per agent tool call): such a
 * process cannot wait for a rebuild, and a fresh process would reread the whole trace each time. So it only
 * asks, and a detached worker rebuilds, once for a burst of asks, keeping its model between rebuilds.
 *
 * Three small files per workspace under the governor's home: `requested` (a token each ask rewrites), `built`
 * (the token the last rebuild covered) and `worker` (a cross-process lock the running worker holds, taken
 * over from a worker that died). An ask writes `requested`, then starts a worker only if none holds `worker`;
 * a worker, before it exits, lets go of `worker` and then looks at `requested` once more. One of the two always
 * sees the other, so no ask is lost and at most a spare worker is started.
 */
export interface RebuildFiles {
  requested: string;
  built: string;
  worker: string;
}

/** How long a started worker waits for another one still finishing before it gives up (that one will see the ask). */
const WORKER_WAIT_MS = 60_000;

export function rebuildFiles(home: string, workspaceRoot: string): RebuildFiles {
  const dir = join(home, 'intent-map');
  const key = createHash('sha256').update(workspaceRoot, 'utf8').digest('hex').slice(0, 32);
  return { requested: join(dir, `${key}.requested`), built: join(dir, `${key}.built`), worker: join(dir, `${key}.worker`) };
}

/** An ask: record it, and call `startWorker` unless a worker is running (it will see the ask). */
export async function requestRebuild(files: RebuildFiles, startWorker: () => void): Promise<void> {
  mkdirSync(join(files.requested, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(files.requested, randomBytes(16).toString('hex'), { mode: 0o600 });
  let probe: LockHandle;
  try {
    probe = await acquireLock(files.worker, { timeoutMs: 0 });
  } catch {
    return; // held by a live worker, which looks at `requested` again before it lets go
  }
  await probe.release();
  startWorker();
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
