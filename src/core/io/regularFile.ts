import { closeSync, constants, fstatSync, openSync, read, readSync, type Stats } from 'node:fs';
import { errnoOf } from '../ioError';

/**
 * The one way the decision path reads a file it did not create: open without blocking, look at what was opened
 * (fstat on the descriptor, so the check and the read are about the same thing), accept only a regular file up to
 * a size cap, and read at most one byte past the cap. A FIFO, a device (/dev/zero) or a socket is refused before a
 * single byte is read, so nothing an agent or another process puts at a path can hang the thread or grow memory.
 */

export interface RegularFileOptions {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** Refuse a path whose last component is a symbolic link (O_NOFOLLOW) instead of following it. */
  noFollow?: boolean;
  /**
   * Refuse a file with more than one name (a hard link): its other names may be outside the folder the caller
   * governs, and nothing short of a search of the whole file system finds them. Checked on the opened file.
   */
  singleLink?: boolean;
}

/** Why a read was refused: an error value, never a throw. `errno` is what a Node error would carry. */
export type RegularFileProblem =
  | { kind: 'missing'; errno: string }
  | { kind: 'not_regular'; errno: string; entry: string; stats?: Stats }
  | { kind: 'too_large'; errno: 'EFBIG'; size: number; maxBytes: number; stats: Stats }
  | { kind: 'unreadable'; errno: string; detail: string };

export type RegularFileRead = { ok: true; bytes: Buffer; stats: Stats } | { ok: false; problem: RegularFileProblem };

/** Files up to this size are read on the calling thread: faster than the thread pool, and too small to stall it. */
const SYNC_READ_BYTES = 1024 * 1024;

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer. O_NOCTTY: a terminal device never
// becomes the process's controlling terminal. Both are 0 where the platform has no such flag (Windows).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Reads a regular file on the calling thread; every step returns promptly whatever is at `path`. */
export function readRegularFileSync(path: string, options: RegularFileOptions): RegularFileRead {
  const opened = openChecked(path, options);
  if (!opened.ok) return opened;
  const { fd, stats } = opened;
  try {
    return { ok: true, bytes: readAllSync(fd, stats, options.maxBytes), stats };
  } catch (error) {
    return { ok: false, problem: afterOpen(error, stats, options.maxBytes) };
  } finally {
    closeSync(fd);
  }
}

/** As readRegularFileSync, but a file over 1 MiB is read through the thread pool so the event loop keeps running. */
export async function readRegularFile(path: string, options: RegularFileOptions): Promise<RegularFileRead> {
  const opened = openChecked(path, options);
  if (!opened.ok) return opened;
  const { fd, stats } = opened;
  try {
    const bytes = stats.size <= SYNC_READ_BYTES ? readAllSync(fd, stats, options.maxBytes) : await readAllAsync(fd, stats, options.maxBytes);
    return { ok: true, bytes, stats };
  } catch (error) {
    return { ok: false, problem: afterOpen(error, stats, options.maxBytes) };
  } finally {
    closeSync(fd);
  }
}

/** "src/x is a FIFO (named pipe), not a regular file: refused": what happened, for a message that adds what to do. */
export function describeProblem(name: string, problem: RegularFileProblem): string {
  switch (problem.kind) {
    case 'missing':
      return `${name} does not exist`;
    case 'not_regular':
      return `${name} is ${problem.entry}, not a regular file: refused`;
    case 'too_large':
      return `${name} is at least ${problem.size} bytes, over the ${problem.maxBytes}-byte limit: refused`;
    case 'unreadable':
      return `${name} could not be read (${problem.errno})`;
  }
}

/** The problem as a Node-style error (`code` = errno), for ports whose contract is "throws on I/O trouble". */
export function problemError(name: string, problem: RegularFileProblem): NodeJS.ErrnoException {
  return Object.assign(new Error(describeProblem(name, problem)), { code: problem.errno, path: name });
}

export type OpenedRegularFile = { ok: true; fd: number; stats: Stats } | { ok: false; problem: RegularFileProblem };

