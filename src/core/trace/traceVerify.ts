import type { AnchorHead } from './anchorStore';
import { readLines } from './lineStream';
import { computeRecordHash, GENESIS_HASH, isChainHash, lineHashMatches, traceChainFields, type ChainFields } from './traceChain';

/**
 * Verification rule (chain, anchor, merges):
 * - every line is a JSON record whose `hash` equals sha256 over its canonical form without `hash`;
 * - every record's `prev_hash` names genesis or a record on an EARLIER line. Usually it is the line right
 *   above (one linear chain). When it is not, the record continues or starts a branch: a union merge
 *   (`merge=union`) of two branches that both appended puts their new lines after the common prefix, so
 *   each branch's first record links back into the prefix and its later records to their own branch.
 *   Such forks make the status `merged`; at most MAX_CHAINS branches may be open at once;
 * - a `prev_hash` that names no earlier record is tampering: a record was deleted or edited (it names a
 *   later line when lines were reordered); a content/hash mismatch is an edited record;
 * - a writer continuing after a merge links to the last line and lists the other heads in `merge.heads`,
 *   which closes those branches;
 * - the anchor (head kept outside the workspace) must still be in the file, else the end was truncated or
 *   the whole chain recomputed; a `discontinuity` record means a writer already found it missing.
 * The chain proves nothing anchored was removed or altered; it cannot prove a record is genuine (anyone may
 * append a well-formed record), which would need signatures.
 */

export type VerifyStatus = 'verified' | 'merged' | 'tampered' | 'empty';

export interface VerifyResult {
  status: VerifyStatus;
  /** Complete lines in the file. */
  records: number;
  /** Most branches open at once: 1 for a linear log, 2 after a two-branch merge. */
  chains: number;
  firstBadLine?: number;
  reason?: string;
  /** `unchecked` when no anchor was given (e.g. CI on a fresh clone). */
  anchor: 'matched' | 'missing' | 'unchecked';
  /** The file ends in a partial line (a crashed append), which the next writer quarantines. */
  tornTail: boolean;
  /** Hash of the last complete record, GENESIS_HASH when there is none. */
  lastHash: string;
  /** Bytes of complete lines, i.e. where a torn tail starts. */
  size: number;
  /** Branch heads still open at the end (more than one after an unrecorded merge). */
  openHeads: string[];
  /** First line whose prev_hash is not the line above. */
  mergeFromLine?: number;
}

export interface VerifyOptions {
  fields?: ChainFields;
  anchor?: AnchorHead;
}

/** More concurrently open branches than this is not a plausible merge history. */
export const MAX_CHAINS = 64;

export async function verifyLog(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const fields = options.fields ?? traceChainFields;
  const seen = new Map<string, number>();
  const heads = new Set<string>();
  let problem: { line: number; reason: string } | undefined;
  let dangling: { line: number; prev: string; reordered: boolean } | undefined;
  let records = 0;
  let size = 0;
  let lastHash = GENESIS_HASH;
  let chains = 0;
  let tornTail = false;
  let mergeFromLine: number | undefined;
  // The earliest bad line is the one to report, whatever order the checks find problems in.
  const fail = (line: number, reason: string) => {
    if (!problem || line < problem.line) problem = { line, reason };
  };

  for await (const line of readLines(path)) {
    if (!line.complete) {
      tornTail = true;
      break;
    }
    records = line.line;
    size = line.offset + line.bytes + 1;
    const parsed = parseRecord(line.text, fields);
    if (typeof parsed === 'string') {
      fail(line.line, `line ${line.line}: ${parsed}`);
      continue;
    }
    const { record, holder, hash, prev } = parsed;
    if (!lineHashMatches(line.text, hash) && computeRecordHash(record, fields) !== hash) {
      fail(line.line, `line ${line.line} does not match its hash: the record was edited after it was written`);
    }
    const earlier = seen.get(hash);
    if (earlier !== undefined) fail(line.line, `line ${line.line} repeats the record on line ${earlier}`);
    if (dangling && dangling.prev === hash) {
      dangling.reordered = true;
      fail(dangling.line, `line ${dangling.line} links to line ${line.line}, which comes after it: lines were reordered`);
    }
    if (prev !== lastHash) {
      if (prev !== GENESIS_HASH && !seen.has(prev)) {
        dangling ??= { line: line.line, prev, reordered: false };
      } else {
        mergeFromLine ??= line.line;
      }
    }
    if (holder.kind === 'discontinuity') {
      const why = typeof holder.reason === 'string' ? `: ${holder.reason}` : '';
      fail(line.line, `line ${line.line} records that a writer found the anchored head missing${why}`);
    }
    heads.delete(prev);
    const merge = holder.merge as { heads?: unknown } | undefined;
    if (merge && Array.isArray(merge.heads)) for (const head of merge.heads) if (typeof head === 'string') heads.delete(head);
    heads.add(hash);
    chains = Math.max(chains, heads.size);
    if (heads.size > MAX_CHAINS) fail(line.line, `line ${line.line} opens more than ${MAX_CHAINS} concurrent chains: not a merge history`);
    seen.set(hash, line.line);
    lastHash = hash;
  }

  if (dangling && !dangling.reordered) {
    fail(
      dangling.line,
      `line ${dangling.line} links to a record that is not in the file: the record before it was deleted or edited`,
    );
  }
  const anchor = options.anchor;
  let anchorState: VerifyResult['anchor'] = 'unchecked';
  if (anchor && anchor.line > 0) {
    anchorState = seen.has(anchor.hash) ? 'matched' : 'missing';
    if (anchorState === 'missing') {
      if (records < anchor.line) {
        fail(
          records + 1,
          `the log ends after line ${records}, but the anchor recorded ${anchor.line} lines (head ${short(anchor.hash)}): ` +
            `lines ${records + 1}-${anchor.line} were removed`,
        );
      } else {
        fail(
          anchor.line,
          `the anchored head ${short(anchor.hash)} (line ${anchor.line}) is not in the log: ` +
            'it was rewritten with a recomputed chain, or records were removed',
        );
      }
    }
  }
  const status: VerifyStatus = problem ? 'tampered' : records === 0 ? 'empty' : mergeFromLine ? 'merged' : 'verified';
  const result: VerifyResult = {
    status,
    records,
    chains: Math.max(chains, records ? 1 : 0),
    anchor: anchorState,
    tornTail,
    lastHash,
    size,
    openHeads: [...heads],
  };
  if (problem) {
    result.firstBadLine = problem.line;
    result.reason = problem.reason;
  } else if (status === 'merged') {
    result.reason = `merged (${result.chains} chains from line ${mergeFromLine})`;
  }
  if (mergeFromLine !== undefined) result.mergeFromLine = mergeFromLine;
  return result;
}

interface ParsedRecord {
  record: Record<string, unknown>;
  holder: Record<string, unknown>;
  hash: string;
  prev: string;
}

function parseRecord(text: string, fields: ChainFields): ParsedRecord | string {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return text.trim() === '' ? 'an empty line was inserted' : 'the line is not valid JSON';
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'the line is not a JSON object';
  const holder = fields(record as Record<string, unknown>);
  if (!holder || !isChainHash(holder.hash) || !isChainHash(holder.prev_hash)) return 'the record has no valid hash and prev_hash';
  return { record: record as Record<string, unknown>, holder, hash: holder.hash, prev: holder.prev_hash };
}

function short(hash: string): string {
  return hash.slice(0, 19);
}
