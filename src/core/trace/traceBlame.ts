import { createHash } from 'node:crypto';
import { LINE_HASH_CHARS, lineHash, splitLines } from './ranges';
import { queryTrace } from './traceReader';
import type { AgentTraceRecord } from './traceRecord';

/** Who produced one line of a file's current content; only `line` when no trace record explains it. */
export interface BlameLine {
  line: number;
  text: string;
  recordId?: string;
  intentId?: string;
  agent?: string;
  model?: string;
  timestamp?: string;
  /** Line of the trace file holding the record. */
  traceLine?: number;
}

/** One recorded range that may claim lines of the current content: its hash, length and where it was written. */
export interface BlameCandidate {
  hash: string;
  length: number;
  /** 0-based line where the record wrote it. */
  start: number;
  timestamp: string;
  traceLine: number;
  /** Its lines' short hashes (the record's `line_hashes`), when recorded: the surviving lines of an edited range. */
  lines?: string[];
  attribution: Omit<BlameLine, 'line' | 'text'>;
}

/**
 * Maps each line of `content` (the file's current text) to the newest trace record whose recorded range
 * is still there. Ranges are found by content hash, not position, so they survive lines moving: every
 * window of a range's length is hashed once per distinct length, and a range claims the matching window
 * closest to where it was written (one place per range, so a lone `}` does not claim every brace).
 * Newer records claim first; lines nobody claims are unattributed. Renames across files are not followed.
 */
export async function blameFile(tracePath: string, relPath: string, content: string): Promise<BlameLine[]> {
  const candidates: BlameCandidate[] = [];
  for await (const { line, record } of queryTrace(tracePath, { file: relPath })) candidates.push(...blameCandidates(line, record, relPath));
  return attributeLines(content, candidates);
}

/** The ranges one trace record wrote to `relPath`, as candidates for `attributeLines`. */
export function blameCandidates(traceLine: number, record: AgentTraceRecord, relPath: string): BlameCandidate[] {
  const meta = record.metadata ?? {};
  const candidates: BlameCandidate[] = [];
  const lineHashes = listOf(listOf(meta.files).find((f) => f?.path === relPath)?.line_hashes);
  let index = 0;
  // A log is editable by anyone with the workspace: skip what is not shaped like a record instead of throwing.
  for (const file of listOf(record.files)) {
    if (file?.path !== relPath) continue;
    for (const conversation of listOf(file.conversations)) {
      if (!conversation) continue;
      for (const range of listOf(conversation.ranges)) {
        if (!range) continue;
        const hashes = lineHashes[index++];
        const length = range.end_line - range.start_line + 1;
        if (!range.content_hash || !(length >= 1)) continue;
        const lines = typeof hashes === 'string' && hashes.length === length * LINE_HASH_CHARS ? (hashes.match(LINE_HASH_PATTERN) ?? undefined) : undefined;
        candidates.push({
          hash: range.content_hash,
          length,
          start: range.start_line - 1,
          timestamp: record.timestamp,
          traceLine,
          ...(lines ? { lines } : {}),
          attribution: {
            recordId: record.id,
            intentId: typeof meta.intent_id === 'string' ? meta.intent_id : undefined,
            agent: typeof meta.agent === 'string' ? meta.agent : undefined,
            model: typeof conversation.contributor?.model_id === 'string' ? conversation.contributor.model_id : undefined,
            timestamp: record.timestamp,
            traceLine,
          },
        });
      }
    }
  }
  return candidates;
}

/** The attribution step of `blameFile`, for callers that keep the candidates themselves (the intent map). */
export function attributeLines(content: string, all: readonly BlameCandidate[]): BlameLine[] {
  const lines = splitLines(content);
  // Newest first: by timestamp, then by position in the file (a merge can interleave clocks).
  const candidates = [...all].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.traceLine - a.traceLine));

  const windows = new WindowIndex(lines);
  const owner: (BlameCandidate | undefined)[] = new Array(lines.length);
  for (const candidate of candidates) {
    const starts = windows.find(candidate.length, candidate.hash);
    if (!starts) {
      // Edited since: the lines of it that are still there, by their own hashes, where most of them line up.
      for (const i of alignEdited(candidate, windows)?.matched ?? []) owner[i] ??= candidate;
      continue;
    }
    let best = starts[0];
    for (const s of starts) if (Math.abs(s - candidate.start) < Math.abs(best - candidate.start)) best = s;
    for (let i = best; i < best + candidate.length; i += 1) owner[i] ??= candidate;
  }
  return lines.map((text, i) => {
    const claimed = owner[i];
    return claimed ? dropUndefined({ line: i + 1, text, ...claimed.attribution }) : { line: i + 1, text };
  });
}

const LINE_HASH_PATTERN = new RegExp(`[0-9a-f]{${LINE_HASH_CHARS}}`, 'g');

/**
 * Where the lines of an edited range are now: its lines are placed at the one offset most of them agree on (the
 * nearest to where it was written on a tie), and only those matching there count (`matched`, 0-based), so a lone
 * `}` elsewhere is not claimed. Undefined when none of its lines is left or it has no line hashes.
 */
export function alignEdited(candidate: Pick<BlameCandidate, 'lines' | 'start'>, windows: WindowIndex): { offset: number; matched: number[] } | undefined {
  const lines = candidate.lines;
  if (!lines) return undefined;
  const votes = new Map<number, number>();
  lines.forEach((hash, j) => {
    for (const i of windows.lineIndex(hash)) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  });
  let best: number | undefined;
  for (const [offset, count] of votes) {
    const bestCount = best === undefined ? 0 : (votes.get(best) ?? 0);
    if (best === undefined || count > bestCount || (count === bestCount && Math.abs(offset - candidate.start) < Math.abs(best - candidate.start))) best = offset;
  }
  if (best === undefined) return undefined;
  const offset = best;
  return { offset, matched: lines.flatMap((hash, j) => (windows.lineIndex(hash).includes(offset + j) ? [offset + j] : [])) };
}

/** Hashes of every window of the current lines, built once per window length on first use; lines' short hashes too. */
export class WindowIndex {
  private byLine: Map<string, number[]> | undefined;

  private readonly joined: string;
  private readonly starts: number[] = [];
  private readonly byLength = new Map<number, Map<string, number[]>>();

  constructor(private readonly lines: readonly string[]) {
    let offset = 0;
    for (const line of lines) {
      this.starts.push(offset);
      offset += line.length + 1;
    }
    this.joined = lines.join('\n');
  }

  /** Where lines with this short hash (ranges.ts lineHash) are, 0-based. */
  lineIndex(hash: string): number[] {
    if (!this.byLine) {
      this.byLine = new Map();
      this.lines.forEach((line, i) => {
        const key = lineHash(line);
        const list = this.byLine?.get(key);
        if (list) list.push(i);
        else this.byLine?.set(key, [i]);
      });
    }
    return this.byLine.get(hash) ?? [];
  }

  find(length: number, hash: string): number[] | undefined {
    let index = this.byLength.get(length);
    if (!index) {
      index = new Map();
      for (let i = 0; i + length <= this.lines.length; i += 1) {
        const end = this.starts[i + length - 1] + this.lines[i + length - 1].length;
        const key = `sha256:${createHash('sha256').update(this.joined.slice(this.starts[i], end)).digest('hex')}`;
        const list = index.get(key);
        if (list) list.push(i);
        else index.set(key, [i]);
      }
      this.byLength.set(length, index);
    }
    return index.get(hash);
  }
}

function listOf<T>(value: T[] | undefined): (T | null | undefined)[] {
  return Array.isArray(value) ? value : [];
}

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
