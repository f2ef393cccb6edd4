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
