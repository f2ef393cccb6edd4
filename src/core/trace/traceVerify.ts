import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { AnchorHead } from './anchorStore';
import { readLineBatches } from '../io/lineStream';
import { readLogLines } from './logLines';
import { logParts, type LogPart } from './sealedSegments';
import { chainFieldsName, checkLine, type CheckedLine } from './lineChecks';
import { checkLinesInParallel, defaultLineCheckWorkers, lineCheckDefaults, lineCheckWorkerFile, LineRereader } from './parallelLineChecks';
import { GENESIS_HASH, isChainHash, signedText, traceChainFields, type ChainFields } from './traceChain';

/**
 * Verification rule (chain, merges, anchor):
 * - every line's bytes are the canonical JSON of the record they parse to (canonicalJson: sorted keys, none
 *   repeated, no whitespace), and its `hash` is sha256 over those bytes without the `hash` and `signature`
 *   pairs. Only then is the line what was hashed and signed: a line with a repeated key reads differently
 *   to parsers that keep the first and those that keep the last, so it is tampering, whatever it hashes to;
 * - every record's `prev_hash` names genesis or a record on an EARLIER line. Usually it is the line right
 *   above (one linear chain). Otherwise the record starts a branch, and only in the shape a git union merge
 *   (`merge=union`) of append-only logs produces: common prefix, then one branch's new records, then the
 *   other's, both starting from the SAME branch point, the last record of the common prefix. So the line
 *   right after the branch point must continue from it too; anything else is an insertion or a move.
 *   Such forks make the status `merged`; at most MAX_CHAINS branches may be open at once;
 * - a `prev_hash` that names no earlier record is tampering: a record was deleted or edited (it names a
 *   later line when lines were reordered); a content/hash mismatch is an edited record;
 * - a writer continuing after a merge links to the last line and lists the other heads in `merge.heads`,
 *   which closes those branches; every head listed there must be a record in the file;
 * - the anchor (the head this machine's writers last appended, kept outside the workspace) must be in the
 *   file AT its line, ending at its byte size: gone means the end was truncated or the chain recomputed,
 *   moved means records were put before it (an insertion, or a rebase that put another branch first: the
 *   two look the same, and `governor trace reanchor` lets a human who checked accept it);
 * - a `discontinuity` record means a writer already found the anchored head missing or moved; it stays
 *   tampering unless a human accepted it: on this machine (`accepted`), or for every clone by a later
 *   `acceptance` record naming its hash (written by `governor trace reanchor`, signed like every record);
 *   an acceptance naming anything but an earlier discontinuity note is itself a problem.
 * A forged record with a correct prev_hash inserted mid-log has the shape of a merge, so only the anchor
 * exposes it: without one (e.g. CI on a fresh clone) insertions before the end cannot be detected. The
 * chain cannot prove a record genuine either (anyone may append a well-formed record); that needs signatures.
 */

export type VerifyStatus = 'verified' | 'merged' | 'tampered' | 'empty';

/** A writer's note that it found the anchored head missing or moved. */
export interface Discontinuity {
  line: number;
  hash: string;
  reason: string;
  /** A human accepted it (`governor trace reanchor`): on this machine, or by an acceptance record in the log. */
  accepted: boolean;
  /** The line of the `acceptance` record that accepted it for every clone. */
  acceptedAt?: number;
  /** Accepted because the base of `check --base` already held it: the branch did not add it. */
  heldByBase?: boolean;
}

