import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gitText } from '../git/gitRun';
import { readLogLines } from './logLines';
import type { SealedPrefix } from './sealedGit';
import type { ChainFields } from './traceChain';

/** A head log that is the base's log byte for byte followed by the branch's lines, found without reading the base's blob. */
export interface AppendedLog {
  /** Bytes and complete lines of the base's log: the head's first bytes. */
  baseSize: number;
  baseRecords: number;
  /** The base's last line (undefined for an empty base): where the branch's chain starts. */
  baseLastLine?: string;
  /** Hashes of the base's `discontinuity` notes (found by a byte search: only those lines are parsed). */
  baseNotes: Set<string>;
  /** The head's complete lines after the base, in order, with where each starts; line numbers go on from baseRecords. */
  tail: { text: string; offset: number }[];
  /** The head ends in a partial line after them. */
  tornTail: boolean;
  /** Where every LINE_INDEX_STEP-th line of the base's working file starts (index i: its line i*STEP+1): finds a base line without a scan. */
  lineIndex: number[];
  /** Lines and bytes of the sealed segments before the working file, which every line number and offset above counts. */
  sealed?: SealedPrefix;
}

/** The working files' comparison placed after the log's sealed segments, as the whole log numbers its lines. */
export function afterSegments(appended: AppendedLog, sealed: SealedPrefix): AppendedLog {
  if (sealed.lines === 0 && sealed.bytes === 0) return appended;
  return {
    ...appended,
    baseSize: sealed.bytes + appended.baseSize,
    baseRecords: sealed.lines + appended.baseRecords,
    tail: appended.tail.map(({ text, offset }) => ({ text, offset: sealed.bytes + offset })),
    sealed,
  };
}

export const LINE_INDEX_STEP = 1024;
const CHUNK = 4 << 20;
const NOTE_NEEDLE = Buffer.from('"discontinuity"');

/**
 * Whether the head's log starts with the base's log, byte for byte, proved the way git names blobs: the head's first
 * bytes hashed as a blob of the base's size give the base's blob id. That reads the working file once and hashes it
 * (about 1 ms a MB), where reading the blob back from git inflates it first. Undefined when it does not: a merge that
 * put the base's records after the branch's, a changed or dropped record, or no way to tell (then compare the lines).
 */
export async function appendedToBase(root: string, log: string, fields: ChainFields, base: string): Promise<AppendedLog | undefined> {
  const blob = await gitText(root, ['rev-parse', '--verify', '--quiet', `${base}:./${log}`]);
  const format = (await gitText(root, ['rev-parse', '--show-object-format'])) ?? 'sha1';
  if (format !== 'sha1' && format !== 'sha256') return undefined;
  const size = blob ? Number(await gitText(root, ['cat-file', '-s', blob])) : 0;
  if (!Number.isSafeInteger(size) || size < 0) return undefined;
  const file = await open(join(root, log), 'r').catch(() => undefined);
  if (!file) return size === 0 ? { baseSize: 0, baseRecords: 0, baseNotes: new Set(), tail: [], tornTail: false, lineIndex: [0] } : undefined;
  try {
    const { size: headSize } = await file.stat();
    if (headSize < size) return undefined;
    const hash = createHash(format).update(`blob ${size}\0`);
    const scan = new PrefixScan(fields);
    for (let at = 0; at < size; ) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - at));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, at);
      if (bytesRead === 0) return undefined;
      const bytes = chunk.subarray(0, bytesRead);
      hash.update(bytes);
      scan.add(bytes, at);
      at += bytesRead;
    }
    // A base ending in a torn line has no record there to keep; let the line comparison judge it.
    if (scan.partial.length) return undefined;
    if (blob && hash.digest('hex') !== blob) return undefined;
    const rest = Buffer.alloc(headSize - size);
    await file.read(rest, 0, rest.length, size);
    const tail: AppendedLog['tail'] = [];
    let start = 0;
    for (let end = rest.indexOf(10); end >= 0; end = rest.indexOf(10, start)) {
      tail.push({ text: rest.toString('utf8', start, end), offset: size + start });
      start = end + 1;
    }
    return { baseSize: size, baseRecords: scan.lines, baseLastLine: scan.last, baseNotes: scan.notes, tail, tornTail: start < rest.length, lineIndex: scan.index };
  } finally {
    await file.close();
  }
}

/** Counts the base's lines as its bytes go by, keeps the last one, an index of line starts, and the notes. */
class PrefixScan {
  lines = 0;
  last: string | undefined;
  partial = Buffer.alloc(0);
  readonly notes = new Set<string>();
  readonly index: number[] = [0];

  constructor(private readonly fields: ChainFields) {}

  add(chunk: Buffer, at: number): void {
    const bytes = this.partial.length ? Buffer.concat([this.partial, chunk]) : chunk;
    const offset = at - this.partial.length;
    let start = 0;
    let end = bytes.indexOf(10);
    if (end < 0) {
      this.partial = Buffer.from(bytes);
      return;
    }
    for (; end >= 0; end = bytes.indexOf(10, start)) {
      this.lines += 1;
      if (this.lines % LINE_INDEX_STEP === 0) this.index.push(offset + end + 1);
      start = end + 1;
    }
    const lastStart = bytes.lastIndexOf(10, start - 2) + 1;
    this.last = bytes.toString('utf8', lastStart, start - 1);
    for (let hit = bytes.indexOf(NOTE_NEEDLE); hit >= 0 && hit < start; hit = bytes.indexOf(NOTE_NEEDLE, hit + 1)) this.note(bytes, hit);
    this.partial = Buffer.from(bytes.subarray(start));
  }

  private note(bytes: Buffer, hit: number): void {
    const from = bytes.lastIndexOf(10, hit) + 1;
    const to = bytes.indexOf(10, hit);
    try {
      const holder = this.fields(JSON.parse(bytes.toString('utf8', from, to)) as Record<string, unknown>);
      if (holder?.kind === 'discontinuity' && typeof holder.hash === 'string') this.notes.add(holder.hash);
    } catch {
      // not a record: a full verify reports it
    }
  }
}

/** Line `line` (1-based, of the whole log) of the base, read from the head's files by the line index; undefined past the base. */
export async function baseLineAt(root: string, log: string, appended: AppendedLog, line: number): Promise<string | undefined> {
  if (line < 1 || line > appended.baseRecords) return undefined;
  const sealed = appended.sealed ?? { lines: 0, bytes: 0 };
  if (line <= sealed.lines) {
    // In a sealed segment, which the base had unchanged: read it (rare: a revocation point in sealed history).
    for await (const found of readLogLines(join(root, log))) if (found.line === line) return found.text;
    return undefined;
  }
  const local = line - sealed.lines;
  const step = Math.floor((local - 1) / LINE_INDEX_STEP);
  const from = appended.lineIndex[step];
  const to = appended.lineIndex[step + 1] ?? appended.baseSize - sealed.bytes;
  const file = await open(join(root, log), 'r');
  try {
    const bytes = Buffer.alloc(to - from);
    await file.read(bytes, 0, bytes.length, from);
    return bytes.toString('utf8').split('\n')[(local - 1) % LINE_INDEX_STEP];
  } finally {
    await file.close();
  }
}
