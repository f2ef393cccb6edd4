import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../contentHash';
import { readTrace } from '../trace/traceReader';
import { governanceLogPath, traceFilePath } from '../trace/traceFiles';
import { acceptedRecordOf, openUngoverned, ungovernedRecordOf, type UngovernedRecord } from './ungovernedChanges';

export interface UngovernedAudit {
  /** Every ungoverned record in the trace. */
  records: UngovernedRecord[];
  /** Those neither accepted by a person nor reverted on disk: `governor check` fails on each. */
  open: UngovernedRecord[];
  accepted: Set<string>;
}

/** The trace's ungoverned records, and which of them are still open in the workspace at `root`. */
export async function auditUngoverned(root: string): Promise<UngovernedAudit> {
  const records: UngovernedRecord[] = [];
  await eachRecord(traceFilePath(root), (line, record) => {
    const found = ungovernedRecordOf(line, record);
    if (found) records.push(found);
  });
  const accepted = new Set<string>();
  if (records.length) {
    await eachRecord(governanceLogPath(root), (_line, record) => {
      const id = acceptedRecordOf(record);
      if (id !== undefined) accepted.add(id);
    });
  }
  return { records, accepted, open: openUngoverned(records, accepted, (path) => hashOnDisk(join(root, path))) };
}

/** Each record of a log; a log not there yet holds none. */
async function eachRecord(file: string, take: (line: number, record: unknown) => void): Promise<void> {
  try {
    for await (const { line, record } of readTrace(file)) if (record) take(line, record);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function hashOnDisk(file: string): string | null {
  try {
    return contentHash(readFileSync(file));
  } catch {
    return null;
  }
}

/** One line per open record: what changed, during which call of which session, and how to clear it. */
export function describeUngoverned(record: UngovernedRecord): string {
  const during = `during ${record.tool ?? 'a call'} (${record.call_id ?? '?'}) of session ${record.session_id ?? '?'}`;
  const what = record.unwatched !== undefined ? `the workspace went unwatched ${during}: ${record.unwatched}` : `${record.files.map((f) => f.path).join(', ')} changed ${during} and no governed call explains it`;
  return `trace line ${record.line} (record ${record.id}): ${what}`;
}
