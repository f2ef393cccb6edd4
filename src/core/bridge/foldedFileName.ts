import { basename } from 'node:path';
import type { NativeCall } from '../agents/common/nativeCall';

/**
 * A file's last path segment, folded: two spellings of one file (relative, absolute, other case) share it. What a
 * resident compares when it decides whether a call may be judged while another call's change is still being recorded.
 */
export function foldedFileName(path: string): string {
  return basename(path).toLowerCase();
}

/** The folded names of the files `calls` read or write (a command names none it can be held to). */
export function foldedFileNames(calls: readonly NativeCall[]): Set<string> {
  return new Set(calls.flatMap((call) => (call.tool === 'run_command' ? [] : [foldedFileName(call.input.path)])));
}

/**
 * Whether `calls` may be judged while changes to the files named in `recordings` are still being recorded. Such a
 * recording only moves the session's read ledger to what the agent wrote and appends the record, so a call that reads
 * or writes other files is judged the same either way; a call on one of those files, or a command (it may name any
 * file), waits. A file reached through a link under another name is judged against the older basis, which can only
 * refuse (STALE_FILE), never let a change through.
 */
export function independentOfRecordings(calls: readonly NativeCall[], recordings: Iterable<ReadonlySet<string>>): boolean {
  if (calls.some((call) => call.tool === 'run_command')) return false;
  const names = foldedFileNames(calls);
  for (const recording of recordings) for (const name of names) if (recording.has(name)) return false;
  return true;
}
