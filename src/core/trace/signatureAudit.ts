import { isKeyId, isRecordSignature, isUnsignedNote, signatureMatchesAsync, type RecordSignature } from '../signing/recordSignature';
import type { VerifiedSignatureCache } from '../signing/verifiedSignatureCache';
import type { PublishedSigner, SignerSet } from '../signing/workspaceSigners';
import type { LogPosition } from '../signing/revocationPoint';
import { isSigningNote, PREV_SIGNED_KEY, recordLink, SIGNATURE_KEY, SIGNING_KEY, SIGNING_SCHEME } from './traceChain';
import type { RecordLine } from './traceVerify';

/**
 * What `governor trace verify` says about each record's signature:
 * - `signed`: a valid signature by a key published in `.orchestration/signers/`;
 * - `unsigned`: no signature, though the writer knew about signing (it had no key, or the record comes
 *   after signed ones: a record appended by something that is not a governor looks like this);
 * - `legacy`: no signature, and nothing before it in the log has one: written before records were signed;
 * - `unknown_key`: signed with a key no `.pub` in the signers folder has (never published, or removed);
 * - `signed_before_revocation`: a valid signature by a revoked key on a record at or before its revocation point
 *   (revocationPoint.ts): signed while the key was trusted, so it passes;
 * - `revoked`: a valid signature by a key in `signers/revoked/`, after its revocation point (or it has none);
 * - `invalid`: the signature does not match the record (forged, or the record edited after signing).
 * Only `signed` and `signed_before_revocation` pass `governor check --require-signatures`.
 */
export type SignatureVerdict = 'signed' | 'signed_before_revocation' | 'unsigned' | 'legacy' | 'unknown_key' | 'revoked' | 'invalid';

export const SIGNATURE_VERDICTS: readonly SignatureVerdict[] = ['signed', 'signed_before_revocation', 'unsigned', 'legacy', 'unknown_key', 'revoked', 'invalid'];

/** Consecutive lines with the same verdict and key: how a report lists every record without 100k lines. */
export interface SignatureRun {
  from: number;
  to: number;
  verdict: SignatureVerdict;
  /** The signer's name (`signed`, `revoked`, and `invalid` when the key is published). */
  signer?: string;
  key_id?: string;
  /** For `unsigned`: what the writer said, or why the record is not legacy; for `revoked`, where it stands (AFTER_POINT…). */
  reason?: string;
  /** For `unknown_key`: the `hash` of the run's first record, by which git can say who committed it. */
  first_hash?: string;
  /** For `unknown_key` and `revoked`: who git says the key is (cli/keyPeople.ts fills it); null: git cannot say. */
  person?: string | null;
}

export interface SignatureReport {
  records: number;
  counts: Record<SignatureVerdict, number>;
  /** Records per signer name, for `signed` ones. */
  signers: Record<string, number>;
  runs: SignatureRun[];
  /** Signatures checked with Ed25519 now (the rest were found valid by an earlier verify on this machine). */
  checked: number;
}

/** Checks in flight at once: enough to keep the thread pool busy, few enough to bound memory. */
const IN_FLIGHT = 16;

/**
 * Scheme-2 chains whose newest record is kept in memory for the check at the end; past this, the oldest
 * one's signature is checked during the pass (wasted only if a later record of its key names it after all).
 */
const MAX_HEADS = 1024;

interface Entry {
  verdict: SignatureVerdict;
  signer?: PublishedSigner;
  key_id?: string;
  reason?: string;
  hash?: string;
}

/** Scheme 1: consecutive records by one key, each vouching for the one before: the last one's signature decides them all. */
interface Run {
  indices: number[];
  keyId: string;
  signer: PublishedSigner;
  last: RecordLine;
  sig: RecordSignature;
}

/**
 * Scheme 2 (traceChain's SIGNING_KEY): a record by a published key, decided after the pass by the newest
 * record of its key's chain: valid when its own signature is, or when a valid record of the same key names it.
 */
interface Linked {
  index: number;
  /** Its key's signer (one object per key id, so also what tells two records' keys apart). */
  signer: PublishedSigner;
  hash: string;
  /** Its signature, until a later record names it (then it is read again if it must answer for itself). */
  sig?: RecordSignature;
  /** The record of the same key its `signing.prev` names, on an earlier line. */
  pred?: Linked;
  /** Later records that name it and are not known to be bad. */
  linkers: number;
  /** Kept while no record names it, so its signature can be checked at the end without reading it again. */
  text?: RecordLine;
  /** Its own signature, when it was checked during the pass. */
  own?: boolean;
  state: 'open' | 'valid' | 'invalid';
}

