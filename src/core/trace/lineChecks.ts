import type { FileLine } from '../io/lineStream';
import { isCanonicalJsonText } from './canonicalText';
import { governanceChainFields, isChainHash, PREV_SIGNED_KEY, SIGNATURE_KEY, signedLineHashMatches, SIGNING_KEY, traceChainFields, type ChainFields } from './traceChain';

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
  /** The object holding the chain fields; from a worker, only the keys verify and the signature audit read (CHAIN_KEYS). */
  holder: Record<string, unknown>;
  canonical: boolean;
  hashMatches: boolean;
  /** The record as parsed; from a worker, absent (parsed again from `text`, or the file, when a signature is checked). */
  record?: Record<string, unknown>;
  /** The line; from a worker, only for a record signed under scheme 1, whose own signature is checked in the pass. */
  text?: string;
}

/** The holder's keys verify and the signature audit read: all a worker sends back of a record. */
const CHAIN_KEYS = ['hash', 'prev_hash', 'kind', 'reason', 'merge', SIGNATURE_KEY, SIGNING_KEY, PREV_SIGNED_KEY] as const;

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
  const parsed = parseRecord(text, fields);
  if (typeof parsed === 'string') return { line: line.line, offset, bytes, complete, problem: parsed, hash: '', prev: '', holder: {}, canonical: false, hashMatches: false };
  const keys = { hash: -1, signature: -1 };
  const canonical = isCanonicalJsonText(text, keys);
  const hashMatches = canonical && signedLineHashMatches(text, parsed.holder, parsed.hash, keys);
  return { line: line.line, offset, bytes, complete, hash: parsed.hash, prev: parsed.prev, holder: parsed.holder, canonical, hashMatches, record: parsed.record, text };
}

/**
 * A checked line as a worker sends it: the holder cut to CHAIN_KEYS, the record and (mostly) the text left behind.
 * Built field by field: copying with rest and spread cost a worker a tenth of its time.
 */
export function compactCheckedLine(checked: CheckedLine): CheckedLine {
  const { holder } = checked;
  const kept: Record<string, unknown> = {};
  for (const key of CHAIN_KEYS) if (holder[key] !== undefined) kept[key] = holder[key];
  const compact: CheckedLine = { line: checked.line, offset: checked.offset, bytes: checked.bytes, complete: checked.complete, hash: checked.hash, prev: checked.prev, holder: kept, canonical: checked.canonical, hashMatches: checked.hashMatches };
  if (checked.problem !== undefined) compact.problem = checked.problem;
  if (kept[SIGNATURE_KEY] !== undefined && kept[SIGNING_KEY] === undefined && checked.text !== undefined) compact.text = checked.text;
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
