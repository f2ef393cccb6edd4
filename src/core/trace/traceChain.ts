import * as nodeCrypto from 'node:crypto';
import { isLowerHexFrom } from '../lowerHex';

/**
 * The hash chain both logs use. Each record carries `prev_hash` (the hash of the record it follows on its
 * branch) and `hash` = sha256 over the canonical JSON of the record without `hash` and `signature`. The
 * signature sits beside `hash` and covers the canonical form with `hash` (see src/core/signing/); a signed
 * record also names, inside what `hash` covers, the last record its key signed (SIGNING_KEY). Lines are
 * written in canonical form, so a verifier can usually hash the line's own bytes (see `lineHashMatches`).
 */

/** `prev_hash` of the first record of a log. */
export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`;

/** The object inside a record that holds `prev_hash` and `hash`: `metadata` for Agent Trace, the record itself for ours. */
export type ChainFields = (record: Record<string, unknown>) => Record<string, unknown> | undefined;

/** The key of an Agent Trace record whose object holds its chain fields. */
export const TRACE_HOLDER_KEY = 'metadata';

export const traceChainFields: ChainFields = (record) => {
  const metadata = record[TRACE_HOLDER_KEY];
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : undefined;
};

export const governanceChainFields: ChainFields = (record) => record;

/** One-shot hashing (node 20.12+, 21.7+): no Hash object per call, which counts at 100k records; createHash before. */
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256Hex(text: string): string {
  return oneShotHash ? oneShotHash('sha256', text, 'hex') : nodeCrypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

export function isChainHash(value: unknown): value is string {
  // /^sha256:[0-9a-f]{64}$/
  return typeof value === 'string' && value.length === 71 && value.startsWith('sha256:') && isLowerHexFrom(value, 7);
}

/**
 * Sorted-key JSON with no whitespace (keys compared by UTF-16 code units, as JCS does), so any language can
 * recompute a hash. Integer-like keys are sorted as strings too, unlike plain JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    if (item === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${parts.join(',')}}`;
}

/** Where a record's signature goes: beside `hash`, in the object that holds the chain fields. */
export const SIGNATURE_KEY = 'signature';

/**
 * Signing scheme 1 (logs written before scheme 2, still verified): set by a writer on a record that follows,
 * on its own chain, a record the same writer signed with the same key: the signature over this record,
 * which covers `prev_hash`, then vouches for the one before it, so a verifier checks one Ed25519 signature
 * per run of a writer's consecutive records. Writers no longer set it.
 */
export const PREV_SIGNED_KEY = 'prev_signed';

/**
 * Signing scheme 2: a signed record carries `signing: {key_id, prev?, scheme: 2}` beside `hash`, inside what
 * `hash` (and so the signature) covers. `key_id` is the key that signs it (the signature must name the same
 * one); `prev` is `recordLink` of the last record signed with that key before it, wherever it is in the log,
 * so a key's records form a chain of their own however other writers' records interleave with them. One
 * valid signature then vouches for the whole chain behind it, signature bytes included: a verifier checks the
 * newest record of each chain and only reads back when one does not check out (signatureAudit.ts).
 */
export const SIGNING_KEY = 'signing';
export const SIGNING_SCHEME = 2;

export interface SigningNote {
  key_id: string;
  /** recordLink of this key's previous record; absent when its writer knew none. */
  prev?: string;
  scheme: number;
}

export function isSigningNote(value: unknown): value is SigningNote {
  const v = value as Partial<SigningNote> | null;
  return typeof value === 'object' && value !== null && typeof v?.key_id === 'string' && typeof v.scheme === 'number' && (v.prev === undefined || isChainHash(v.prev));
}

/**
 * What a scheme-2 record names its key's previous record by: sha256 over that record's `hash`, key id and
 * signature (`<hash>\n<key_id>\n<sig>`). Its hash pins its content, so the link pins every byte of it.
 */
export function recordLink(hash: string, keyId: string, sig: string): string {
  return `sha256:${sha256Hex(`${hash}\n${keyId}\n${sig}`)}`;
}

/** Where a line's last `"hash"` and `"signature"` keys at depth 0 or 1 start (their opening quote), -1 for none: the canonical scan notes them. */
export interface ChainKeyPositions {
  hash: number;
  signature: number;
}

/** The hash a record must carry: over its canonical form with `hash` and `signature` left out. */
export function computeRecordHash(record: Record<string, unknown>, fields: ChainFields): string {
  const holder = fields(record);
  if (!holder) return `sha256:${sha256Hex(canonicalJson(record))}`;
  const { hash: _hash, [SIGNATURE_KEY]: _signature, ...rest } = holder;
  return `sha256:${sha256Hex(canonicalJson(replaceHolder(record, holder, rest)))}`;
}

/**
 * What a record's signature covers: its canonical form with `hash` but without `signature`. Taken from the
 * line's own bytes when the line is canonical (the signature pair cut out), else recomputed; a line with
 * no signature is returned as it is (nothing to check it against).
 */
