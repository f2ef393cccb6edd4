import { createHash } from 'node:crypto';

/**
 * The hash chain both logs use. Each record carries `prev_hash` (the hash of the record it follows on its
 * branch) and `hash` = sha256 over the canonical JSON of the record without `hash`. Lines are written in
 * canonical form, so a verifier can usually hash the line's own bytes (see `lineHashMatches`).
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

/** The hash a record must carry: over its canonical form with `hash` left out. */
export function computeRecordHash(record: Record<string, unknown>, fields: ChainFields): string {
  const holder = fields(record);
  if (!holder) return `sha256:${sha256Hex(canonicalJson(record))}`;
  const { hash: _omit, ...rest } = holder;
  const copy = holder === record ? rest : { ...record, metadata: rest };
  return `sha256:${sha256Hex(canonicalJson(copy))}`;
}

/** Sets `prev_hash` and `hash` on the record (mutating it) and returns its line, without the newline. */
export function sealRecord(record: Record<string, unknown>, prevHash: string, fields: ChainFields): string {
  const holder = fields(record);
  if (!holder) throw new Error('sealRecord: record has no place for chain fields');
  delete holder.hash;
  holder.prev_hash = prevHash;
  holder.hash = computeRecordHash(record, fields);
  return canonicalJson(record);
}

/**
 * Fast check for a line the writer produced: its bytes minus the `"hash":"…"` pair hash to the stated value.
 * The own hash cannot occur elsewhere in the line, so the pair is unambiguous. A false answer is not a
 * verdict: the caller falls back to `computeRecordHash` for lines that are valid but not canonical.
 */
export function lineHashMatches(line: string, statedHash: string): boolean {
  const pair = `"hash":${JSON.stringify(statedHash)}`;
  const at = line.indexOf(pair);
  if (at < 0) return false;
  let stripped: string;
  if (line[at + pair.length] === ',') stripped = line.slice(0, at) + line.slice(at + pair.length + 1);
  else if (line[at - 1] === ',') stripped = line.slice(0, at - 1) + line.slice(at + pair.length);
  else stripped = line.slice(0, at) + line.slice(at + pair.length);
  return `sha256:${sha256Hex(stripped)}` === statedHash;
}
