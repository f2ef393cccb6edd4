import { canonicalJson } from './traceChain';

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
 * JSON.stringify writes them. One pass that jumps over string contents, so verify can ask it of every line
 * (a few µs for a 1.5 KB record, where re-serialising costs several times that). The rare line with an
 * escaped key or deeper nesting is compared with its re-serialised form instead.
 */
export function isCanonicalJsonText(text: string): boolean {
  let depth = -1;
  let backslash = text.indexOf('\\');
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its closing quote is one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (text.charCodeAt(end - 1) === 0x5c && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      while (backslash >= 0 && backslash < i) backslash = text.indexOf('\\', backslash + 1);
      const hasEscape = backslash >= 0 && backslash < end;
      if (hasEscape) {
        const token = text.slice(i, end + 1);
        if (JSON.stringify(JSON.parse(token)) !== token) return false;
      }
      if (text.charCodeAt(end + 1) === 0x3a) {
        if (depth < 0 || keyStart[depth] === IN_ARRAY) return false;
        if (hasEscape) return canonicalJson(JSON.parse(text)) === text;
        if (keyStart[depth] !== NO_KEY && !spanBefore(text, keyStart[depth], keyEnd[depth], i + 1, end)) return false;
        keyStart[depth] = i + 1;
        keyEnd[depth] = end;
      }
      i = end + 1;
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
      for (let d = end < n ? text.charCodeAt(end) : 0; end < n && isNumberChar(d); d = text.charCodeAt(++end)) {
        if (d < 0x30 || d > 0x39) plain = false;
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

/** Whether text[a..aEnd) sorts strictly before text[b..bEnd), by UTF-16 code units as `<` compares strings. */
function spanBefore(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  for (; a < aEnd && b < bEnd; a += 1, b += 1) {
    const x = text.charCodeAt(a);
    const y = text.charCodeAt(b);
    if (x !== y) return x < y;
  }
  return a === aEnd && b < bEnd;
}

function escaped(text: string, quote: number): boolean {
  let slashes = 0;
  for (let j = quote - 1; text.charCodeAt(j) === 0x5c; j -= 1) slashes += 1;
  return slashes % 2 === 1;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
