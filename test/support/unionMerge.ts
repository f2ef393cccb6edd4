import { strict as assert } from 'node:assert';

/**
 * What git's `merge=union` driver produces when both sides only appended to a file: the common base, then
 * our new lines, then theirs (union keeps both sides of the conflicting hunk, ours first).
 */
export function unionMerge(base: string, ours: string, theirs: string): string {
  assert.ok(ours.startsWith(base) && theirs.startsWith(base), 'both sides must extend the base');
  return base + ours.slice(base.length) + theirs.slice(base.length);
}
