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
    picked[members[found[k]]] = text.charCodeAt(from) === 0x22 ? text.slice(from + 1, to - 1) : JSON.parse(text.slice(from, to));
  }
  return picked;
}