export interface VerifyResult {
  status: VerifyStatus;
  /** Complete lines in the file. */
  records: number;
  /** Most branches open at once: 1 for a linear log, 2 after a two-branch merge. */
  chains: number;
  firstBadLine?: number;
  reason?: string;
  /** `unchecked` when no anchor was given (e.g. CI on a fresh clone). */
  anchor: 'matched' | 'moved' | 'missing' | 'unchecked';
  /** Why the anchor is `moved` or `missing`. */
  anchorProblem?: string;
  /** The first problem that is neither the anchor nor a discontinuity note (edits, deletions, shape). */
  chainProblem?: { line: number; reason: string };
  discontinuities: Discontinuity[];
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
  /** Hashes of discontinuity records a human accepted on this machine. */
  accepted?: ReadonlySet<string>;
  /** Sees every parsed record in file order (the signature audit); a returned promise is awaited. */
  onRecord?: (line: RecordLine) => Promise<void> | undefined;
  /**
   * Worker threads for the line checks of a log of at least `minBytes` (default: lineCheckDefaults, up to 4
   * workers); `false` checks every line on this thread. The result is the same either way.
   */
  parallel?: { workers?: number; minBytes?: number } | false;
}

/** One parsed record of the log, as `onRecord` gets it. */
export interface RecordLine {
  line: number;
  record: Record<string, unknown>;
  /** The object holding the chain fields and `signature`. */
  holder: Record<string, unknown>;
  hash: string;
  /** The canonical form a signature covers (traceChain.signedText). */
  readonly signedText: string;
  /** Whether the record's content hashes to its stated `hash` (false: edited after it was written). */
  hashMatches: boolean;
  /** A scheme-2 record's recordLink, when a line check worker computed it. */
  readonly link?: string;
}

/**
 * A RecordLine whose signed text is cut out of the line only when asked for: most records' signatures are never
 * checked. A line a worker checked comes without its record, and mostly without its text: read again when asked.
 */
class ParsedLine implements RecordLine {
  private cut: string | undefined;
  private parsed: Record<string, unknown> | undefined;
  /** The line read back from the log, once. */
  private again: string | undefined;

  constructor(
    private readonly checked: CheckedLine,
    private readonly fields: ChainFields,
    private readonly reread?: LineRereader,
  ) {}

  get line(): number {
    return this.checked.line;
  }

  get holder(): Record<string, unknown> {
    return this.checked.holder;
  }

  get hash(): string {
    return this.checked.hash;
  }

  get hashMatches(): boolean {
    return this.checked.hashMatches;
  }

  get link(): string | undefined {
    return this.checked.link;
  }

  get record(): Record<string, unknown> {
    this.parsed ??= this.checked.record ?? (this.text === '' ? {} : (JSON.parse(this.text) as Record<string, unknown>));
    return this.parsed;
  }

  private get text(): string {
    if (this.checked.text !== undefined) return this.checked.text;
    if (!this.reread) throw new Error('ParsedLine: a line without its text and no file to read it from');
    if (this.again === undefined) {
      const { line, offset, bytes } = this.checked;
      const text = this.reread.text(offset, bytes);
      const again = checkLine({ text, line, offset, bytes, complete: true }, this.fields);
      // Not the record the worker checked (the log changed during verify): its signature is judged against nothing it can match.
      this.again = again.hash === this.checked.hash && again.hashMatches === this.checked.hashMatches ? text : '';
    }
    return this.again;
  }

  get signedText(): string {
    this.cut ??= signedText(this.text, this.record, this.fields);
    return this.cut;
  }
}

/**
 * The given lines of a log as `onRecord` got them, read again (signature checks that need a second look).
 * Lines that no longer parse are skipped: verify has already reported them.
 */
export async function* readRecordLines(path: string, fields: ChainFields, wanted: ReadonlySet<number>): AsyncGenerator<RecordLine> {
  let left = wanted.size;
  for await (const line of readLogLines(path)) {
    if (left === 0 || !line.complete) return;
    if (!wanted.has(line.line)) continue;
    left -= 1;
    const checked = checkLine(line, fields);
    if (checked.problem !== undefined) continue;
    yield new ParsedLine(checked, fields);
  }
}

/**
 * The log's lines, checked one by one (lineChecks), in order across its sealed segments and working file, each placed
 * as in the whole log. A segment that does not hold the lines its name says, or ends in a partial line, is a problem.
 */
