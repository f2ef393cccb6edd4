import { join } from 'node:path';
import { readLogLines } from './logLines';
import type { BaseComparison } from './baseRecords';
import type { TraceLine } from './traceReader';
import type { AgentTraceRecord, GovernanceRecord } from './traceRecord';

/** A record the branch added to one of the logs, with its line in the head's log. */
export interface AddedRecord<T> {
  line: number;
  record: T;
}

/** Everything the branch added to the two logs since the base: the base's records are already reviewed. */
export interface BranchRecords {
  trace: AddedRecord<AgentTraceRecord>[];
  governance: AddedRecord<GovernanceRecord>[];
  /** Added lines that are not JSON objects (verify names them; a report only counts them). */
  unreadable: number;
}

/**
 * The head's lines the comparison says the branch added, parsed. When git proved the log the base's followed by
 * the branch's, the comparison already holds them; otherwise (a union merge interleaved them) the log is read once.
 */
export async function readAddedLines(root: string, comparison: BaseComparison): Promise<TraceLine[]> {
  const { appended } = comparison;
  if (appended) return appended.tail.map(({ text }, i) => parsed(appended.baseRecords + i + 1, text));
  const wanted = new Set(comparison.added);
  const lines: TraceLine[] = [];
  if (wanted.size === 0) return lines;
  for await (const { text, line, complete } of readLogLines(join(root, comparison.log))) {
    if (!complete) break;
    if (wanted.has(line)) lines.push(parsed(line, text));
  }
  return lines;
}

/** Both logs' added lines as records of their kind; anything else is counted as unreadable. */
export function branchRecords(trace: readonly TraceLine[], governance: readonly TraceLine[]): BranchRecords {
  const out: BranchRecords = { trace: [], governance: [], unreadable: 0 };
  for (const { line, record } of trace) {
    if (record && typeof record.metadata === 'object' && record.metadata !== null) out.trace.push({ line, record });
    else out.unreadable += 1;
  }
  for (const { line, record } of governance) {
    if (record) out.governance.push({ line, record: record as unknown as GovernanceRecord });
    else out.unreadable += 1;
  }
  return out;
}

function parsed(line: number, text: string): TraceLine {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { line, record: value as AgentTraceRecord } : { line, error: 'not a JSON object' };
  } catch {
    return { line, error: 'not valid JSON' };
  }
}
