/** A benchmark's result: printed as an aligned table, ratios computed against a baseline row of the same run. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchTable[]>;
}

function cell(value: string | number): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return value;
}

export function formatTable(table: BenchTable): string {
  const rows = [table.columns, ...table.rows.map((r) => r.map(cell))];
  const widths = table.columns.map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => `| ${r.map((v, i) => String(v ?? '').padEnd(widths[i])).join(' | ')} |`;
  const sep = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const out = [`\n### ${table.title}\n`, line(rows[0]), sep, ...rows.slice(1).map(line)];
  for (const note of table.notes ?? []) out.push(`\n${note}`);
  return `${out.join('\n')}\n`;
}

/** Sorted-sample percentile (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Milliseconds since an hrtime mark, as a float. */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