/**
 * The checks above on an open descriptor the caller reads itself (a stream over a log) and must close; open without
 * blocking, so a FIFO is refused at once. `maxBytes` caps the size seen at the open.
 */
export function openRegularFile(path: string, options: RegularFileOptions): OpenedRegularFile {
  return openChecked(path, options);
}

function openChecked(path: string, options: RegularFileOptions): OpenedRegularFile {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS | (options.noFollow ? NO_FOLLOW : 0));
  } catch (error) {
    return { ok: false, problem: openProblem(error, options) };
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    return { ok: false, problem: unreadable(error) };
  }
  if (!stats.isFile()) {
    closeSync(fd);
    return { ok: false, problem: { kind: 'not_regular', errno: stats.isDirectory() ? 'EISDIR' : 'EFTYPE', entry: entryKind(stats), stats } };
  }
  if (stats.size > options.maxBytes) {
    closeSync(fd);
    return { ok: false, problem: { kind: 'too_large', errno: 'EFBIG', size: stats.size, maxBytes: options.maxBytes, stats } };
  }
  if (options.singleLink && stats.nlink > 1) {
    closeSync(fd);
    return { ok: false, problem: { kind: 'not_regular', errno: 'EMLINK', entry: `a file with ${stats.nlink} hard links (its other names may be outside the workspace)`, stats } };
  }
  return { ok: true, fd, stats };
}

function openProblem(error: unknown, options: RegularFileOptions): RegularFileProblem {
  const errno = errnoOf(error);
  if (errno === 'ENOENT' || errno === 'ENOTDIR') return { kind: 'missing', errno };
  // O_NOFOLLOW on a link fails with ELOOP (EMLINK on some BSDs): the last component is a link we may not follow.
  if (options.noFollow && (errno === 'ELOOP' || errno === 'EMLINK')) return { kind: 'not_regular', errno: 'ELOOP', entry: 'a symbolic link' };
  // ENXIO: a FIFO opened for writing only, or a device with nothing behind it; either way not a file to read.
  if (errno === 'ENXIO' || errno === 'ENODEV') return { kind: 'not_regular', errno, entry: 'a device or socket' };
  return unreadable(error);
}

/** A read that failed after the checks, or a file that grew past the cap while being read. */
function afterOpen(error: unknown, stats: Stats, maxBytes: number): RegularFileProblem {
  if (error instanceof GrewPastCap) return { kind: 'too_large', errno: 'EFBIG', size: maxBytes + 1, maxBytes, stats };
  return unreadable(error);
}

class GrewPastCap extends Error {}

// Buffers come from allocUnsafeSlow (never the shared pool), so a caller may keep a view of the bytes it gets.
function readAllSync(fd: number, stats: Stats, maxBytes: number): Buffer {
  let buffer: Buffer = Buffer.allocUnsafeSlow(Math.min(stats.size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) buffer = grown(buffer, maxBytes);
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

async function readAllAsync(fd: number, stats: Stats, maxBytes: number): Promise<Buffer> {
  let buffer: Buffer = Buffer.allocUnsafeSlow(Math.min(stats.size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) buffer = grown(buffer, maxBytes);
    const target = buffer;
    const n = await new Promise<number>((resolve, reject) => read(fd, target, length, target.length - length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))));
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

/** A bigger buffer for a file that grew since fstat; past the cap (one byte over is proof enough) it is refused. */
function grown(buffer: Buffer, maxBytes: number): Buffer {
  if (buffer.length > maxBytes) throw new GrewPastCap();
  const next = Buffer.allocUnsafeSlow(Math.min(Math.max(buffer.length * 2, 64 * 1024), maxBytes + 1));
  buffer.copy(next);
  return next;
}

function entryKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

function unreadable(error: unknown): RegularFileProblem {
  return { kind: 'unreadable', errno: errnoOf(error) ?? 'UNKNOWN', detail: error instanceof Error ? error.message : String(error) };
}