/** Reads the given lines of the log again, for records whose run ended in a bad signature. */
export type RereadLines = (lines: ReadonlySet<number>) => AsyncIterable<RecordLine>;

/**
 * Collects a verdict per record during verify's single pass.
 * - Scheme 2 (what writers write): each key's records form a chain (`signing.prev`, under each record's
 *   signature, names the key's previous record by hash and signature). After the pass, only the newest
 *   record of each chain is checked; a valid one vouches for every record behind it. When one is bad, the
 *   record it named is checked on its own (read again), and so on, so a forged record never takes genuine
 *   ones down with it. A record whose content does not match its hash neither is vouched for nor vouches.
 * - Scheme 1 (older logs): signatures are checked per run of consecutive records (PREV_SIGNED_KEY) on the
 *   thread pool; when a run's last signature is bad, its other records are read again and judged without it.
 */
export class SignatureAudit {
  private readonly entries: Entry[] = [];
  private sawSignatureField = false;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly pending = new Set<Promise<void>>();
  private checked = 0;
  private run: Run | undefined;
  private recheck = new Set<number>();
  /** Scheme-2 records by index; 100k of them, so each holds little once a later record names it. */
  private readonly linked: (Linked | undefined)[] = [];
  /** Scheme-2 records no later record names yet, by their recordLink. */
  private readonly byLink = new Map<string, Linked>();
  /** Scheme-2 records no later record names yet, oldest first. */
  private readonly heads = new Map<number, Linked>();
  /** Lines where a revocation point says a log's last record stood, and the hash each line holds. */
  private readonly pointLines = new Set<number>();
  private readonly hashAt = new Map<number, string>();

  constructor(
    private readonly signers: SignerSet,
    private readonly cache?: VerifiedSignatureCache,
    private readonly reread?: RereadLines,
    /** The log judged (`.orchestration/agent_trace.jsonl`): only its position in a revocation point applies. */
    private readonly log?: string,
  ) {
    for (const signer of signers.signers) for (const at of this.positions(signer)) if (at.records > 0) this.pointLines.add(at.records - 1);
  }

  /** Where a revoked signer's point says the judged log stood (every log's, when the audit was not told which). */
  private positions(signer: PublishedSigner): LogPosition[] {
    const logs = signer.revokedAt?.logs ?? {};
    if (this.log === undefined) return Object.values(logs);
    return Object.hasOwn(logs, this.log) ? [logs[this.log]] : [];
  }

  /** Judges one line; returns a promise only when too many checks are in flight (verify then waits). */
  add(line: RecordLine): Promise<void> | undefined {
    const index = line.line - 1;
    if (this.pointLines.has(index)) this.hashAt.set(index, line.hash);
    const field = line.holder[SIGNATURE_KEY];
    if (field === undefined) {
      this.entries[index] = this.sawSignatureField
        ? { verdict: 'unsigned', reason: 'no signature, after records that have one' }
        : { verdict: 'legacy' };
      return this.closeRun();
    }
    this.sawSignatureField = true;
    if (isUnsignedNote(field)) {
      this.entries[index] = { verdict: 'unsigned', reason: `the writer said: ${field.unsigned}` };
      return this.closeRun();
    }
    if (!isRecordSignature(field) || !isKeyId(field.key_id) || hasOtherKeys(field)) {
      this.entries[index] = { verdict: 'invalid', reason: 'the signature field is malformed' };
      return this.closeRun();
    }
    const signer = this.signers.byKeyId.get(field.key_id);
    if (!signer) {
      this.entries[index] = { verdict: 'unknown_key', key_id: field.key_id, hash: line.hash };
      return this.closeRun();
    }
    const note = line.holder[SIGNING_KEY];
    if (note !== undefined) return both(this.closeRun(), this.addLinked(line, field, signer, note));
    // Placeholder until a signature answers for it; fail closed if none ever does.
    this.entries[index] = { verdict: 'invalid', signer, key_id: field.key_id };
    if (!line.hashMatches) {
      // Edited after it was written: it stands alone, neither vouched for by the next record nor vouching.
      const waited = this.closeRun();
      this.run = { indices: [index], keyId: field.key_id, signer, last: line, sig: field };
      return both(waited, this.closeRun());
    }
    const run = this.run;
    if (run && run.keyId === field.key_id && line.holder[PREV_SIGNED_KEY] === true && line.holder.prev_hash === run.last.hash) {
      run.indices.push(index);
      run.last = line;
      run.sig = field;
      return undefined;
    }
    const waited = this.closeRun();
    this.run = { indices: [index], keyId: field.key_id, signer, last: line, sig: field };
    return waited;
  }

