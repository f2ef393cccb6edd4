import { readLastLines } from '../io/lastLines';
import { traceFilePath } from '../trace/traceFiles';

/** What a reconciliation or a confined command's record asks of the trace's last records. */
export interface RecentRecord {
  invocationId: string | undefined;
  timestamp: string | undefined;
  files: ReadonlyArray<{ path?: string; after_hash?: string }>;
}

/**
 * The trace's last records within `maxLines` and `maxBytes`, newest first (a caller can stop where they get too
 * old): was this change recorded already, by this invocation or by another? Lines that are not records are skipped.
 */
export function* recentRecords(root: string, maxLines: number, maxBytes: number): Generator<RecentRecord> {
  for (const line of readLastLines(traceFilePath(root), maxLines, maxBytes).reverse()) {
    let record: { timestamp?: string; metadata?: { invocation_id?: string; files?: { path?: string; after_hash?: string }[] } };
    try {
      record = JSON.parse(line.text) as typeof record;
    } catch {
      continue; // not a record
    }
    const id = record.metadata?.invocation_id;
    yield { invocationId: typeof id === 'string' ? id : undefined, timestamp: record.timestamp, files: record.metadata?.files ?? [] };
  }
}
