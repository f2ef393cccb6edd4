import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireLock } from '../io/crossProcessLock';
import { defaultServersDir, folderKey } from './discoveryFile';

/** The right to serve one workspace folder: held by exactly one window (extension host) at a time. */
export interface WorkspaceLease {
  readonly path: string;
  /** Gives the folder up; runs synchronously, so an 'exit' handler may call it. Once. */
  release(): Promise<void>;
}

export type LeaseAttempt = { held: true; lease: WorkspaceLease } | { held: false; why: string };

/** `<servers dir>/<folder key>.lock`, beside the folder's discovery file. */
export function leasePath(folder: string, dir: string = defaultServersDir()): string {
  return join(dir, `${folderKey(folder)}.lock`);
}

/**
 * Takes the folder's lease if nobody holds it, without waiting. The lease is the cross-process lock (a
 * directory holding its owner's pid and start time): of windows starting at once exactly one gets it, and
 * the lease of a window that died is taken over, while a live holder, however slow, keeps it. Any doubt
 * (an unreadable directory, a holder on another machine) answers "not held": that window attaches instead.
 */
export async function tryLeaseFolder(folder: string, dir: string = defaultServersDir()): Promise<LeaseAttempt> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = leasePath(folder, dir);
    const handle = await acquireLock(path, { timeoutMs: 0 });
    return { held: true, lease: { path, release: () => handle.release() } };
  } catch (error) {
    return { held: false, why: error instanceof Error ? error.message : String(error) };
  }
}
