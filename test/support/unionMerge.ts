import { strict as assert } from 'node:assert';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import { traceWorkspace, type TraceWorkspace } from './traceFixtures';

/**
 * What git's `merge=union` driver produces when both sides only appended to a file: the common base, then
 * our new lines, then theirs (union keeps both sides of the conflicting hunk, ours first).
 */
export function unionMerge(base: string, ours: string, theirs: string): string {
  assert.ok(ours.startsWith(base) && theirs.startsWith(base), 'both sides must extend the base');
  return base + ours.slice(base.length) + theirs.slice(base.length);
}

/**
 * Two branches of `ws`'s trace: a copy of it in a second workspace takes `theirs`, `ws` itself takes
 * `ours`. Returns the union merge of both; `ws.trace` is left as our branch wrote it.
 */
export async function mergedBranches(ws: TraceWorkspace, ours: (sink: JsonlTraceSink) => Promise<unknown>, theirs: (sink: JsonlTraceSink) => Promise<unknown>): Promise<string> {
  const base = await readFile(ws.trace, 'utf8');
  const other = await traceWorkspace();
  try {
    await mkdir(dirname(other.trace), { recursive: true });
    await copyFile(ws.trace, other.trace);
    const [oursSink, theirsSink] = [ws.sink(), other.sink()];
    await ours(oursSink);
    await theirs(theirsSink);
    await Promise.all([oursSink.close(), theirsSink.close()]);
    return unionMerge(base, await readFile(ws.trace, 'utf8'), await readFile(other.trace, 'utf8'));
  } finally {
    await other.dispose();
  }
}
