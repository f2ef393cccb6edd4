import { Buffer } from 'node:buffer';
import type { VerifiedSignatureCache } from '../signing/verifiedSignatureCache';
import type { PublishedSigner, SignerSet } from '../signing/workspaceSigners';
import type { AnchorHead } from './anchorStore';
import { baseLineAt, type AppendedLog } from './appendedLog';
import { checkLine, parseRecord, type CheckedLine } from './lineChecks';
import { SignatureAudit } from './signatureAudit';
import { GENESIS_HASH, isChainHash, signedText, type ChainFields } from './traceChain';
import { MAX_CHAINS, type Discontinuity, type RecordLine, type VerifyResult } from './traceVerify';
import type { LogVerification } from './workspaceVerify';

export interface AddedRecordsOptions {
  root: string;
  log: string;
  fields: ChainFields;
  appended: AppendedLog;
  /** This machine's anchor for the branch: matched among the added records, or the whole log is verified. */
  anchor?: AnchorHead;
  /** Discontinuity notes a human accepted on this machine. */
  accepted?: ReadonlySet<string>;
  signatures?: { signers: SignerSet; cache?: VerifiedSignatureCache };
}

/** Why the added records cannot be judged alone: the caller verifies the whole log instead (fail closed). */
export interface NeedsWholeLog {
  wholeLog: string;
}

/**
 * Verifies the records a branch appended after the base's log, by the rules of traceVerify, as if the base's records
 * (git has just proved them the base's, byte for byte) had been verified before them: each line canonical and
 * matching its hash, each `prev_hash` naming the line above, or a branch point a union merge can produce among the
 * added records or the base's last one; notes accepted; signatures judged. Anything that names a record of the base
 * other than its last (a branch from the middle of the base, a merge note closing a base head, an acceptance of a
 * base note, an anchor in the base) cannot be judged without the base's records: NeedsWholeLog.
 */
export async function verifyAddedRecords(options: AddedRecordsOptions): Promise<LogVerification | NeedsWholeLog> {
  const { fields, appended } = options;
  let baseHash = GENESIS_HASH;
  if (appended.baseLastLine !== undefined) {
    const last = parseRecord(appended.baseLastLine, fields);
    if (typeof last === 'string') return { wholeLog: `the base's last line is not a record (${last})` };
    baseHash = last.hash;
  }
  const lines: CheckedLine[] = appended.tail.map(({ text, offset }, i) => checkLine({ text, line: appended.baseRecords + i + 1, offset, bytes: Buffer.byteLength(text), complete: true }, fields));
  const byLine = new Map(lines.map((l) => [l.line, l]));
  const audit = options.signatures
    ? new SignatureAudit(await pointsFromBase(options, options.signatures.signers), options.signatures.cache, async function* (wanted) {
        for (const line of wanted) {
          const checked = byLine.get(line);
          if (checked && checked.problem === undefined) yield recordLine(checked, fields);
        }
      }, options.log)
    : undefined;
  const chain = new AddedChain(baseHash, appended.baseRecords, options.accepted ?? new Set());
  for (const line of lines) {
    if (line.problem === undefined) await audit?.add(recordLine(line, fields));
    const outside = chain.add(line);
    if (outside) return { wholeLog: outside };
  }
  const { anchor } = options;
  if (anchor && anchor.line > 0 && !lines.some((l) => l.line === anchor.line && l.hash === anchor.hash && l.offset + l.bytes + 1 === anchor.size)) {
    return { wholeLog: "this machine's anchor is not among the added records" };
  }
  const result = chain.finish(appended, anchor && anchor.line > 0 ? 'matched' : 'unchecked');
  return { log: options.log, result, ...(audit ? { signatures: await audit.finish() } : {}) };
}

/** A checked line as the signature audit takes it. */
function recordLine(checked: CheckedLine, fields: ChainFields): RecordLine {
  const text = checked.text as string;
  let parsed: Record<string, unknown> | undefined;
  let cut: string | undefined;
  return {
    line: checked.line,
    holder: checked.holder,
    hash: checked.hash,
    hashMatches: checked.hashMatches,
    link: checked.link,
    get record() {
      parsed ??= checked.record ?? (JSON.parse(text) as Record<string, unknown>);
      return parsed;
    },
    get signedText() {
      cut ??= signedText(text, this.record, fields);
      return cut;
    },
  };
}

/**
 * The signers as the audit of the added records needs them: a revocation point that lies in the base, at a line
 * holding the hash it names, puts every added record after it (its records 0 says so to the audit); a point that
 * does not match stays, and the audit fails the key's records closed as it would for the whole log.
 */
async function pointsFromBase(options: AddedRecordsOptions, signers: SignerSet): Promise<SignerSet> {
  const { root, log, fields, appended } = options;
  const moved = new Map<PublishedSigner, PublishedSigner>();
  for (const signer of signers.signers) {
    const point = signer.revokedAt?.logs[log];
    if (!signer.revokedAt || !point || point.records === 0 || point.records > appended.baseRecords) continue;
    const text = await baseLineAt(root, log, appended, point.records);
    const parsed = text === undefined ? undefined : parseRecord(text, fields);
    if (typeof parsed !== 'object' || parsed.hash !== point.last_hash) continue;
    moved.set(signer, { ...signer, revokedAt: { ...signer.revokedAt, logs: { ...signer.revokedAt.logs, [log]: { records: 0 } } } });
  }
  if (moved.size === 0) return signers;
  const swap = (s: PublishedSigner) => moved.get(s) ?? s;
  return { ...signers, signers: signers.signers.map(swap), byKeyId: new Map([...signers.byKeyId].map(([id, s]) => [id, swap(s)])) };
}

