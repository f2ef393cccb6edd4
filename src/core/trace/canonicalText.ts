import { canonicalJson, type ChainKeyPositions } from './traceChain';

/** Deepest nesting scanned in place; deeper lines (none of ours) are re-serialised instead. */
const MAX_DEPTH = 64;
const NO_KEY = -1;
const keyStart = new Int32Array(MAX_DEPTH);
const keyEnd = new Int32Array(MAX_DEPTH);
/** Per depth: whether the container is an object (else an array). */
const isObject = new Uint8Array(MAX_DEPTH);

/** What the grammar allows next. */
const VALUE = 0;
/** Just after `{`: a key or `}`. */
const FIRST_KEY = 1;
/** After a comma in an object. */
const KEY = 2;
/** Just after `[`: a value or `]`. */
const FIRST_ITEM = 3;
/** After a value: a comma or the container's close (nothing, at the top). */
const NEXT = 4;

/** Where the value of one key of the top-level object lies in the line, `[from, to)`; -1 when not found. */
export interface ValueSpan {
  readonly key: string;
  from: number;
  to: number;
  /** Set by the scan: the line has no escape, control character or surrogate, so every string ends at its next quote. */
  plain?: boolean;
  /** Keys of the span's object (when it is one) whose values the scan notes in `found`. */
  readonly members?: readonly string[];
  /** Set by the scan: for each of `members` found, its index in `members` and its value's `[from, to)`, three numbers each. */
  found?: number[];
}

/**
 * Whether `text` is valid JSON that is exactly `canonicalJson(JSON.parse(text))`: no whitespace between tokens,
 * the keys of every object in strictly increasing order (so none is repeated: JSON.parse keeps the last, a reader
 * in another language may keep the first), and strings and numbers written as JSON.stringify writes them. It
 * checks the grammar too, so a true answer needs no JSON.parse of the line: verify parses only the part it reads.
 * One pass over the characters (about 3 µs for a 1.5 KB record); the rare line with an escaped key or deeper
 * nesting is compared with its re-serialised form instead.
 * With `chainKeys`, also notes where the last `"hash"` and `"signature"` keys of the two outer levels start,
 * so the chain check finds its pairs without searching the line for them (a hint it confirms, not a verdict).
 * With `span`, also notes where the value of `span.key` in the top-level object lies (-1 when the line had to be
 * re-serialised).
 */
export function isCanonicalJsonText(text: string, chainKeys?: ChainKeyPositions, span?: ValueSpan): boolean {
  if (span) {
    span.from = span.to = -1;
    if (span.found) span.found.length = 0;
  }
  // Most lines have no escape, control character or surrogate: their strings end at the next quote, found natively.
  const plain = !NEEDS_WALK.test(text);
  if (span) span.plain = plain;
  let depth = -1;
  let expect = VALUE;
  let inSpan = false;
  // The member of the span's object whose value is being scanned, when it is one of span.members.
  let member = -1;
  let memberFrom = -1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (expect === NEXT) {
      if (depth < 0) return false; // something after the top-level value
      if (inSpan && depth === 0) {
        (span as ValueSpan).to = i;
        inSpan = false;
      }
      if (member >= 0 && depth === 1) {
        (span as ValueSpan).found?.push(member, memberFrom, i);
        member = -1;
      }
      if (c === 0x2c) expect = isObject[depth] ? KEY : VALUE;
      else if (c === (isObject[depth] ? 0x7d : 0x5d)) depth -= 1;
      else return false;
      i += 1;
      continue;
    }
    if (expect === FIRST_KEY || expect === KEY) {
      if (c === 0x7d && expect === FIRST_KEY) {
        depth -= 1;
        expect = NEXT;
        i += 1;
        continue;
      }
      if (c !== 0x22) return false;
      const end = stringEnd(text, i, plain);
      if (end === INVALID) return false;
      // An escaped key sorts by what it stands for: compared in its re-serialised form.
      if (end === ESCAPED) return reserialisedMatches(text, span);
      if (text.charCodeAt(end + 1) !== 0x3a) return false;
      const previous = keyStart[depth];
      if (previous !== NO_KEY && !spanBefore(text, previous, keyEnd[depth], i + 1, end)) return false;
      keyStart[depth] = i + 1;
      keyEnd[depth] = end;
      if (chainKeys && depth <= 1) noteChainKey(text, i, end, chainKeys);
      if (span && depth === 0 && end - i - 1 === span.key.length && text.startsWith(span.key, i + 1)) {
        span.from = end + 2;
        inSpan = true;
      } else if (inSpan && depth === 1 && span?.members) {
        member = memberIndex(text, i, end, span.members);
        memberFrom = end + 2;
      }
      i = end + 2; // past the colon
      expect = VALUE;
      continue;
    }
    // A value (or, just after `[`, the close).
    if (c === 0x22) {
      const end = stringEnd(text, i, plain);
      if (end === INVALID) return false;
      i = (end === ESCAPED ? escapedEnd : end) + 1;
      expect = NEXT;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth === MAX_DEPTH) return reserialisedMatches(text, span);
      isObject[depth] = c === 0x7b ? 1 : 0;
      keyStart[depth] = NO_KEY;
      expect = c === 0x7b ? FIRST_KEY : FIRST_ITEM;
      i += 1;
    } else if (c === 0x5d && expect === FIRST_ITEM) {
      depth -= 1;
      expect = NEXT;
      i += 1;
    } else if (c === 0x74 || c === 0x6e || c === 0x66) {
      const word = c === 0x74 ? 'true' : c === 0x6e ? 'null' : 'false';
      if (!text.startsWith(word, i)) return false;
      i += word.length;
      expect = NEXT;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let plain = c !== 0x2d;
      for (; end < n; end += 1) {
        const d = text.charCodeAt(end);
        if (d >= 0x30 && d <= 0x39) continue;
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) plain = false;
        else break;
      }
      if (plain && end - i <= 15) {
        // Up to 15 digits, an integer is written as JSON.stringify writes it, unless it has a leading zero.
        if (c === 0x30 && end - i > 1) return false;
      } else {
        // Whatever JSON.stringify writes for a finite number is valid JSON; anything else is refused.
        const token = text.slice(i, end);
        if (JSON.stringify(Number(token)) !== token) return false;
      }
      i = end;
      expect = NEXT;
    } else {
      return false; // whitespace, or anything else where a value belongs
    }
  }
  if (depth !== -1 || expect !== NEXT) return false;
  if (inSpan) (span as ValueSpan).to = n;
  return true;
}

