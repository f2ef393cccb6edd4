import { join } from 'node:path';
import { TRACE_FILE } from '../../core/trace/traceFiles';
import { queryTrace } from '../../core/trace/traceReader';
import { TRACE_BLOCK_HEADER, traceBlockLines } from '../../core/trace/traceTable';

/** Rows kept in the view; a longer trace shows its newest records and says how many were left out. */
export const MAX_TRACE_VIEW_ROWS = 5000;

/**
 * The trace as `governor trace` lists it (intent, agent, model, decision and each file's changed lines), laid out
 * for an editor beside the chat: a narrow row per record with its model and files below it. Streams the file,
 * keeping only the newest records, so a huge trace stays cheap.
 */
export async function traceViewText(root: string): Promise<string> {
  const rows: string[][] = [];
  let total = 0;
  for await (const { line, record } of queryTrace(join(root, TRACE_FILE))) {
    total += 1;
    rows.push(traceBlockLines(line, record));
    // Trimmed in batches so a 100k-record trace does not shift the array once per record.
    if (rows.length >= 2 * MAX_TRACE_VIEW_ROWS) rows.splice(0, rows.length - MAX_TRACE_VIEW_ROWS);
  }
  if (rows.length > MAX_TRACE_VIEW_ROWS) rows.splice(0, rows.length - MAX_TRACE_VIEW_ROWS);
  const omitted = total - rows.length;
  const title = `Agent Trace: ${TRACE_FILE} (${total} record${total === 1 ? '' : 's'}${omitted ? `, oldest ${omitted} not shown` : ''})`;
  const empty = total === 0 ? ['', 'No records yet: every change an agent makes through Intent Governor adds one.'] : [];
  return [title, '', ...TRACE_BLOCK_HEADER, ...rows.flat(), ...empty, ''].join('\n');
}
