import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import { sha256Hex } from './traceChain';

/** A run of lines in a file's new content, 1-based and inclusive, with the hash that lets blame find it again. */
export interface LineRange {
  start_line: number;
  end_line: number;
  content_hash: string;
}

/**
 * Past this many edits, or this long, jsdiff gives up and the whole new content counts as changed: a huge
 * rewrite must not stall the post-hook chain, and "everything changed" is a true (if coarse) answer.
 */
const MAX_EDIT_LENGTH = 4000;
const DIFF_TIMEOUT_MS = 100;

/** CRLF and lone CR become LF, so a range hashes the same on every platform and in every editor. */
export function normalizeEol(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The lines of a text after EOL normalisation; a final newline ends the last line rather than starting another. */
export function splitLines(text: string): string[] {
  const normalized = normalizeEol(text);
  if (normalized === '') return [];
  const lines = normalized.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `sha256:` of the lines joined with `\n` (no trailing newline): the range hash blame looks for. */
export function hashLines(lines: readonly string[]): string {
  return `sha256:${sha256Hex(lines.join('\n'))}`;
}

/** `sha256:` of a whole file's content, used for the before/after hashes in metadata. */
export function hashContent(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/**
 * The ranges of `after` that are new relative to `before` (undefined = the file did not exist): runs of
 * added lines from a line diff. Pure deletions leave no range, since no line of the new content carries them.
 */
export function changedRanges(before: string | undefined, after: string): LineRange[] {
  const newLines = splitLines(after);
  if (newLines.length === 0) return [];
  const oldText = normalizeEol(before ?? '');
  const newText = normalizeEol(after);
  const changes = oldText === '' ? undefined : diffLines(oldText, newText, { maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS });
  if (!changes) return [range(newLines, 1, newLines.length)];
  const ranges: LineRange[] = [];
  let line = 1;
  for (const change of changes) {
    const count = change.count ?? 0;
    if (change.removed) continue;
    if (change.added && count > 0) {
      const start = line;
      const end = Math.min(line + count - 1, newLines.length);
      const previous = ranges[ranges.length - 1];
      // jsdiff may split one run into adjacent added chunks; one range per run reads better.
      if (previous && previous.end_line === start - 1) ranges[ranges.length - 1] = range(newLines, previous.start_line, end);
      else ranges.push(range(newLines, start, end));
    }
    line += count;
  }
  return ranges;
}

function range(lines: readonly string[], start: number, end: number): LineRange {
  return { start_line: start, end_line: end, content_hash: hashLines(lines.slice(start - 1, end)) };
}

/** Hex characters kept of each line's hash: enough to align a range's surviving lines, short enough to store. */
export const LINE_HASH_CHARS = 8;
/** Past this many changed lines a record keeps only the ranges' hashes (blame then finds whole ranges only): 8 KB at most. */
export const MAX_LINE_HASHED_LINES = 1024;

/** The short hash of one line, as `lineHashes` stores it. */
export function lineHash(line: string): string {
  return createHash('sha256').update(line).digest('hex').slice(0, LINE_HASH_CHARS);
}

/**
 * Per range of `after`, its lines' short hashes run together: what lets blame keep the lines of a range that
 * survive when another line of it is edited (the range's own hash then matches nowhere). Undefined past
 * MAX_LINE_HASHED_LINES lines, or when every range is one line (its hash says it all).
 */
export function lineHashes(after: string, ranges: readonly LineRange[]): string[] | undefined {
  const total = ranges.reduce((sum, r) => sum + r.end_line - r.start_line + 1, 0);
  if (total > MAX_LINE_HASHED_LINES || ranges.every((r) => r.end_line === r.start_line)) return undefined;
  const lines = splitLines(after);
  return ranges.map((r) => lines.slice(r.start_line - 1, r.end_line).map(lineHash).join(''));
}