async function* checkedLines(parts: readonly LogPart[], fields: ChainFields, parallel: VerifyOptions['parallel'], problems: Problem[]): AsyncGenerator<CheckedLine[]> {
  for (const [k, part] of parts.entries()) {
    const working = k === parts.length - 1;
    let lines = 0;
    for await (const batch of checkedFile(part.path, fields, parallel)) {
      for (const line of batch) {
        line.line += part.line;
        line.offset += part.offset;
        if (!working && !line.complete) problems.push({ line: line.line, reason: `sealed segment ${basename(part.path)} ends in a partial line: it was cut or edited after it was sealed` });
        else lines += 1;
      }
      yield working ? batch : batch.filter((line) => line.complete);
    }
    if (!working && lines !== part.lines) {
      problems.push({ line: part.line + Math.min(lines, part.lines ?? 0) + 1, reason: `sealed segment ${basename(part.path)} holds ${lines} line${lines === 1 ? '' : 's'} where its name says ${part.lines}: lines were removed from or added to it after it was sealed` });
    }
  }
}

async function* checkedFile(path: string, fields: ChainFields, parallel: VerifyOptions['parallel']): AsyncGenerator<CheckedLine[]> {
  const name = chainFieldsName(fields);
  const workerFile = parallel === false || name === undefined ? undefined : lineCheckWorkerFile();
  const size = workerFile ? (statSync(path, { throwIfNoEntry: false })?.size ?? 0) : 0;
  const workers = parallel ? (parallel.workers ?? defaultLineCheckWorkers()) : defaultLineCheckWorkers();
  if (workerFile && name && workers > 1 && size > 0 && size >= ((parallel ? parallel.minBytes : undefined) ?? lineCheckDefaults.minBytes)) {
    yield* checkLinesInParallel(path, name, size, workers, workerFile);
    return;
  }
  for await (const batch of readLineBatches(path)) yield batch.map((line) => checkLine(line, fields));
}

/** Said after every finding a human may accept on this machine. */
const REANCHOR_HINT = 'If a human checked this and it is expected (a rebase, a reset), `governor trace reanchor` accepts it on this machine';

/** More concurrently open branches than this is not a plausible merge history. */
export const MAX_CHAINS = 64;

interface Problem {
  line: number;
  reason: string;
}