export function signedText(line: string, record: Record<string, unknown>, fields: ChainFields): string {
  const holder = fields(record);
  if (!holder || holder[SIGNATURE_KEY] === undefined) return line;
  const cut = cutPair(line, `${JSON.stringify(SIGNATURE_KEY)}:${signatureJson(holder[SIGNATURE_KEY])}`);
  if (cut !== undefined) return cut;
  const { [SIGNATURE_KEY]: _signature, ...rest } = holder;
  return canonicalJson(replaceHolder(record, holder, rest));
}

/**
 * Sets `prev_hash` and `hash` on the record (mutating it) and returns its line, without the newline. With
 * `sign`, the record also gets `signature` = sign(its canonical line with `hash`); any old signature and
 * `signing` note are dropped. This is scheme 1 (or no scheme: `sign` returning a writer's unsigned note);
 * `prevSigned`: the caller signed the record at `prevHash` itself, with the key `sign` uses now.
 * Writers sign with `sealSignedRecord`.
 */
export function sealRecord(record: Record<string, unknown>, prevHash: string, fields: ChainFields, sign?: (text: string) => unknown, prevSigned = false): string {
  const holder = fields(record);
  if (!holder) throw new Error('sealRecord: record has no place for chain fields');
  delete holder[SIGNING_KEY];
  delete holder[PREV_SIGNED_KEY];
  if (prevSigned && sign) holder[PREV_SIGNED_KEY] = true;
  return seal(record, holder, prevHash, fields, sign);
}

/**
 * Seals a record under signing scheme 2 (see SIGNING_KEY): `signing` names `keyId` and `ownPrev`, the
 * recordLink of the last record the caller signed with that key, then the record is hashed and signed.
 */
export function sealSignedRecord(record: Record<string, unknown>, prevHash: string, fields: ChainFields, keyId: string, sign: (text: string) => unknown, ownPrev?: string): string {
  const holder = fields(record);
  if (!holder) throw new Error('sealSignedRecord: record has no place for chain fields');
  delete holder[PREV_SIGNED_KEY];
  const note: SigningNote = { key_id: keyId, scheme: SIGNING_SCHEME };
  if (ownPrev !== undefined) note.prev = ownPrev;
  holder[SIGNING_KEY] = note;
  return seal(record, holder, prevHash, fields, sign);
}

function seal(record: Record<string, unknown>, holder: Record<string, unknown>, prevHash: string, fields: ChainFields, sign?: (text: string) => unknown): string {
  delete holder.hash;
  delete holder[SIGNATURE_KEY];
  holder.prev_hash = prevHash;
  const lineWith = sealedLines(record, holder);
  holder.hash = lineWith ? `sha256:${sha256Hex(lineWith({}))}` : computeRecordHash(record, fields);
  const line = lineWith ? lineWith({ hash: holder.hash }) : canonicalJson(record);
  if (!sign) return line;
  holder[SIGNATURE_KEY] = sign(line);
  return lineWith ? lineWith({ hash: holder.hash, [SIGNATURE_KEY]: holder[SIGNATURE_KEY] }) : canonicalJson(record);
}

/** `"key":<canonical value>` for each defined member, in canonicalJson's key order. */
function canonicalMembers(object: Record<string, unknown>): Array<[string, string]> {
  const members: Array<[string, string]> = [];
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    if (item !== undefined) members.push([key, `${JSON.stringify(key)}:${canonicalJson(item)}`]);
  }
  return members;
}

/**
 * canonicalJson(record) with `extra` added to its holder (the record itself, or one of its members), assembled
 * from one serialisation of the rest: sealing needs the line three ways (to hash, to sign, to write), and
 * serialising the whole record each time was most of a seal. Undefined when the holder is nested deeper.
 */
