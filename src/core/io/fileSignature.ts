import { statSync } from 'node:fs';

/**
 * What a file is now, cheaply: inode, size, mtime and ctime (ns), `-` when there is none, `!<code>` when it cannot be
 * read. Two equal signatures mean nothing was written in between as far as a stat can tell.
 */
export function fileSignature(file: string): string {
  try {
    const s = statSync(file, { bigint: true, throwIfNoEntry: false });
    return s === undefined ? '-' : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    return `!${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}
