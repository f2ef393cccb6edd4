import type { CheckedLine } from './lineChecks';
import { SIGNATURE_KEY, SIGNING_KEY } from './traceChain';

/**
 * A batch of checked lines as a line check worker posts it: one array per field. A structured clone of 500 objects
 * spent most of its time on their key names, on both threads (a 100k-line verify took 0.4-0.7 s on the calling
 * thread to take them in); arrays of strings and numbers cost a tenth of that. A holder of the usual shape (`kind`,
 * a `signature` of `key_id` and `sig`, a `signing` note of `key_id`, `scheme` and `prev`) travels in columns; any
 * other holder, a problem and a line's text go whole, keyed by their place in the batch.
 */
export interface CheckedLineBatch {
  offset: number[];
  bytes: number[];
  /** FLAG bits. */
  flags: number[];
  hash: string[];
  prev: string[];
  /** '' where the FLAG says there is none. */
  kind: string[];
  link: string[];
  sigKeyId: string[];
  sig: string[];
  signingKeyId: string[];
  signingScheme: number[];
  signingPrev: string[];
  /** Holders not of the usual shape, whole (cut to the keys verify reads, as compactCheckedLine cuts them). */
  holders: [number, Record<string, unknown>][];
  problems: [number, string][];
  texts: [number, string][];
}

const FLAG = {
  complete: 1,
  canonical: 2,
  hashMatches: 4,
  kind: 8,
  link: 16,
  signature: 32,
  signing: 64,
  signingPrev: 128,
  /** The holder is in `holders`. */
  whole: 256,
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Whether `value` has exactly the keys `required` (all strings or numbers as typed) plus any of `optional`. */
function hasShape(value: unknown, types: Record<string, 'string' | 'number'>, optional: readonly string[] = []): value is Record<string, string | number> {
  if (!isPlainObject(value)) return false;
  let required = 0;
  for (const key of Object.keys(value)) {
    const type = types[key];
    if (type === undefined || typeof value[key] !== type) return false;
    if (!optional.includes(key)) required += 1;
  }
  return required === Object.keys(types).length - optional.length;
}

const SIGNATURE_SHAPE = { key_id: 'string', sig: 'string' } as const;
const SIGNING_SHAPE = { key_id: 'string', scheme: 'number', prev: 'string' } as const;
const SIGNING_OPTIONAL = ['prev'] as const;

/** Whether a holder is of the usual shape: its hash and prev_hash those of the line, and nothing but the columns' keys. */
function usualHolder(checked: CheckedLine): boolean {
  const { holder } = checked;
  for (const key of Object.keys(holder)) {
    const value = holder[key];
    if (key === 'hash') {
      if (value !== checked.hash) return false;
    } else if (key === 'prev_hash') {
      if (value !== checked.prev) return false;
    } else if (key === 'kind') {
      if (typeof value !== 'string') return false;
    } else if (key === SIGNATURE_KEY) {
      if (!hasShape(value, SIGNATURE_SHAPE)) return false;
    } else if (key === SIGNING_KEY) {
      if (!hasShape(value, SIGNING_SHAPE, SIGNING_OPTIONAL)) return false;
    } else return false;
  }
  // A line that is not a record has an empty holder and no hash: sent whole, so it comes back empty.
  return holder.hash !== undefined && holder.prev_hash !== undefined;
}

export function packCheckedLines(lines: readonly CheckedLine[]): CheckedLineBatch {
  const batch: CheckedLineBatch = {
    offset: [],
    bytes: [],
    flags: [],
    hash: [],
    prev: [],
    kind: [],
    link: [],
    sigKeyId: [],
    sig: [],
    signingKeyId: [],
    signingScheme: [],
    signingPrev: [],
    holders: [],
    problems: [],
    texts: [],
  };
  for (const [i, checked] of lines.entries()) {
    let flags = (checked.complete ? FLAG.complete : 0) | (checked.canonical ? FLAG.canonical : 0) | (checked.hashMatches ? FLAG.hashMatches : 0);
    const { holder } = checked;
    const usual = usualHolder(checked);
    const signature = usual ? (holder[SIGNATURE_KEY] as { key_id: string; sig: string } | undefined) : undefined;
    const signing = usual ? (holder[SIGNING_KEY] as { key_id: string; scheme: number; prev?: string } | undefined) : undefined;
    if (!usual) {
      flags |= FLAG.whole;
      batch.holders.push([i, holder]);
    } else if (holder.kind !== undefined) flags |= FLAG.kind;
    if (checked.link !== undefined) flags |= FLAG.link;
    if (signature) flags |= FLAG.signature;
    if (signing) flags |= FLAG.signing | (signing.prev !== undefined ? FLAG.signingPrev : 0);
    batch.offset.push(checked.offset);
    batch.bytes.push(checked.bytes);
    batch.flags.push(flags);
    batch.hash.push(checked.hash);
    batch.prev.push(checked.prev);
    batch.kind.push(usual && typeof holder.kind === 'string' ? holder.kind : '');
    batch.link.push(checked.link ?? '');
    batch.sigKeyId.push(signature?.key_id ?? '');
    batch.sig.push(signature?.sig ?? '');
    batch.signingKeyId.push(signing?.key_id ?? '');
    batch.signingScheme.push(signing?.scheme ?? 0);
    batch.signingPrev.push(signing?.prev ?? '');
    if (checked.problem !== undefined) batch.problems.push([i, checked.problem]);
    if (checked.text !== undefined) batch.texts.push([i, checked.text]);
  }
  return batch;
}

/** The lines packCheckedLines packed, unnumbered (line 0): the same objects, field for field. */
export function unpackCheckedLines(batch: CheckedLineBatch): CheckedLine[] {
  const whole = new Map(batch.holders);
  const problems = new Map(batch.problems);
  const texts = new Map(batch.texts);
  const lines: CheckedLine[] = [];
  for (let i = 0; i < batch.flags.length; i += 1) {
    const flags = batch.flags[i];
    const hash = batch.hash[i];
    const prev = batch.prev[i];
    let holder = whole.get(i);
    if (!holder) {
      holder = { hash, prev_hash: prev };
      if (flags & FLAG.kind) holder.kind = batch.kind[i];
      if (flags & FLAG.signature) holder[SIGNATURE_KEY] = { key_id: batch.sigKeyId[i], sig: batch.sig[i] };
      if (flags & FLAG.signing) {
        const note: Record<string, unknown> = { key_id: batch.signingKeyId[i], scheme: batch.signingScheme[i] };
        if (flags & FLAG.signingPrev) note.prev = batch.signingPrev[i];
        holder[SIGNING_KEY] = note;
      }
    }
    const line: CheckedLine = {
      line: 0,
      offset: batch.offset[i],
      bytes: batch.bytes[i],
      complete: (flags & FLAG.complete) !== 0,
      hash,
      prev,
      holder,
      canonical: (flags & FLAG.canonical) !== 0,
      hashMatches: (flags & FLAG.hashMatches) !== 0,
    };
    const problem = problems.get(i);
    if (problem !== undefined) line.problem = problem;
    const text = texts.get(i);
    if (text !== undefined) line.text = text;
    if (flags & FLAG.link) line.link = batch.link[i];
    lines.push(line);
  }
  return lines;
}
