import { canonicalJson, type ChainKeyPositions } from './traceChain';

/** Deepest nesting scanned in place; deeper lines (none of ours) are re-serialised instead. */
const MAX_DEPTH = 64;
const NO_KEY = -1;
const IN_ARRAY = -2;
const keyStart = new Int32Array(MAX_DEPTH);
const keyEnd = new Int32Array(MAX_DEPTH);

/**
 * Whether `text`, already known to be valid JSON, is exactly `canonicalJson(JSON.parse(text))`: no whitespace
 * between tokens, the keys of every object in strictly increasing order (so none is repeated: JSON.parse
 * keeps the last, a reader in another language may keep the first), and strings and numbers written as
 * JSON.stringify writes them. One pass over the characters, so verify can ask it of every line (about 3 µs
 * for a 1.5 KB record, where re-serialising costs several times that). The rare line with an
 * escaped key or deeper nesting is compared with its re-serialised form instead.
 * With `chainKeys`, also notes where the last `"hash"` and `"signature"` keys of the two outer levels start,
 * so the chain check finds its pairs without searching the line for them (a hint it confirms, not a verdict).
 */
export function isCanonicalJsonText(text: string, chainKeys?: ChainKeyPositions): boolean {
  let depth = -1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: walked in place (a native search per string costs more than it saves on these short
      // strings), stepping over each escape so an escaped quote never ends it.
      let end = i + 1;
      let hasEscape = false;
      for (;;) {
        if (end >= n) return false;
        const d = text.charCodeAt(end);
        if (d === 0x22) break;
        if (d === 0x5c) {
          hasEscape = true;
          end += 2;
        } else {
          end += 1;
        }
      }
      if (hasEscape) {
        const token = text.slice(i, end + 1);
        if (JSON.stringify(JSON.parse(token)) !== token) return false;
      }
      if (text.charCodeAt(end + 1) === 0x3a) {
        if (depth < 0 || keyStart[depth] === IN_ARRAY) return false;
        if (hasEscape) return canonicalJson(JSON.parse(text)) === text;
        const previous = keyStart[depth];
        if (previous !== NO_KEY && !spanBefore(text, previous, keyEnd[depth], i + 1, end)) return false;
        keyStart[depth] = i + 1;
        keyEnd[depth] = end;
        if (chainKeys && depth <= 1) noteChainKey(text, i, end, chainKeys);
        i = end + 2; // past the colon
      } else {
        i = end + 1;
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth === MAX_DEPTH) return canonicalJson(JSON.parse(text)) === text;
      keyStart[depth] = c === 0x7b ? NO_KEY : IN_ARRAY;
      i += 1;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      i += 1;
    } else if (c === 0x2c || c === 0x3a) {
      i += 1;
    } else if (c === 0x74 || c === 0x6e) {
      i += 4; // true, null
    } else if (c === 0x66) {
      i += 5; // false
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let plain = c !== 0x2d;
      for (; end < n; end += 1) {
        const d = text.charCodeAt(end);
        if (d >= 0x30 && d <= 0x39) continue;
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) plain = false;
        else break;
      }
      // Up to 15 digits, an integer is written as JSON.stringify writes it (JSON itself forbids leading zeros).
      if (!plain || end - i > 15) {
        const token = text.slice(i, end);
        if (JSON.stringify(Number(token)) !== token) return false;
      }
      i = end;
    } else {
      return false; // whitespace, or anything else between tokens
    }
  }
  return true;
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