  /** A scheme-2 record: links it to the record of its key it names, and keeps it as its chain's newest. */
  private addLinked(line: RecordLine, sig: RecordSignature, signer: PublishedSigner, note: unknown): Promise<void> | undefined {
    const index = line.line - 1;
    if (!isSigningNote(note) || !isKeyId(note.key_id)) {
      this.entries[index] = { verdict: 'invalid', signer, key_id: sig.key_id, reason: 'its signing note is malformed' };
      return undefined;
    }
    if (note.scheme !== SIGNING_SCHEME) {
      this.entries[index] = { verdict: 'invalid', signer, key_id: sig.key_id, reason: `signing scheme ${note.scheme} is not one this version knows` };
      return undefined;
    }
    if (note.key_id !== sig.key_id) {
      this.entries[index] = { verdict: 'invalid', signer, key_id: sig.key_id, reason: `the record names the key ${note.key_id}, its signature another` };
      return undefined;
    }
    if (this.linked[index]) return undefined;
    const node: Linked = { index, signer, hash: line.hash, sig, linkers: 0, text: line, state: 'open' };
    this.linked[index] = node;
    if (line.hashMatches) {
      const pred = note.prev === undefined ? undefined : this.byLink.get(note.prev);
      if (pred && pred.signer === signer) {
        // Named once is enough: a second record naming it (a fork, or a forger) starts a chain of its own.
        this.byLink.delete(note.prev as string);
        node.pred = pred;
        pred.linkers += 1;
        pred.sig = undefined;
        if (this.heads.delete(pred.index)) pred.text = undefined;
      }
      const link = line.link ?? recordLink(line.hash, sig.key_id, sig.sig);
      if (!this.byLink.has(link)) this.byLink.set(link, node);
    }
    this.heads.set(index, node);
    if (this.heads.size <= MAX_HEADS) return undefined;
    const [oldest] = this.heads.values();
    this.heads.delete(oldest.index);
    const text = oldest.text as RecordLine;
    oldest.text = undefined;
    return this.track(
      this.checkLinked(oldest, text).then((ok) => {
        oldest.own = ok;
      }),
    );
  }

  /** A scheme-2 record's own signature (found valid before, or checked now) in `line`, the record as read (again). */
  private async checkLinked(node: Linked, line: RecordLine): Promise<boolean> {
    const sig = line.holder[SIGNATURE_KEY];
    const { keyId } = node.signer;
    // Read again, the line must still be the record the pass saw.
    if (line.hash !== node.hash || !isRecordSignature(sig) || sig.key_id !== keyId) return false;
    if (this.cache?.has(node.hash, keyId, sig.sig)) return true;
    if (!line.hashMatches) return false;
    const ok = await this.check(line, sig, node.signer);
    if (ok) this.cache?.add(node.hash, keyId, sig.sig);
    return ok;
  }

  /** Decides the open run by its last record's signature; returns a promise when too many checks are in flight. */
  private closeRun(): Promise<void> | undefined {
    const run = this.run;
    if (!run) return undefined;
    this.run = undefined;
    const valid: Entry = { verdict: run.signer.status === 'revoked' ? 'revoked' : 'signed', signer: run.signer, key_id: run.keyId };
    const { last, sig } = run;
    if (this.cache?.has(last.hash, run.keyId, sig.sig)) {
      for (const index of run.indices) this.entries[index] = valid;
      return undefined;
    }
    return this.track(
      this.check(last, sig, run.signer).then((ok) => {
        if (ok) {
          for (const index of run.indices) this.entries[index] = valid;
          this.cache?.add(last.hash, run.keyId, sig.sig);
          return;
        }
        // The last one is bad (forged, or edited after signing): the others must stand on their own.
        for (const index of run.indices) if (index !== last.line - 1) this.recheck.add(index + 1);
      }),
    );
  }

