import { closeSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoOf } from '../ioError';
import { openRegularFile } from '../io/regularFile';

/**
 * A log's older records can be sealed: moved, byte for byte, into `sealed/<stem>.<last line>.jsonl` beside it
 * (`sealed/agent_trace.000100000.jsonl` holds lines up to 100,000). The log is then its sealed segments followed
 * by the working file, and every reader sees the same bytes, lines and offsets as before the seal, so chains,
 * anchors and line numbers do not change. A sealed segment is never written again: git merges of the working
 * file stay small, and a segment's blob id proves it unchanged without reading it.
 */
export const SEALED_DIR = 'sealed';

/** One file of a log, where its bytes and lines start in the log as a whole. */
export interface LogPart {
  path: string;
  /** Byte offset of its first byte in the whole log. */
  offset: number;
  /** Lines before it in the whole log. */
  line: number;
  /** Its size in bytes (the working file's as last looked at). */
  bytes: number;
  /** For a sealed segment, the lines its name says it holds; undefined for the working file. */
  lines?: number;
}

/** The sealed segments of a log, in order, then its working file (missing: a part of 0 bytes). */
export interface LogParts {
  parts: LogPart[];
  /** Bytes and lines in sealed segments: where the working file starts. */
  sealedBytes: number;
  sealedLines: number;
}

const SEGMENT_NAME = /^(.+)\.(\d{9})\.jsonl$/u;

/** The stem a log's segments are named by: `agent_trace` for `agent_trace.jsonl`. */
export function segmentStem(logPath: string): string {
  return basename(logPath).replace(/\.jsonl$/u, '');
}

export function sealedDir(logPath: string): string {
  return join(dirname(logPath), SEALED_DIR);
}

/** A segment's file name for the log's lines up to `lastLine`. */
export function segmentName(logPath: string, lastLine: number): string {
  return `${segmentStem(logPath)}.${String(lastLine).padStart(9, '0')}.jsonl`;
}

/**
 * The log's files in order. A segment whose first line is also the working file's first line was written by a seal
 * that stopped before it cut the working file: it is left out (its lines are still in the working file).
 */
export function logParts(logPath: string): LogParts {
  const stem = segmentStem(logPath);
  const dir = sealedDir(logPath);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT' && errnoOf(error) !== 'ENOTDIR') throw error;
  }
  const segments = names
    .map((name) => ({ name, match: SEGMENT_NAME.exec(name) }))
    .filter((s): s is { name: string; match: RegExpExecArray } => s.match !== null && s.match[1] === stem)
    .map((s) => ({ path: join(dir, s.name), last: Number(s.match[2]) }))
    .sort((a, b) => a.last - b.last);
  const parts: LogPart[] = [];
  let offset = 0;
  let line = 0;
  for (const segment of segments) {
    const bytes = statSync(segment.path).size;
    parts.push({ path: segment.path, offset, line, bytes, lines: segment.last - line });
    offset += bytes;
    line = segment.last;
  }
  const last = parts.at(-1);
  if (last && firstLine(last.path) === firstLine(logPath) && firstLine(logPath) !== undefined) {
    parts.pop();
    offset = last.offset;
    line = last.line;
  }
  const working = statSync(logPath, { throwIfNoEntry: false })?.size ?? 0;
  parts.push({ path: logPath, offset, line, bytes: working });
  return { parts, sealedBytes: offset, sealedLines: line };
}

/** Whether the log has sealed segments (a cheap look at one directory). */
export function hasSealedSegments(logPath: string): boolean {
  return logParts(logPath).parts.length > 1;
}

/** The part holding the byte at `offset` of the whole log (the working file for anything past the segments). */
export function partAt(parts: readonly LogPart[], offset: number): LogPart {
  for (let k = parts.length - 1; k > 0; k -= 1) if (offset >= parts[k].offset) return parts[k];
  return parts[0];
}

const FIRST_LINE_PROBE = 64 * 1024;

/** A file's first line (up to its newline), or undefined for a missing or empty file. */
function firstLine(path: string): string | undefined {
  // A regular file only: a FIFO at a segment's name would hold the read forever.
  const opened = openRegularFile(path, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (!opened.ok) return undefined;
  const { fd } = opened;
  try {
    const probe = Buffer.alloc(FIRST_LINE_PROBE);
    const read = readSync(fd, probe, 0, probe.length, 0);
    if (read === 0) return undefined;
    const end = probe.subarray(0, read).indexOf(10);
    return probe.toString('utf8', 0, end < 0 ? read : end);
  } finally {
    closeSync(fd);
  }
}
