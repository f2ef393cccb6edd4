import { modelsOf } from './traceReader';
import type { AgentTraceRecord } from './traceRecord';

/** Column widths of the fixed columns; the last column (files) takes the rest of the line. */
const WIDTHS = [6, 21, 18, 16, 22, 9];

/** The header row of the trace table, shared by `governor trace` and the editor's trace view. */
export const TRACE_TABLE_HEADER = ['LINE', 'TIME', 'INTENT', 'AGENT', 'MODEL', 'DECISION', 'FILES (changed lines)'];

/** One table row as fixed-width text. */
export function formatTraceRow(cells: string[]): string {
  return cells.map((cell, i) => (i < WIDTHS.length ? fit(cell, WIDTHS[i]) : cell)).join(' ');
}

/** The cells for one record: line, time, intent, agent, models, decision, and each file with its changed lines. */
export function traceRowCells(line: number, record: AgentTraceRecord): string[] {
  const meta = record.metadata ?? {};
  const files = (record.files ?? []).map((file) => {
    const ranges = file.conversations.flatMap((c) => c.ranges).map((r) => (r.start_line === r.end_line ? `${r.start_line}` : `${r.start_line}-${r.end_line}`));
    const change = meta.files?.find((f) => f.path === file.path)?.change;
    return change === 'deleted' ? `${file.path} (deleted)` : ranges.length ? `${file.path}:${ranges.join(',')}` : file.path;
  });
  const kind = meta.kind && meta.kind !== 'mutation' ? `(${meta.kind})` : '';
  return [
    String(line),
    (record.timestamp ?? '').replace(/\.\d+Z$/, 'Z'),
    meta.intent_id ?? kind,
    meta.agent ?? '',
    modelsOf(record).join(',') || '-',
    meta.decision ?? '',
    files.join(' ') || '-',
  ];
}

function fit(text: string, width: number): string {
  return text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text.padEnd(width - 1);
}
