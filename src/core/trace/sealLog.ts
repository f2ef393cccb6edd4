import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { acquireLock, type LockOptions } from '../io/crossProcessLock';
import { logParts, sealedDir, segmentName, segmentStem } from './sealedSegments';
import type { ChainFields } from './traceChain';
import { verifyLog } from './traceVerify';
import { WORKSPACE_LOGS } from './workspaceVerify';

export interface SealOptions {
  /** Records written before this are sealed (the longest run of them from the working file's start). */
  before: Date;
  /** Lines that always stay in the working file (at least 2, so a union merge never meets the seal's cut). */
  keep: number;
  lock?: LockOptions;
}

export interface SealedLog {
  /** Workspace-relative path of the log. */
  log: string;
  /** Records moved into the new segment (0: nothing old enough). */
  sealed: number;
  /** Workspace-relative path of the new segment. */
  segment?: string;
  /** Complete lines left in the working file. */
  kept: number;
  /** Why nothing was sealed: the log does not verify. */
  refused?: string;
}

/** The fewest lines a seal leaves in the working file. */
export const MIN_KEEP = 2;

/**
 * `governor trace seal`: moves each log's old records, byte for byte, into a new sealed segment (see sealedSegments).
 * Under the writers' lock; the segment is written and renamed into place before the working file is cut, and a seal
 * stopped between the two is left out by every reader and cleared by the next seal.
 */
export async function sealWorkspaceLogs(root: string, options: SealOptions): Promise<SealedLog[]> {
  const results: SealedLog[] = [];
  for (const { log, fields } of WORKSPACE_LOGS) results.push(await sealLog(root, log, fields, options));
  return results;
}

async function sealLog(root: string, log: string, fields: ChainFields, options: SealOptions): Promise<SealedLog> {
  const path = join(root, log);
  await mkdir(dirname(path), { recursive: true });
  const lock = await acquireLock(`${path}.lock`, options.lock);
  try {
    clearStoppedSeal(path);
    const verified = await verifyLog(path, { fields });
    if (verified.status === 'tampered') return { log, sealed: 0, kept: 0, refused: verified.reason ?? 'it does not verify' };
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return { log, sealed: 0, kept: 0 };
    }
    const ends: number[] = [];
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) ends.push(at + 1);
    const keep = Math.max(MIN_KEEP, options.keep);
    let count = 0;
    while (count < ends.length - keep && writtenBefore(bytes.toString('utf8', count ? ends[count - 1] : 0, ends[count] - 1), options.before)) count += 1;
    if (count === 0) return { log, sealed: 0, kept: ends.length };
    const { sealedLines } = logParts(path);
    const segment = join(sealedDir(path), segmentName(path, sealedLines + count));
    await mkdir(dirname(segment), { recursive: true });
    publish(segment, bytes.subarray(0, ends[count - 1]));
    publish(path, bytes.subarray(ends[count - 1]));
    return { log, sealed: count, segment: relative(root, segment).split('\\').join('/'), kept: ends.length - count };
  } finally {
    await lock.release();
  }
}

/** A segment the working file still starts with (a seal stopped before it cut the file): readers leave it out; removed. */
function clearStoppedSeal(path: string): void {
  const listed = new Set(logParts(path).parts.map((p) => p.path));
  let names: string[] = [];
  try {
    names = readdirSync(sealedDir(path));
  } catch {
    return;
  }
  const stem = `${segmentStem(path)}.`;
  for (const name of names) {
    const file = join(sealedDir(path), name);
    if (name.startsWith(stem) && name.endsWith('.jsonl') && !listed.has(file)) rmSync(file, { force: true });
  }
}

/** Whether the record on this line says it was written before `before` (no readable time: not sealed). */
function writtenBefore(line: string, before: Date): boolean {
  try {
    const record = JSON.parse(line) as { timestamp?: unknown; metadata?: { timestamp?: unknown } };
    const stamp = typeof record.timestamp === 'string' ? record.timestamp : record.metadata?.timestamp;
    const at = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
    return Number.isFinite(at) && at < before.getTime();
  } catch {
    return false;
  }
}

/** Writes the file under a temp name, syncs it, renames it into place and syncs the folder. */
function publish(path: string, bytes: Buffer): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temp, bytes, { mode: 0o644 });
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
