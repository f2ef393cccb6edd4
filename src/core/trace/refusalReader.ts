import { readLogLines } from './logLines';
import type { GovernanceRecord } from './traceRecord';

/** Which refusals to list: the same filters `governor trace` takes for changes, where a refusal has them. */
export interface RefusalFilter {
  intent?: string;
  agent?: string;
  since?: Date;
  until?: Date;
}

export interface RefusalEntry {
  line: number;
  record: GovernanceRecord;
}

const REFUSALS: ReadonlySet<string> = new Set(['deny', 'reject', 'error']);

/** The governance log's refusals (denied, rejected by a person, failed), oldest first, streamed. */
export async function* queryRefusals(path: string, filter: RefusalFilter = {}): AsyncGenerator<RefusalEntry> {
  const since = filter.since?.getTime();
  const until = filter.until?.getTime();
  for await (const { text, line, complete } of readLogLines(path)) {
    if (!complete) return;
    let record: GovernanceRecord;
    try {
      record = JSON.parse(text) as GovernanceRecord;
    } catch {
      continue; // verify reports a line that is not a record; a listing shows what can be read
    }
    if (record.kind !== 'governance' || !REFUSALS.has(String(record.decision))) continue;
    if (filter.intent !== undefined && record.intent_id !== filter.intent) continue;
    if (filter.agent !== undefined && record.agent?.name !== filter.agent) continue;
    const at = Date.parse(record.timestamp);
    if ((since !== undefined && !(at >= since)) || (until !== undefined && !(at <= until))) continue;
    yield { line, record };
  }
}

const WIDTHS = [6, 21, 9, 22, 16, 18, 14];

/** The header of `governor trace refusals`. */
export const REFUSAL_TABLE_HEADER = ['LINE', 'TIME', 'DECISION', 'CODE', 'AGENT', 'INTENT', 'TOOL', 'WHAT WAS ASKED'];

/** One refusal as a table row: what was asked is the command when there is one, else the paths. */
export function formatRefusalRow(cells: string[]): string {
  return cells.map((cell, i) => (i < WIDTHS.length ? fit(cell, WIDTHS[i]) : cell)).join(' ');
}

export function refusalRowCells({ line, record }: RefusalEntry): string[] {
  const command = typeof record.command === 'string' ? record.command : undefined;
  const asked = command !== undefined ? `$ ${command.replace(/\s+/g, ' ')}` : (record.paths ?? []).join(' ');
  return [String(line), (record.timestamp ?? '').replace(/\.\d+Z$/, 'Z'), record.decision ?? '', record.code ?? '', record.agent?.name ?? '', record.intent_id ?? '-', record.tool_name ?? '', asked || '-'];
}

function fit(text: string, width: number): string {
  return text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text.padEnd(width - 1);
}