/** Characters that make a string need the walk in stringEnd: an escape, a raw control character, a surrogate. */
const NEEDS_WALK = /[\u0000-\u001f\\\ud800-\udfff]/;
/** stringEnd's answer for a string that is not valid JSON or not as JSON.stringify writes it. */
const INVALID = -1;
/** stringEnd's answer for a string with an escape (or a surrogate) that re-serialises as written; its closing quote is then in `escapedEnd`. */
const ESCAPED = -2;
let escapedEnd = 0;

/**
 * The index of the quote closing the string that opens at `quote`, or INVALID when the string is not valid JSON or
 * not as JSON.stringify writes it (`plain`: the line has no NEEDS_WALK character). A string with an escape or a
 * surrogate is checked against its re-serialised form and answered ESCAPED (its end in `escapedEnd`), so a key with
 * one can be compared by what it stands for.
 */
function stringEnd(text: string, quote: number, plain: boolean): number {
  if (plain) return text.indexOf('"', quote + 1);
  const n = text.length;
  let end = quote + 1;
  let check = false;
  // A line with any of NEEDS_WALK: walked character by character, stepping over each escape.
  for (;;) {
    if (end >= n) return INVALID;
    const d = text.charCodeAt(end);
    if (d === 0x22) break;
    if (d === 0x5c) {
      check = true;
      end += 2;
    } else {
      if (d < 0x20) return INVALID; // a raw control character: not JSON
      if (d >= 0xd800 && d <= 0xdfff) check = true; // a lone one is written escaped
      end += 1;
    }
  }
  if (!check) return end;
  const token = text.slice(quote, end + 1);
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    return INVALID;
  }
  if (JSON.stringify(value) !== token) return INVALID;
  escapedEnd = end;
  return ESCAPED;
}

/** The slow answer, for the shapes the scan does not follow in place; places in the line are then unknown. */
function reserialisedMatches(text: string, span: ValueSpan | undefined): boolean {
  if (span) span.from = span.to = -1;
  try {
    return canonicalJson(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

/** The index in `members` of the key text[quote+1..end), -1 when it is none of them. */
function memberIndex(text: string, quote: number, end: number, members: readonly string[]): number {
  const length = end - quote - 1;
  for (let k = 0; k < members.length; k += 1) if (members[k].length === length && text.startsWith(members[k], quote + 1)) return k;
  return -1;
}

function noteChainKey(text: string, quote: number, end: number, chainKeys: ChainKeyPositions): void {
  const length = end - quote - 1;
  if (length === 4 && text.startsWith('hash', quote + 1)) chainKeys.hash = quote;
  else if (length === 9 && text.startsWith('signature', quote + 1)) chainKeys.signature = quote;
}

/** Whether text[a..aEnd) sorts strictly before text[b..bEnd), by UTF-16 code units as `<` compares strings. */
function spanBefore(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  for (; a < aEnd && b < bEnd; a += 1, b += 1) {
    const x = text.charCodeAt(a);
    const y = text.charCodeAt(b);
    if (x !== y) return x < y;
  }
  return a === aEnd && b < bEnd;
}
