import type { BlameLine } from './traceBlame';
import { queryTrace } from './traceReader';

/** A line a trace record changed that no longer holds what the record wrote (someone edited it since). */
export interface DriftedLine {
  line: number;
  recordId: string;
  intentId?: string;
  agent?: string;
  timestamp: string;
}

/**
 * Lines that drifted: a record touched this file, but none of its ranges is found in the current content
 * (its content hashes match nowhere), so the lines at its recorded position, where still unattributed,
 * were changed after the agent wrote them. Newest records claim first. Positions are as recorded: edits
 * above a drifted range shift it, which is the best a hash-only record allows.
 */
export async function driftedLines(tracePath: string, relPath: string, blame: BlameLine[]): Promise<DriftedLine[]> {
  const found = new Set<string>();
  for (const line of blame) if (line.recordId) found.add(line.recordId);
  const candidates: (DriftedLine & { start: number; end: number })[] = [];
  for await (const { record } of queryTrace(tracePath, { file: relPath })) {
    if (found.has(record.id)) continue;
    const meta = record.metadata ?? {};
    const change = meta.files?.find((f) => f.path === relPath)?.change;
    if (change === 'deleted') continue;
    for (const file of record.files ?? []) {
      if (file.path !== relPath) continue;
      for (const range of file.conversations.flatMap((c) => c.ranges ?? [])) {
        if (!range.content_hash) continue;
        candidates.push({
          line: 0,
          start: range.start_line,
          end: range.end_line,
          recordId: record.id,
          intentId: typeof meta.intent_id === 'string' ? meta.intent_id : undefined,
          agent: typeof meta.agent === 'string' ? meta.agent : undefined,
          timestamp: record.timestamp,
        });
      }
    }
  }
  candidates.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  const claimed = new Map<number, DriftedLine>();
  for (const c of candidates) {
    for (let n = Math.max(1, c.start); n <= Math.min(blame.length, c.end); n += 1) {
      if (blame[n - 1]?.recordId || claimed.has(n)) continue;
      claimed.set(n, { line: n, recordId: c.recordId, intentId: c.intentId, agent: c.agent, timestamp: c.timestamp });
    }
  }
  return [...claimed.values()].sort((a, b) => a.line - b.line);
}
