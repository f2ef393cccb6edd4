import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** How long a late writer may keep a tree from being removed. */
const GIVE_UP_MS = 15_000;

/** Whether a removal that failed with `error` is tried again from the start (a late writer), before `giveUp`. */
function tryAgain(error: unknown, giveUp: number): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (code === 'ENOTEMPTY' || code === 'EBUSY' || code === 'EPERM') && Date.now() <= giveUp;
}

const backoffMs = (attempt: number) => Math.min(100 * attempt, 1000);

/**
 * Removes a test's temporary workspace or governor home. A process that governed the session (a hook's detached
 * intent-map worker, an MCP server its agent left to finish) may still write there. Node's own retries only retry
 * the folder's rmdir and never remove a file written after they listed it, so each attempt here starts over.
 */
export async function removeTree(path: string): Promise<void> {
  const giveUp = Date.now() + GIVE_UP_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await rm(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (!tryAgain(error, giveUp)) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
    }
  }
}

/** `removeTree` for a caller that cannot await (it blocks while it waits). */
export function removeTreeSync(path: string): void {
  const giveUp = Date.now() + GIVE_UP_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (!tryAgain(error, giveUp)) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, backoffMs(attempt));
    }
  }
}