  /** Keeps a check's promise for `settle`; returns a promise to wait on when too many are in flight. */
  private track(job: Promise<void>): Promise<void> | undefined {
    this.pending.add(job);
    // Not `finally`: its promise would reject with the job's error where nobody handles it (a crash in Node).
    const forget = () => void this.pending.delete(job);
    job.then(forget, forget);
    return this.inFlight >= IN_FLIGHT ? new Promise((resolve) => this.waiting.push(resolve)) : undefined;
  }

  private async check(line: RecordLine, signature: RecordSignature, signer: PublishedSigner): Promise<boolean> {
    // A line that is not canonical (a repeated key, say) is not what was signed, whatever a parser makes of it.
    if (!line.hashMatches) return false;
    this.inFlight += 1;
    this.checked += 1;
    try {
      // A canonical line's signed text is its own bytes with the signature pair cut out.
      return await signatureMatchesAsync(line.signedText, signature, signer.key);
    } finally {
      this.inFlight -= 1;
      this.waiting.shift()?.();
    }
  }

  private async settle(): Promise<void> {
    await this.closeRun();
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /**
   * Decides every scheme-2 record, in rounds: the newest record of each chain first; a bad one hands its
   * verdict duty to the record it named, which is read again and checked on its own in the next round.
   */
  private async resolveLinked(): Promise<void> {
    let round = this.linked.filter((node): node is Linked => node !== undefined && node.state === 'open' && node.linkers === 0);
    while (round.length) {
      const next: Linked[] = [];
      const unread = new Set<number>();
      const checks: [Linked, RecordLine][] = [];
      for (const node of round) {
        if (node.own !== undefined) this.decide(node, node.own, next);
        else if (node.sig && this.cache?.has(node.hash, node.signer.keyId, node.sig.sig)) this.decide(node, true, next);
        else if (node.text) checks.push([node, node.text]);
        else unread.add(node.index + 1);
      }
      await this.checkHeads(checks, next);
      if (unread.size && this.reread) await this.checkHeads(this.readAgain(unread), next);
      // What could not be read again (the file changed under verify) fails closed.
      for (const node of round) if (node.state === 'open') this.decide(node, false, next);
      round = next.filter((node) => node.state === 'open' && node.linkers === 0);
    }
    // One entry object per signer and verdict: 100k records share a handful.
    const shared = new Map<PublishedSigner, { valid: Entry; invalid: Entry }>();
    for (const node of this.linked) {
      if (!node) continue;
      const { signer } = node;
      let entries = shared.get(signer);
      if (!entries) {
        entries = { valid: { verdict: signer.status === 'revoked' ? 'revoked' : 'signed', signer, key_id: signer.keyId }, invalid: { verdict: 'invalid', signer, key_id: signer.keyId } };
        shared.set(signer, entries);
      }
      this.entries[node.index] = node.state === 'valid' ? entries.valid : entries.invalid;
    }
  }

  private async *readAgain(lines: ReadonlySet<number>): AsyncGenerator<[Linked, RecordLine]> {
    for await (const line of (this.reread as RereadLines)(lines)) {
      const node = this.linked[line.line - 1];
      if (node && node.state === 'open') yield [node, line];
    }
  }

  /** Checks chain heads on the thread pool, IN_FLIGHT at a time, deciding each as it answers. */
  private async checkHeads(heads: Iterable<[Linked, RecordLine]> | AsyncIterable<[Linked, RecordLine]>, next: Linked[]): Promise<void> {
    const running = new Set<Promise<void>>();
    for await (const [node, line] of heads) {
      const job: Promise<void> = this.checkLinked(node, line).then((ok) => {
        running.delete(job);
        this.decide(node, ok, next);
      });
      running.add(job);
      if (running.size >= IN_FLIGHT) await Promise.race(running);
    }
    await Promise.all(running);
  }

  /** Valid: so is every record behind it in its chain. Bad: the record it named must now answer for itself. */
  private decide(node: Linked, ok: boolean, next: Linked[]): void {
    if (node.state !== 'open') return;
    node.text = undefined;
    if (!ok) {
      node.state = 'invalid';
      const pred = node.pred;
      if (pred) {
        pred.linkers -= 1;
        if (pred.linkers === 0 && pred.state === 'open') next.push(pred);
      }
      return;
    }
    for (let at: Linked | undefined = node; at && at.state === 'open'; at = at.pred) {
      at.state = 'valid';
      at.text = undefined;
      at.sig = undefined;
    }
  }

  /** Every verdict, once the checks in flight have answered; saves what is new to the cache. */
  async finish(): Promise<SignatureReport> {
    await this.settle();
    // Each round drops at least the bad signature that caused it, so this ends.
    while (this.recheck.size && this.reread) {
      const lines = this.recheck;
      this.recheck = new Set();
      for await (const line of this.reread(lines)) await this.add(line);
      await this.settle();
    }
    await this.resolveLinked();
    this.applyRevocationPoints();
    await this.cache?.save().catch(() => undefined);
    const counts = Object.fromEntries(SIGNATURE_VERDICTS.map((v) => [v, 0])) as Record<SignatureVerdict, number>;
    const signers: Record<string, number> = {};
    const runs: SignatureRun[] = [];
    this.entries.forEach((entry, index) => {
      if (!entry) return;
      counts[entry.verdict] += 1;
      if (entry.verdict === 'signed' && entry.signer) signers[entry.signer.name] = (signers[entry.signer.name] ?? 0) + 1;
      const last = runs.at(-1);
      const run: SignatureRun = { from: index + 1, to: index + 1, verdict: entry.verdict };
      if (entry.signer) run.signer = entry.signer.name;
      if (entry.key_id) run.key_id = entry.key_id;
      if (entry.reason) run.reason = entry.reason;
      if (entry.verdict === 'unknown_key' && entry.hash) run.first_hash = entry.hash;
      if (last && last.to === index && last.verdict === run.verdict && last.key_id === run.key_id && last.reason === run.reason) last.to = index + 1;
      else runs.push(run);
    });
    return { records: this.entries.filter(Boolean).length, counts, signers, runs, checked: this.checked };
  }

  /**
   * A revoked key's valid records up to its revocation point were signed while it was trusted. The point applies to
   * the log whose line `records` holds `last_hash`; anywhere else (lines rewritten, or interleaved before it by a
   * union merge) every record of the key stays revoked: fail closed, never a guess by content.
   */
  private applyRevocationPoints(): void {
    const points = new Map<PublishedSigner, { before?: Entry; after: Entry; records: number }>();
    for (const signer of this.signers.signers) {
      const logs = this.positions(signer);
      if (logs.length === 0) continue;
      const at = logs.find((p) => p.records > 0 && this.hashAt.get(p.records - 1) === p.last_hash);
      // No log matched: this one was empty when the key was revoked (all after it), or it is not the log the point saw.
      const reason = at || logs.some((p) => p.records === 0) ? AFTER_POINT : POINT_MISMATCH;
      points.set(signer, {
        before: at ? { verdict: 'signed_before_revocation', signer, key_id: signer.keyId } : undefined,
        after: { verdict: 'revoked', signer, key_id: signer.keyId, reason },
        records: at?.records ?? 0,
      });
    }
    if (points.size === 0) return;
    this.entries.forEach((entry, index) => {
      const point = entry?.verdict === 'revoked' && entry.signer ? points.get(entry.signer) : undefined;
      if (point) this.entries[index] = point.before && index < point.records ? point.before : point.after;
    });
  }
}

/** A `revoked` run's reason: its key has a revocation point, and these records come after it. */
export const AFTER_POINT = 'after its revocation';
/** A `revoked` run's reason: no line of this log is where the point says (rewritten, or merged in before it). */
export const POINT_MISMATCH = 'its revocation point does not match this log';

/** A signature field with more than `key_id` and `sig`: nothing would vouch for the rest. */
function hasOtherKeys(field: RecordSignature): boolean {
  for (const key in field) if (key !== 'key_id' && key !== 'sig') return true;
  return false;
}

/** Both waits, when the caller has two. */
function both(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => undefined) : (a ?? b);
}

/** True when every record is signed by a published key while it was trusted (unrevoked, or before its revocation). */
export function allSigned(report: SignatureReport): boolean {
  return report.counts.signed + report.counts.signed_before_revocation === report.records;
}
