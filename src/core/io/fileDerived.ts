import { fileStamp } from './fileSignature';

/**
 * A file written this soon before it was read may be written again within the same tick of the filesystem's clock,
 * with the same size, and look unchanged (git's "racy" entries): such a value is derived again on the next call.
 */
const RACY_MS = 50;

/**
 * A value read from some files, for a process that needs it on every call (a resident governor's hook layers, the
 * administrator's managed file): read again only when one of the files appeared, went or changed (device, inode,
 * size, mtime, ctime), so while nothing changes a call costs one stat per file. The list of files may differ from
 * one call to the next (another list is another key).
 */
export class FileDerived<T> {
  private key: string | undefined;
  private value: T | undefined;

  /** `read` derives the value from `files` as they are now. */
  get(files: readonly string[], read: () => T): T {
    const readAt = Date.now();
    const stamps = files.map(fileStamp);
    const key = `${files.join('\0')}\0${stamps.map((stamp) => stamp.signature).join('|')}`;
    if (this.key === key && this.value !== undefined) return this.value;
    const value = read();
    // Trusted while every file is missing or was last written well before this read; a stat error never is.
    const settled = stamps.every((stamp) => stamp.signature === '-' || (stamp.mtimeMs !== undefined && stamp.mtimeMs < readAt - RACY_MS));
    this.key = settled ? key : undefined;
    this.value = value;
    return value;
  }
}