export async function verifyLog(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const fields = options.fields ?? traceChainFields;
  const anchor = options.anchor && options.anchor.line > 0 ? options.anchor : undefined;
  const accepted = options.accepted ?? new Set<string>();
  const seen = new Map<string, number>();
  // Records the very next line continues from: a branch may start only from one of these (see the rule above).
  const continued = new Set<string>();
  const heads = new Set<string>();
  const forks: { line: number; from: number }[] = [];
  const discontinuities: Discontinuity[] = [];
  let chainProblem: Problem | undefined;
  let noteProblem: Problem | undefined;
  // Discontinuity notes by hash, so a later acceptance record can find the one it names.
  const notesByHash = new Map<string, Discontinuity>();
  let dangling: { line: number; prev: string; reordered: boolean } | undefined;
  let anchored: { line: number; end: number } | undefined;
  let records = 0;
  let size = 0;
  let lastHash = GENESIS_HASH;
  let chains = 0;
  let tornTail = false;
  let mergeFromLine: number | undefined;
  // The earliest bad line is the one to report, whatever order the checks find problems in.
  const fail = (line: number, reason: string) => {
    if (!chainProblem || line < chainProblem.line) chainProblem = { line, reason };
  };

  const { parts } = logParts(path);
  const partProblems: Problem[] = [];
  const reread = new LineRereader(parts);
  try {
    // One await per batch of lines, not per line (100k of them).
    lines: for await (const batch of checkedLines(parts, fields, options.parallel, partProblems)) {
      for (const line of batch) {
        if (!line.complete) {
          tornTail = true;
          break lines;
        }
        records = line.line;
        size = line.offset + line.bytes + 1;
        if (line.problem !== undefined) {
          fail(line.line, `line ${line.line}: ${line.problem}`);
          continue;
        }
        const { holder, hash, prev } = line;
        if (!line.canonical) {
          fail(line.line, `not canonical at line ${line.line}: its bytes are not the canonical JSON of the record they parse to (a repeated or reordered key, or whitespace), so it is not the record that was hashed and signed`);
        } else if (!line.hashMatches) {
          fail(line.line, `line ${line.line} does not match its hash: the record was edited after it was written`);
        }
        const audited = options.onRecord?.(new ParsedLine(line, fields, reread));
        if (audited) await audited;
        const earlier = seen.get(hash);
        if (earlier !== undefined) fail(line.line, `line ${line.line} repeats the record on line ${earlier}`);
        if (dangling && dangling.prev === hash) {
          dangling.reordered = true;
          fail(dangling.line, `line ${dangling.line} links to line ${line.line}, which comes after it: lines were reordered`);
        }
        if (prev === lastHash) {
          // The same text as prev, but the string `seen` already keeps: 100k copies less to carry into the old generation.
          continued.add(lastHash);
        } else if (prev !== GENESIS_HASH && !seen.has(prev)) {
          dangling ??= { line: line.line, prev, reordered: false };
        } else {
          const from = prev === GENESIS_HASH ? 0 : (seen.get(prev) as number);
          if (!continued.has(prev)) {
            fail(
              line.line,
              `line ${line.line} starts a branch from ${from ? `line ${from}` : 'the beginning'}, but the line after that ` +
                'does not continue from it: not the shape of a union merge, so records were inserted or moved',
            );
          }
          forks.push({ line: line.line, from });
          mergeFromLine ??= line.line;
        }
        if (holder.kind === 'discontinuity') {
          const why = typeof holder.reason === 'string' ? holder.reason : 'no reason given';
          const note: Discontinuity = { line: line.line, hash, reason: why, accepted: accepted.has(hash) };
          discontinuities.push(note);
          notesByHash.set(hash, note);
        } else if (holder.kind === 'acceptance') {
          const named = Array.isArray(holder.accepts) ? holder.accepts : [];
          const unknown = named.length === 0 ? 'nothing' : named.find((h) => typeof h !== 'string' || !notesByHash.has(h));
          if (unknown !== undefined) {
            noteProblem ??= { line: line.line, reason: `line ${line.line} is an acceptance of ${typeof unknown === 'string' ? `${unknown === 'nothing' ? 'nothing' : short(unknown)}` : 'a value'}, which is not a discontinuity note before it` };
          }
          for (const h of named) {
            const note = typeof h === 'string' ? notesByHash.get(h) : undefined;
            if (note && note.acceptedAt === undefined) Object.assign(note, { accepted: true, acceptedAt: line.line });
          }
        }
        heads.delete(prev);
        if (holder.merge !== undefined) {
          const closed = mergeHeads(holder.merge);
          if (!closed) fail(line.line, `line ${line.line} has a malformed merge note (merge.heads must be a list of record hashes)`);
          for (const head of closed ?? []) {
            if (!seen.has(head)) fail(line.line, `line ${line.line} closes branch head ${short(head)}, which is not a record before it in the file`);
            heads.delete(head);
          }
        }
        heads.add(hash);
        chains = Math.max(chains, heads.size);
        if (heads.size > MAX_CHAINS) fail(line.line, `line ${line.line} opens more than ${MAX_CHAINS} concurrent chains: not a merge history`);
        seen.set(hash, line.line);
        if (anchor && hash === anchor.hash) anchored ??= { line: line.line, end: size };
        lastHash = hash;
      }
    }
  } finally {
    reread.close();
  }
  for (const problem of partProblems) fail(problem.line, problem.reason);

  if (dangling && !dangling.reordered) {
    fail(
      dangling.line,
      `line ${dangling.line} links to a record that is not in the file: the record before it was deleted or edited`,
    );
  }
  let anchorState: VerifyResult['anchor'] = 'unchecked';
  let anchorProblem: Problem | undefined;
  if (anchor) {
    if (!anchored) {
      anchorState = 'missing';
      anchorProblem = records < anchor.line
        ? {
            line: records + 1,
            reason:
              `the log ends after line ${records}, but the anchor recorded ${anchor.line} lines (head ${short(anchor.hash)}): ` +
              `lines ${records + 1}-${anchor.line} were removed`,
          }
        : {
            line: anchor.line,
            reason:
              `the anchored head ${short(anchor.hash)} (line ${anchor.line}) is not in the log: ` +
              'it was rewritten with a recomputed chain, or records were removed',
          };
    } else if (anchored.line !== anchor.line || (typeof anchor.size === 'number' && anchored.end !== anchor.size)) {
      anchorState = 'moved';
      anchorProblem = movedAnchor(anchor, anchored, forks);
    } else {
      anchorState = 'matched';
    }
  }
  const unaccepted = discontinuities.find((d) => !d.accepted);
  if (unaccepted && (!noteProblem || unaccepted.line < noteProblem.line)) {
    noteProblem = { line: unaccepted.line, reason: `line ${unaccepted.line} records that a writer found the anchored head missing or moved: ${unaccepted.reason}. ${REANCHOR_HINT}` };
  }
  // Report the earliest problem of any kind.
  const problem = [chainProblem, noteProblem, anchorProblem].filter((p): p is Problem => p !== undefined).sort((a, b) => a.line - b.line)[0];
  const status: VerifyStatus = problem ? 'tampered' : records === 0 ? 'empty' : mergeFromLine ? 'merged' : 'verified';
  const result: VerifyResult = {
    status,
    records,
    chains: Math.max(chains, records ? 1 : 0),
    anchor: anchorState,
    discontinuities,
    tornTail,
    lastHash,
    size,
    openHeads: [...heads],
  };
  if (anchorProblem) result.anchorProblem = anchorProblem.reason;
  if (chainProblem) result.chainProblem = chainProblem;
  if (problem) {
    result.firstBadLine = problem.line;
    result.reason = problem === anchorProblem ? `${problem.reason}. ${REANCHOR_HINT}` : problem.reason;
  } else if (status === 'merged') {
    result.reason = `merged (${result.chains} chains from line ${mergeFromLine})`;
  }
  if (mergeFromLine !== undefined) result.mergeFromLine = mergeFromLine;
  return result;
}

