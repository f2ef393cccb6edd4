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

/** Each file of a record with its changed lines (`src/a.ts:2-3`), or marked deleted. */
function fileLabels(record: AgentTraceRecord): string[] {
  const meta = record.metadata ?? {};
  return (record.files ?? []).map((file) => {
    const ranges = file.conversations.flatMap((c) => c.ranges).map((r) => (r.start_line === r.end_line ? `${r.start_line}` : `${r.start_line}-${r.end_line}`));
    const change = meta.files?.find((f) => f.path === file.path)?.change;
    return change === 'deleted' ? `${file.path} (deleted)` : ranges.length ? `${file.path}:${ranges.join(',')}` : file.path;
  });
}

/** The cells for one record: line, time, intent, agent, models, decision, and each file with its changed lines. */
export function traceRowCells(line: number, record: AgentTraceRecord): string[] {
  const meta = record.metadata ?? {};
  const kind = meta.kind && meta.kind !== 'mutation' ? `(${meta.kind})` : '';
  return [
    String(line),
    (record.timestamp ?? '').replace(/\.\d+Z$/, 'Z'),
    meta.intent_id ?? kind,
    meta.agent ?? '',
    modelsOf(record).join(',') || '-',
    meta.decision ?? '',
    fileLabels(record).join(' ') || '-',
  ];
}

/** The narrow view's columns (LINE, TIME, INTENT, AGENT, DECISION): at most 70 characters, so the row fits an editor beside the chat. */
const NARROW = [[0, 6], [1, 21], [2, 18], [3, 16], [5, 9]] as const;
const INDENT = ' '.repeat(6);

function narrowRow(cells: readonly string[]): string {
  return NARROW.map(([at, width]) => fit(cells[at] ?? '', width)).join(' ').trimEnd();
}

/**
 * One record in the editor's trace view: the narrow row, then the model and each file on a line of its own under
 * it, so no line runs past the edge of an editor half a window wide (the CLI's one-line rows would, files last).
 */
export function traceBlockLines(line: number, record: AgentTraceRecord): string[] {
  const cells = traceRowCells(line, record);
  const model = cells[4] !== '-' ? [`${INDENT}model ${cells[4]}`] : [];
  return [narrowRow(cells), ...model, ...fileLabels(record).map((file) => `${INDENT}${file}`)];
}

/** The narrow view's header: its row, and what the lines under each record hold. */
export const TRACE_BLOCK_HEADER = [narrowRow(TRACE_TABLE_HEADER), `${INDENT}model, then each file with its changed lines`];

function fit(text: string, width: number): string {
  return text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text.padEnd(width - 1);
}
