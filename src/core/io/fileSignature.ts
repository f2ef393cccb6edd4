import { statSync } from 'node:fs';

/** What one stat says of a file: its signature, and when it was last written (none when there is no file or no stat). */
export interface FileStamp {
  signature: string;
  mtimeMs?: number;
}

/**
 * The file as a stat sees it now: `<dev>:<ino>:<size>:<mtime ns>:<ctime ns>`, `-` when there is none, `!<code>` when it
 * cannot be read. Two equal signatures mean nothing was written in between as far as a stat can tell.
 */
export function fileStamp(file: string): FileStamp {
  try {
    const s = statSync(file, { bigint: true, throwIfNoEntry: false });
    return s === undefined ? { signature: '-' } : { signature: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, mtimeMs: Number(s.mtimeNs / 1_000_000n) };
  } catch (error) {
    return { signature: `!${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
}

/** fileStamp's signature alone: what watchers compare. */
export function fileSignature(file: string): string {
  return fileStamp(file).signature;
}
