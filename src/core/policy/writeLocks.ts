import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import { acquireLock, type LockHandle } from '../io/crossProcessLock';
import { PathLocks } from './pathLock';

/** Where every governor process (VS Code windows, `governor mcp`, the hook bridge) takes its per-file write locks. */
export function writeLockDir(root: string): string {
  return join(root, '.orchestration', 'locks');
}

/** Long enough for a human-sized file to be checked and renamed; a holder that is alive but stuck this long is a bug. */
const DEFAULT_TIMEOUT_MS = 15_000;

export interface WriteLockOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The lock a file write holds from its final check to its rename: first an in-process FIFO per path (no polling
 * between calls of one process), then a cross-process lock named by the path's hash, so a check-then-rename is
 * atomic against every other governor process writing the same file. Processes that are not governors (an
 * editor, git) do not take it; the re-check right before the rename narrows that window to a few syscalls.
 */
export class WriteLocks {
  private readonly local = new PathLocks();
  private dirReady = false;

  constructor(
    private readonly root: string,
    private readonly caseInsensitive: boolean,
  ) {}

  async run<T>(abs: string, fn: () => Promise<T>, options: WriteLockOptions = {}): Promise<T> {
    // One file, one lock, however its name was spelled (NFC/NFD on macOS, case where the disk folds it).
    const nfc = abs.normalize('NFC');
    const key = this.caseInsensitive ? nfc.toLowerCase() : nfc;
    return this.local.run(key, async () => {
      const handle = await this.acquire(key, options);
      try {
        return await fn();
      } finally {
        await handle.release();
      }
    });
  }

  /** Paths held or waited on in this process (0 when idle). */
  get size(): number {
    return this.local.size;
  }

  private async acquire(key: string, options: WriteLockOptions): Promise<LockHandle> {
    const dir = writeLockDir(this.root);
    const name = createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 40);
    const take = () => acquireLock(join(dir, `${name}.lock`), { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: options.signal });
    if (!this.dirReady) this.prepare(dir);
    try {
      return await take();
    } catch (error) {
      // The folder went away under us (git clean, a deleted .orchestration): make it again, once.
      if (errnoOf(error) !== 'ENOENT') throw error;
      this.prepare(dir);
      return take();
    }
  }

  private prepare(dir: string): void {
    mkdirSync(dir, { recursive: true });
    // Lock entries are transient machine state: keep them out of every commit without touching the user's .gitignore.
    writeFileSync(join(dir, '.gitignore'), '*\n', { flag: 'w' });
    this.dirReady = true;
  }
}
