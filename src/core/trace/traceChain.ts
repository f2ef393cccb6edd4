import { createHash } from 'node:crypto';

/**
 * The hash chain both logs use. Each record carries `prev_hash` (the hash of the record it follows on its
 * branch) and `hash` = sha256 over the canonical JSON of the record without `hash` and `signature`. The
 * signature sits beside `hash` and covers the canonical form with `hash` (see src/core/signing/). Lines are
 * written in canonical form, so a verifier can usually hash the line's own bytes (see `lineHashMatches`).
 */

/** `prev_hash` of the first record of a log. */
export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`;

const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The object inside a record that holds `prev_hash` and `hash`: `metadata` for Agent Trace, the record itself for ours. */
export type ChainFields = (record: Record<string, unknown>) => Record<string, unknown> | undefined;

export const traceChainFields: ChainFields = (record) => {
  const metadata = record.metadata;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : undefined;
};

export const governanceChainFields: ChainFields = (record) => record;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function isChainHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_PATTERN.test(value);
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
 * Set by a writer on a record that follows, on its own chain, a record the same writer signed with the same
 * key (see chainedLog.ts): the signature over this record, which covers `prev_hash`, then vouches for the
 * one before it, so a verifier checks one Ed25519 signature per run of a writer's records instead of each.
 */
export const PREV_SIGNED_KEY = 'prev_signed';

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
 * `sign`, the record also gets `signature` = sign(its canonical line with `hash`); any old one is dropped.
 * `prevSigned`: the caller signed the record at `prevHash` itself, with the key `sign` uses now.
 */
export function sealRecord(record: Record<string, unknown>, prevHash: string, fields: ChainFields, sign?: (text: string) => unknown, prevSigned = false): string {
  const holder = fields(record);
  if (!holder) throw new Error('sealRecord: record has no place for chain fields');
  delete holder.hash;
  delete holder[SIGNATURE_KEY];
  delete holder[PREV_SIGNED_KEY];
  holder.prev_hash = prevHash;
  if (prevSigned && sign) holder[PREV_SIGNED_KEY] = true;
  holder.hash = computeRecordHash(record, fields);
  const line = canonicalJson(record);
  if (!sign) return line;
  holder[SIGNATURE_KEY] = sign(line);
  return canonicalJson(record);
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
 * Fast check for a line the writer produced, given without its signature (`signedText`): its bytes minus
 * the `"hash":"…"` pair hash to the stated value.
 * The own hash cannot occur elsewhere in the line, so the pair is unambiguous. A false answer is not a
 * verdict: the caller falls back to `computeRecordHash` for lines that are valid but not canonical.
 */
export function lineHashMatches(line: string, statedHash: string): boolean {
  const pair = `"hash":${JSON.stringify(statedHash)}`;
  const at = line.indexOf(pair);
  return at >= 0 && `sha256:${sha256Hex(withoutPairAt(line, pair, at))}` === statedHash;
}
