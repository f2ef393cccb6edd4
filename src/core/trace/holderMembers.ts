import type { ValueSpan } from './canonicalText';

/**
 * The members the canonical scan found in a span's object (`span.members`, `span.found`), as JSON.parse of the
 * object would give them, for a line the scan proved valid and plain (every string ends at its next quote). Verify
 * reads eight keys of a record's `metadata`; parsing all of it (its file list, hashes and names) was a quarter of a
 * line's check.
 */
export function spanMembers(text: string, span: ValueSpan): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  const { members = [], found = [] } = span;
  for (let k = 0; k < found.length; k += 3) {
    const from = found[k + 1];
    const to = found[k + 2];
    // Parsed even when a string: a slice would keep the whole line alive as long as the hash it holds (verify keeps 100k).
    picked[members[found[k]]] = JSON.parse(text.slice(from, to));
  }
  return picked;
}

/** Where the member `members[index]` the scan found starts (its key's opening quote) and how long it is, key and value. */
export function memberPair(span: ValueSpan, index: number): { at: number; length: number } | undefined {
  const { members = [], found = [] } = span;
  for (let k = 0; k < found.length; k += 3) {
    if (found[k] !== index) continue;
    const at = found[k + 1] - members[index].length - 3; // `"key":`
    return { at, length: found[k + 2] - at };
  }
  return undefined;
}