/**
 * The anchored head is in the file but not where this machine's writer left it. The records that pushed
 * it are most likely the branch between the last fork before it and that fork's branch point.
 */
function movedAnchor(anchor: AnchorHead, found: { line: number; end: number }, forks: { line: number; from: number }[]): Problem {
  const where = `the anchored head ${short(anchor.hash)} was line ${anchor.line} ending at byte ${anchor.size}, but is now line ${found.line} ending at byte ${found.end}`;
  const shift = found.line - anchor.line;
  if (shift <= 0) return { line: Math.min(found.line, anchor.line), reason: `${where}: records before it were removed or changed` };
  const fork = forks.filter((f) => f.line <= found.line).at(-1);
  const first = fork ? fork.from + 1 : found.line - shift;
  const exact = fork !== undefined && fork.line - 1 - fork.from === shift;
  const span = shift === 1 ? (exact ? `line ${first} was` : 'a record was') : exact ? `lines ${first}-${first + shift - 1} were` : `${shift} records were`;
  return { line: first, reason: `${where}: ${span} inserted before it, or a rebase put another branch's records first` };
}

function mergeHeads(merge: unknown): string[] | undefined {
  const heads = (merge as { heads?: unknown } | null)?.heads;
  if (typeof merge !== 'object' || merge === null || !Array.isArray(heads)) return undefined;
  return heads.every(isChainHash) ? heads : undefined;
}

function short(hash: string): string {
  return hash.slice(0, 19);
}
