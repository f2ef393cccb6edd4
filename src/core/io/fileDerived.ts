import { statSync } from 'node:fs';

/**
 * A file written this soon before it was read may be written again within the same tick of the filesystem's clock,
 * with the same size, and look unchanged (git's "racy" entries): such a value is derived again on the next call.
 */
const RACY_MS = 50;

interface Stamp {
  key: string;
  /** Whether a stat shows when the file was last written long enough before it was read to trust the key. */
  settled: boolean;
}

function stampOf(file: string, readAt: number): Stamp {
  try {
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) return { key: '-', settled: true };
    return { key: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`, settled: Number(stat.mtimeNs / 1_000_000n) < readAt - RACY_MS };
  } catch {
    // Unreadable for stat (EACCES on a folder): never trusted, so the reader reports it each time.
    return { key: '!', settled: false };
  }
}

/**
 * A value read from some files, for a process that needs it on every call (a resident governor's hook layers, the
 * administrator's managed file): read again only when one of the files appeared, went or changed (device, inode,
 * size, mtime, ctime), so while nothing changes a call costs one stat per file. Which files may change between calls.
 */
export class FileDerived<T> {
  private key: string | undefined;
  private value: T | undefined;

  /** `read` derives the value from `files` as they are now. */
  get(files: readonly string[], read: () => T): T {
    const readAt = Date.now();
    const stamps = files.map((file) => stampOf(file, readAt));
    const key = `${files.join('\0')}\0${stamps.map((stamp) => stamp.key).join('|')}`;
    if (this.key === key && this.value !== undefined) return this.value;
    const value = read();
    this.key = stamps.every((stamp) => stamp.settled) ? key : undefined;
    this.value = value;
    return value;
  }
}
