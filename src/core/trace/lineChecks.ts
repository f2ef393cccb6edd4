import type { FileLine } from '../io/lineStream';
import { isRecordSignature } from '../signing/recordSignature';
import { isCanonicalJsonText, type ValueSpan } from './canonicalText';
import { memberPair, spanMembers } from './holderMembers';
import { cutPairsHashMatches, governanceChainFields, isChainHash, PREV_SIGNED_KEY, recordLink, SIGNATURE_KEY, signedLineHashMatches, SIGNING_KEY, TRACE_HOLDER_KEY, traceChainFields, type ChainFields, type ChainKeyPositions } from './traceChain';

/**
 * What verify learns of one line on its own, before it looks at the lines around it: whether it parses to a
 * record with chain fields, whether its bytes are that record's canonical JSON, and whether they hash to its
 * stated `hash`. The bulk of a verify's work, so a large log has it done by worker threads (parallelLineChecks).
 */
export interface CheckedLine {
  /** 1-based; 0 until the reader that put the workers' shares back in order numbers it. */
  line: number;
  /** Byte offset where the line starts, its length without the newline, and whether it has one. */
  offset: number;
  bytes: number;
  complete: boolean;
  /** Why the line is not a record (verify reports it); the fields below are then empty. */
  problem?: string;
  hash: string;
  prev: string;
  /** The object holding the chain fields: from a canonical Agent Trace line or a worker, only the keys verify and the signature audit read (CHAIN_KEYS). */
  holder: Record<string, unknown>;
  canonical: boolean;
  hashMatches: boolean;
  /** The record as parsed, when it was (a canonical Agent Trace line has only its holder parsed; a worker never sends it): else parsed again from `text`, or the file, when asked for. */
  record?: Record<string, unknown>;
  /** The line; from a worker, only for a record signed under scheme 1, whose own signature is checked in the pass. */
  text?: string;
  /**
   * From a worker, for a scheme-2 record whose content matches its hash: its recordLink, which the signature
   * audit keys its chains by. Hashed there, off the calling thread, which is a large verify's limit.
   */
  link?: string;
}

/** The holder's keys verify and the signature audit read: all a worker sends back of a record. */
const CHAIN_KEYS = ['hash', 'prev_hash', 'kind', 'reason', 'merge', SIGNATURE_KEY, SIGNING_KEY, PREV_SIGNED_KEY, 'accepts'] as const;
const HASH_MEMBER = CHAIN_KEYS.indexOf('hash');
const SIGNATURE_MEMBER = CHAIN_KEYS.indexOf(SIGNATURE_KEY);

/** The members of a holder verify and the signature audit read (CHAIN_KEYS), those that are there. */
export function chainMembers(holder: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of CHAIN_KEYS) if (holder[key] !== undefined) kept[key] = holder[key];
  return kept;
}

/** The chain layouts a worker can be told by name (a function cannot cross to another thread). */
export const CHAIN_FIELDS_BY_NAME = { trace: traceChainFields, governance: governanceChainFields } as const;
export type ChainFieldsName = keyof typeof CHAIN_FIELDS_BY_NAME;

export function chainFieldsName(fields: ChainFields): ChainFieldsName | undefined {
  return fields === traceChainFields ? 'trace' : fields === governanceChainFields ? 'governance' : undefined;
}

export function checkLine(line: FileLine, fields: ChainFields): CheckedLine {
  const { offset, bytes, complete, text } = line;
  // A torn last line: verify stops before it.
  if (!complete) return { line: line.line, offset, bytes, complete, hash: '', prev: '', holder: {}, canonical: false, hashMatches: false };
  const keys = { hash: -1, signature: -1 };
  if (fields === traceChainFields) {
    // Most lines: the scan proves the line valid canonical JSON and notes where the holder's chain members lie, so
    // only their values are parsed, not the record (JSON.parse was a third of a worker's time) nor the rest of the
    // holder. Keys are unique in a canonical line, so these are the members JSON.parse(text) would give. A line with
    // an escape has its holder parsed whole; anything else takes the full path below.
    const span: ValueSpan = { key: TRACE_HOLDER_KEY, from: -1, to: -1, members: CHAIN_KEYS, found: [] };
    if (isCanonicalJsonText(text, keys, span) && span.from >= 0 && text.charCodeAt(span.from) === 0x7b) {
      const holder = span.plain ? spanMembers(text, span) : chainMembers(JSON.parse(text.slice(span.from, span.to)) as Record<string, unknown>);
      if (isChainHash(holder.hash) && isChainHash(holder.prev_hash)) {
        const hashMatches = holderHashMatches(text, holder, span, keys);
        return { line: line.line, offset, bytes, complete, hash: holder.hash, prev: holder.prev_hash, holder, canonical: true, hashMatches, text };
      }
    }
    keys.hash = keys.signature = -1;
  }
  const parsed = parseRecord(text, fields);
  if (typeof parsed === 'string') return { line: line.line, offset, bytes, complete, problem: parsed, hash: '', prev: '', holder: {}, canonical: false, hashMatches: false };
  const canonical = isCanonicalJsonText(text, keys);
  const hashMatches = canonical && signedLineHashMatches(text, parsed.holder, parsed.hash, keys);
  return { line: line.line, offset, bytes, complete, hash: parsed.hash, prev: parsed.prev, holder: parsed.holder, canonical, hashMatches, record: parsed.record, text };
}

/**
 * signedLineHashMatches for a canonical line whose holder the scan read: its hash and signature pairs are where the
 * scan found them, so a signed line's are not looked for (nor its signature serialised again to find it).
 */
function holderHashMatches(text: string, holder: Record<string, unknown>, span: ValueSpan, keys: ChainKeyPositions): boolean {
  const statedHash = holder.hash as string;
  if (holder[SIGNATURE_KEY] === undefined || !span.plain) return signedLineHashMatches(text, holder, statedHash, keys);
  const hash = memberPair(span, HASH_MEMBER);
  const signature = memberPair(span, SIGNATURE_MEMBER);
  return hash !== undefined && signature !== undefined && cutPairsHashMatches(text, statedHash, hash.at, hash.length, signature.at, signature.length);
}

/**
 * A checked line as a worker sends it: the holder cut to CHAIN_KEYS, the record and (mostly) the text left behind.
 * Built field by field: copying with rest and spread cost a worker a tenth of its time.
 */
export function compactCheckedLine(checked: CheckedLine): CheckedLine {
  const kept = chainMembers(checked.holder);
  const compact: CheckedLine = { line: checked.line, offset: checked.offset, bytes: checked.bytes, complete: checked.complete, hash: checked.hash, prev: checked.prev, holder: kept, canonical: checked.canonical, hashMatches: checked.hashMatches };
  if (checked.problem !== undefined) compact.problem = checked.problem;
  const signature = kept[SIGNATURE_KEY];
  if (signature !== undefined && kept[SIGNING_KEY] === undefined && checked.text !== undefined) compact.text = checked.text;
  if (kept[SIGNING_KEY] !== undefined && checked.hashMatches && isRecordSignature(signature)) compact.link = recordLink(checked.hash, signature.key_id, signature.sig);
  return compact;
}

export interface ParsedRecord {
  record: Record<string, unknown>;
  holder: Record<string, unknown>;
  hash: string;
  prev: string;
}

export function parseRecord(text: string, fields: ChainFields): ParsedRecord | string {
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