function sealedLines(record: Record<string, unknown>, holder: Record<string, unknown>): ((extra: Record<string, unknown>) => string) | undefined {
  const holderKey = holder === record ? undefined : Object.keys(record).find((key) => record[key] === holder);
  if (holder !== record && holderKey === undefined) return undefined;
  const inHolder = canonicalMembers(holder);
  const holderWith = (extra: Record<string, unknown>): string => {
    const members = [...inHolder, ...canonicalMembers(extra)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([, text]) => text).join(',')}}`;
  };
  if (holderKey === undefined) return holderWith;
  const around = canonicalMembers({ ...record, [holderKey]: null });
  const holderName = JSON.stringify(holderKey);
  return (extra) => `{${around.map(([key, text]) => (key === holderKey ? `${holderName}:${holderWith(extra)}` : text)).join(',')}}`;
}

/** canonicalJson of a signature, without the general walk for the usual `{key_id, sig}` of two strings (verify does this per line). */
function signatureJson(signature: unknown): string {
  const s = signature as { key_id?: unknown; sig?: unknown };
  if (typeof s === 'object' && s !== null && typeof s.key_id === 'string' && typeof s.sig === 'string' && Object.keys(s).length === 2) {
    return `{"key_id":${JSON.stringify(s.key_id)},"sig":${JSON.stringify(s.sig)}}`;
  }
  return canonicalJson(signature);
}

function replaceHolder(record: Record<string, unknown>, holder: Record<string, unknown>, rest: Record<string, unknown>): Record<string, unknown> {
  return holder === record ? rest : { ...record, metadata: rest };
}

/**
 * The line without `pair` (and the comma that joined it), when the pair occurs exactly once; undefined when
 * it does not, so the caller recomputes instead of guessing which occurrence was meant.
 */
function cutPair(line: string, pair: string): string | undefined {
  const at = line.indexOf(pair);
  return at < 0 || line.indexOf(pair, at + 1) >= 0 ? undefined : withoutPairAt(line, pair, at);
}

function withoutPairAt(line: string, pair: string, at: number): string {
  if (line[at + pair.length] === ',') return line.slice(0, at) + line.slice(at + pair.length + 1);
  if (line[at - 1] === ',') return line.slice(0, at - 1) + line.slice(at + pair.length);
  return line.slice(0, at) + line.slice(at + pair.length);
}

/**
 * `lineHashMatches(signedText(line, …), statedHash)` for a signed line, without building the signed text:
 * the line's bytes minus the signature pair and minus the `"hash":"…"` pair (each with the comma joining
 * it) hash to the stated value. When the two pairs touch or are not found, it answers false, and the caller
 * falls back to `computeRecordHash` as for any line that is not canonical. Both pairs are searched from the
 * end (the holder's keys come last in both logs' records). Unlike `signedText`, a signature pair that occurs
 * twice needs no check: cutting the wrong one only makes the hash differ, and the fallback decides.
 */
export function signedLineHashMatches(line: string, holder: Record<string, unknown>, statedHash: string, at?: ChainKeyPositions): boolean {
  const signature = holder[SIGNATURE_KEY];
  if (signature === undefined) return lineHashMatches(line, statedHash, at);
  const sigPair = `"signature":${signatureJson(signature)}`;
  // Where the scan saw the keys, when the pairs are there: searching a 1.5 KB line for each cost as much as hashing it.
  const s = at && at.signature >= 0 && line.startsWith(sigPair, at.signature) ? at.signature : line.lastIndexOf(sigPair);
  if (s < 0) return false;
  const hashPair = `"hash":${JSON.stringify(statedHash)}`;
  let h = at && at.hash >= 0 && at.hash < s && line.startsWith(hashPair, at.hash) ? at.hash : line.lastIndexOf(hashPair, s);
  if (h < 0) h = line.indexOf(hashPair, s);
  if (h < 0) return false;
  return cutPairsHashMatches(line, statedHash, h, hashPair.length, s, sigPair.length);
}

/**
 * Whether the line without the `"hash"` pair at `h` and the signature pair at `s` (`…Length` characters each, with
 * the comma joining each to a neighbour) hashes to `statedHash`; false when the two touch. For a canonical line
 * whose pairs the scan placed (lineChecks), this is signedLineHashMatches without looking for them.
 */
export function cutPairsHashMatches(line: string, statedHash: string, h: number, hashLength: number, s: number, sigLength: number): boolean {
  const [sigFrom, sigTo] = pairSpan(line, s, sigLength);
  const [hashFrom, hashTo] = pairSpan(line, h, hashLength);
  // With a character between the two spans, cutting both at once is what cutting one after the other gives.
  let rest: string;
  if (hashTo < sigFrom) rest = line.slice(0, hashFrom) + line.slice(hashTo, sigFrom) + line.slice(sigTo);
  else if (sigTo < hashFrom) rest = line.slice(0, sigFrom) + line.slice(sigTo, hashFrom) + line.slice(hashTo);
  else return false;
  return `sha256:${sha256Hex(rest)}` === statedHash;
}

/** The characters `withoutPairAt` removes: the pair and the comma joining it to a neighbour. */
function pairSpan(line: string, at: number, length: number): [number, number] {
  if (line.charCodeAt(at + length) === 44) return [at, at + length + 1];
  if (line.charCodeAt(at - 1) === 44) return [at - 1, at + length];
  return [at, at + length];
}

/**
 * Fast check for a line the writer produced, given without its signature (`signedText`): its bytes minus
 * the `"hash":"…"` pair hash to the stated value.
 * The own hash cannot occur elsewhere in the line, so the pair is unambiguous. A false answer is not a
 * verdict: the caller falls back to `computeRecordHash` for lines that are valid but not canonical.
 */
export function lineHashMatches(line: string, statedHash: string, keys?: ChainKeyPositions): boolean {
  const pair = `"hash":${JSON.stringify(statedHash)}`;
  // From the end: chain fields come after a record's content (`files`) in both logs' key order.
  const at = keys && keys.hash >= 0 && line.startsWith(pair, keys.hash) ? keys.hash : line.lastIndexOf(pair);
  return at >= 0 && `sha256:${sha256Hex(withoutPairAt(line, pair, at))}` === statedHash;
}
