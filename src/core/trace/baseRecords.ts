import { gitText } from '../git/gitRun';
import { afterSegments, appendedToBase, type AppendedLog } from './appendedLog';
import { logBytesAt, logBytesOnDisk, sameSegmentsAs } from './sealedGit';
import type { ChainFields } from './traceChain';

/** A record the base held that the head's log no longer holds byte for byte, with what a team lead needs to act. */
export interface DroppedRecord {
  /** Its line in the base's log. */
  baseLine: number;
  id?: string;
  intent?: string;
  agent?: string;
  /** The head's line holding a record with the same id but other bytes: changed, not dropped. */
  changedAt?: number;
  /** The first commit after the base whose log lacks the line (`git log base..HEAD` order), when one is found. */
  commit?: { sha: string; subject: string; author: string };
}

export interface BaseComparison {
  log: string;
  /** The commit compared with. */
  base: string;
  /** Complete lines the base's log held. */
  baseRecords: number;
  /** Complete lines the head's log holds. */
  headRecords: number;
  /** 1-based head lines the base did not hold: what the branch added. */
  added: number[];
  /** Hashes of the base's `discontinuity` notes: the base passed its gate with them, the branch does not answer for them. */
  baseNotes: Set<string>;
  /** The first base record missing from the head (none: every base record is there, in its order). */
  dropped?: DroppedRecord;
  /** The head is the base's log followed by the branch's lines (proved by git's blob id): what the branch added can be judged alone. */
  appended?: AppendedLog;
}

/** How many commits are searched for the one that dropped a record. */
const MAX_BLAME_COMMITS = 200;

/**
 * Every line the base's log held must still be in the head's log, byte for byte and in its order; a union merge may
 * put the branch's lines between them, nothing may drop or change one. The common case (the branch only appended)
 * is proved by hashing the head's first bytes as git hashes a blob (appendedLog), so its cost is reading the working
 * file once, not reading the base's blob back from git nor parsing either.
 */
export async function compareWithBase(root: string, log: string, fields: ChainFields, base: string): Promise<BaseComparison> {
  // Sealed segments the base already had, unchanged, are proved by git without reading them: only the working files are compared.
  const sealed = await sameSegmentsAs(root, base, log);
  const appended = sealed && (await appendedToBase(root, log, fields, base));
  if (sealed && appended) {
    const placed = afterSegments(appended, sealed);
    const { baseRecords, baseNotes, tail } = placed;
    return { log, base, baseRecords, baseNotes, headRecords: baseRecords + tail.length, added: tail.map((_, i) => baseRecords + i + 1), appended: placed };
  }
  const baseBytes = (await logBytesAt(root, base, log)) ?? Buffer.alloc(0);
  const headBytes = await logBytesOnDisk(root, log);
  const baseLines = completeLines(baseBytes);
  const result: Omit<BaseComparison, 'added' | 'headRecords'> = { log, base, baseRecords: baseLines.length, baseNotes: notesOf(baseLines, fields) };
  if (headBytes.length >= baseBytes.length && headBytes.subarray(0, baseBytes.length).equals(baseBytes)) {
    const tail = completeLines(headBytes.subarray(baseBytes.length));
    return { ...result, headRecords: baseLines.length + tail.length, added: tail.map((_, i) => baseLines.length + i + 1) };
  }
  const headLines = completeLines(headBytes);
  const added: number[] = [];
  let next = 0;
  for (let line = 0; line < headLines.length; line += 1) {
    if (next < baseLines.length && headLines[line] === baseLines[next]) next += 1;
    else added.push(line + 1);
  }
  const comparison: BaseComparison = { ...result, headRecords: headLines.length, added };
  if (next < baseLines.length) comparison.dropped = await describeDropped(root, log, base, baseLines[next], next + 1, headLines);
  return comparison;
}

/** The merge base of `ref` and HEAD: what a pull request's branch started from (undefined: no such ref, or none shared). */
export async function mergeBaseWithHead(root: string, ref: string): Promise<string | undefined> {
  return gitText(root, ['merge-base', ref, 'HEAD']);
}

/** `ref` as a commit id, or undefined when git does not know it. */
export async function resolveCommit(root: string, ref: string): Promise<string | undefined> {
  return gitText(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
}

async function describeDropped(root: string, log: string, base: string, text: string, baseLine: number, headLines: string[]): Promise<DroppedRecord> {
  const dropped: DroppedRecord = { baseLine, ...whoAndWhat(text) };
  if (dropped.id) {
    const needle = `"id":${JSON.stringify(dropped.id)}`;
    const at = headLines.findIndex((l) => l.includes(needle));
    if (at >= 0) dropped.changedAt = at + 1;
  }
  const commits = (await gitText(root, ['rev-list', '--reverse', '--topo-order', `--max-count=${MAX_BLAME_COMMITS}`, `${base}..HEAD`, '--', log]))?.split('\n').filter(Boolean) ?? [];
  for (const sha of commits) {
    const blob = await logBytesAt(root, sha, log);
    if (blob !== undefined && completeLines(blob).includes(text)) continue;
    const said = (await gitText(root, ['show', '-s', '--format=%s%x00%an <%ae>', sha])) ?? '';
    const [subject = '', author = ''] = said.split('\0');
    dropped.commit = { sha, subject, author };
    break;
  }
  return dropped;
}

/** The record's id, intent and agent, read from either log's shape. */
function whoAndWhat(text: string): Pick<DroppedRecord, 'id' | 'intent' | 'agent'> {
  try {
    const record = JSON.parse(text) as Record<string, unknown>;
    const meta = (record.metadata ?? {}) as Record<string, unknown>;
    const agent = (record.agent ?? meta.agent) as unknown;
    const agentName = typeof agent === 'string' ? agent : typeof (agent as { name?: unknown })?.name === 'string' ? (agent as { name: string }).name : undefined;
    const intent = (record.intent_id ?? meta.intent_id) as unknown;
    return {
      ...(typeof record.id === 'string' ? { id: record.id } : {}),
      ...(typeof intent === 'string' ? { intent } : {}),
      ...(agentName ? { agent: agentName } : {}),
    };
  } catch {
    return {};
  }
}

function completeLines(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last newline: '' or a torn line, which no base can vouch for
  return lines;
}

/** Only lines that can be notes are parsed: a base of 100k records costs one substring search each. */
function notesOf(lines: string[], fields: ChainFields): Set<string> {
  const hashes = new Set<string>();
  for (const line of lines) {
    if (!line.includes('"discontinuity"')) continue;
    try {
      const holder = fields(JSON.parse(line) as Record<string, unknown>);
      if (holder?.kind === 'discontinuity' && typeof holder.hash === 'string') hashes.add(holder.hash);
    } catch {
      // not a record: verify reports it
    }
  }
  return hashes;
}