interface Problem {
  line: number;
  reason: string;
}

/** traceVerify's chain rules over the added lines, starting from the base's last record. */
class AddedChain {
  private readonly seen = new Map<string, number>();
  private readonly continued = new Set<string>();
  private readonly heads = new Set<string>();
  private readonly notes = new Map<string, Discontinuity>();
  private readonly discontinuities: Discontinuity[] = [];
  private problem: Problem | undefined;
  private noteProblem: Problem | undefined;
  private lastHash: string;
  private chains = 1;
  private mergeFromLine: number | undefined;

  constructor(
    private readonly baseHash: string,
    private readonly baseRecords: number,
    private readonly accepted: ReadonlySet<string>,
  ) {
    this.lastHash = baseHash;
    if (baseRecords > 0) this.heads.add(baseHash);
  }

  /** Takes one added line; returns why the whole log must be verified, when the line names a record of the base. */
  add(line: CheckedLine): string | undefined {
    if (line.problem !== undefined) return void this.fail(line.line, `line ${line.line}: ${line.problem}`);
    const { hash, prev, holder } = line;
    if (!line.canonical) this.fail(line.line, `not canonical at line ${line.line}: its bytes are not the canonical JSON of the record they parse to (a repeated or reordered key, or whitespace), so it is not the record that was hashed and signed`);
    else if (!line.hashMatches) this.fail(line.line, `line ${line.line} does not match its hash: the record was edited after it was written`);
    const known = (h: string) => this.seen.has(h) || (this.baseRecords > 0 && h === this.baseHash) || (this.baseRecords === 0 && h === GENESIS_HASH);
    const earlier = this.seen.get(hash) ?? (hash === this.baseHash && this.baseRecords > 0 ? this.baseRecords : undefined);
    if (earlier !== undefined) this.fail(line.line, `line ${line.line} repeats the record on line ${earlier}`);
    if (prev === this.lastHash) this.continued.add(prev);
    else if (!known(prev)) return `line ${line.line} links to a record that is not among the added ones`;
    else {
      if (!this.continued.has(prev)) {
        const from = this.seen.get(prev) ?? this.baseRecords;
        this.fail(line.line, `line ${line.line} starts a branch from ${from ? `line ${from}` : 'the beginning'}, but the line after that does not continue from it: not the shape of a union merge, so records were inserted or moved`);
      }
      this.mergeFromLine ??= line.line;
    }
    if (holder.kind === 'discontinuity') {
      const note: Discontinuity = { line: line.line, hash, reason: typeof holder.reason === 'string' ? holder.reason : 'no reason given', accepted: this.accepted.has(hash) };
      this.discontinuities.push(note);
      this.notes.set(hash, note);
    } else if (holder.kind === 'acceptance') {
      const named = Array.isArray(holder.accepts) ? holder.accepts : [];
      // An acceptance of a note the base held is the whole log's to judge.
      if (named.length === 0 || named.some((h) => typeof h !== 'string' || !this.notes.has(h))) return `line ${line.line} accepts a note that is not among the added records`;
      for (const h of named as string[]) {
        const note = this.notes.get(h) as Discontinuity;
        if (note.acceptedAt === undefined) Object.assign(note, { accepted: true, acceptedAt: line.line });
      }
    }
    this.heads.delete(prev);
    if (holder.merge !== undefined) {
      const heads = (holder.merge as { heads?: unknown } | null)?.heads;
      if (!Array.isArray(heads) || !heads.every(isChainHash)) this.fail(line.line, `line ${line.line} has a malformed merge note (merge.heads must be a list of record hashes)`);
      else {
        if (heads.some((h) => !known(h))) return `line ${line.line} closes a branch head that is not among the added records`;
        for (const h of heads) this.heads.delete(h);
      }
    }
    this.heads.add(hash);
    this.chains = Math.max(this.chains, this.heads.size);
    if (this.heads.size > MAX_CHAINS) this.fail(line.line, `line ${line.line} opens more than ${MAX_CHAINS} concurrent chains: not a merge history`);
    this.seen.set(hash, line.line);
    this.lastHash = hash;
    return undefined;
  }

  private fail(line: number, reason: string): void {
    if (!this.problem || line < this.problem.line) this.problem = { line, reason };
  }

  finish(appended: AppendedLog, anchor: VerifyResult['anchor']): VerifyResult {
    const unaccepted = this.discontinuities.find((d) => !d.accepted);
    if (unaccepted) this.noteProblem = { line: unaccepted.line, reason: `line ${unaccepted.line} records that a writer found the anchored head missing or moved: ${unaccepted.reason}` };
    const problem = [this.problem, this.noteProblem].filter((p): p is Problem => p !== undefined).sort((a, b) => a.line - b.line)[0];
    const records = appended.baseRecords + appended.tail.length;
    const result: VerifyResult = {
      status: problem ? 'tampered' : records === 0 ? 'empty' : this.mergeFromLine ? 'merged' : 'verified',
      records,
      chains: records ? this.chains : 0,
      anchor,
      discontinuities: this.discontinuities,
      tornTail: appended.tornTail,
      lastHash: this.lastHash,
      size: appended.baseSize + appended.tail.reduce((sum, l) => sum + Buffer.byteLength(l.text) + 1, 0),
      openHeads: [...this.heads],
    };
    if (this.problem) result.chainProblem = this.problem;
    if (problem) Object.assign(result, { firstBadLine: problem.line, reason: problem.reason });
    if (this.mergeFromLine !== undefined) Object.assign(result, { mergeFromLine: this.mergeFromLine, ...(problem ? {} : { reason: `merged (${this.chains} chains from line ${this.mergeFromLine})` }) });
    return result;
  }
}
