import { alignEdited, blameCandidates, WindowIndex, type BlameLine } from './traceBlame';
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
 * Lines that drifted: a record touched this file, but one of its ranges is not found whole in the current content
 * (its content hash matches nowhere), so the lines of it, where still unattributed, were changed after the agent
 * wrote them. A range whose lines carry their own hashes is placed where its surviving lines are; one without
 * (older records) at its recorded position, and only when nothing of its record is found. Newest records claim
 * first. Recorded positions are as recorded: edits above such a range shift it, the best a hash-only record allows.
 */
export async function driftedLines(tracePath: string, relPath: string, blame: BlameLine[]): Promise<DriftedLine[]> {
  const found = new Set<string>();
  for (const line of blame) if (line.recordId) found.add(line.recordId);
  const windows = new WindowIndex(blame.map((line) => line.text));
  const candidates: (DriftedLine & { start: number; end: number })[] = [];
  for await (const { line, record } of queryTrace(tracePath, { file: relPath })) {
    const meta = record.metadata ?? {};
    if (meta.files?.find((f) => f.path === relPath)?.change === 'deleted') continue;
    for (const range of blameCandidates(line, record, relPath)) {
      if (windows.find(range.length, range.hash)) continue;
      const aligned = alignEdited(range, windows);
      if (!aligned && found.has(record.id)) continue;
      const start = aligned ? aligned.offset + 1 : range.start + 1;
      candidates.push({
        line: 0,
        start,
        end: start + range.length - 1,
        recordId: record.id,
        intentId: typeof meta.intent_id === 'string' ? meta.intent_id : undefined,
        agent: typeof meta.agent === 'string' ? meta.agent : undefined,
        timestamp: record.timestamp,
      });
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
