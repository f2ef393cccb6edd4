import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../contentHash';
import { readRegularFileSync } from '../io/regularFile';
import { diffSnapshots, snapshotRoots, type SnapshotChange } from '../sandbox/rootSnapshot';
import { removePlaceholders } from '../sandbox/placeholders';
import { undoProtectedCreations, type ProtectedCreation } from '../sandbox/protectedCreations';
import { restoreSnapshot } from '../sandbox/snapshotRecord';
import type { FileChange } from '../trace/traceSink';
import { decodeText } from '../pipeline/callFacts';
import type { FileState, PendingCommand, PendingNativeFile } from './pendingNativeChanges';
import { recentRecords } from './recentRecords';

/** Files larger than this are recorded by hash only (as a reconciliation does for a native write). */
const MAX_READ_BYTES = 64 * 1024 * 1024;
/** More changed files than this (an install into the scope) are not read into the trace one by one. */
export const MAX_TRACED_FILES = 1000;

/** A file a confined command changed, with what it holds now (bytes undefined: gone) and how it changed. */
export interface CommandChange {
  made: SnapshotChange['kind'];
  file: PendingNativeFile;
  state: Extract<FileState, { kind: 'changed' }>;
}

/** What an agent's confined shell command did under its writable roots: its changes, and the protected paths it made (removed). */
export interface CommandOutcome {
  changes: CommandChange[];
  protectedMade: ProtectedCreation[];
}

/**
 * What an agent's confined shell command changed under its writable roots: the snapshot taken before the hook
 * answered against the roots as they are now, once the placeholders are gone and every protected path the command
 * made is removed again. Undefined when the stored snapshot cannot be read (nothing to diff).
 */
export async function commandChanges(root: string, command: PendingCommand, stored: unknown): Promise<CommandOutcome | undefined> {
  const before = restoreSnapshot(stored);
  if (!before) return undefined;
  if (command.placeholders) removePlaceholders(command.placeholders);
  const after = await snapshotRoots(root, command.roots.map((r) => ({ ...r, globs: [] })));
  const protectedMade = typeof command.planned_at === 'number' ? undoProtectedCreations(root, before, after, command.planned_at) : [];
  const changes = diffSnapshots(before, after)
    .slice(0, MAX_TRACED_FILES)
    .map((change) => ({ made: change.kind, file: { index: command.index, tool: 'run_command' as const, path: change.rel, before_hash: null }, state: stateOf(join(root, change.rel)) }));
  return { changes, protectedMade };
}

/** The trace's view of one change: a file that was there before is known only as "there before" (before_unknown). */
export function fileChangeOf(change: CommandChange): FileChange {
  const previous = change.made === 'created' ? {} : { before_unknown: true as const };
  if (change.state.bytes === undefined) return { path: change.file.path, ...previous };
  return { path: change.file.path, ...previous, after: decodeText(change.state.bytes) ?? '' };
}

/** A link is recorded as what it points to, never as the content it reaches (which may lie outside the scope). */
function stateOf(abs: string): CommandChange['state'] {
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  if (!stat) return { kind: 'changed', bytes: undefined, hash: null, mtimeMs: 0 };
  let bytes: Buffer = Buffer.alloc(0);
  if (stat.isSymbolicLink()) bytes = Buffer.from(`symlink -> ${safe(() => readlinkSync(abs), '?')}`);
  else if (stat.isFile()) {
    const read = readRegularFileSync(abs, { maxBytes: MAX_READ_BYTES, noFollow: true });
    if (read.ok) bytes = read.bytes;
  }
  return { kind: 'changed', bytes, hash: contentHash(bytes), mtimeMs: stat.mtimeMs };
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** Trace lines read back to find what another command recorded meanwhile. */
const TAIL_LINES = 256;
const TAIL_BYTES = 1024 * 1024;

/**
 * The changes no other invocation has recorded since `sinceMs`: two confined commands whose roots overlap (a
 * background one still writing while the next runs) both see its files change, and each change is recorded once,
 * by whichever records first.
 */
export function notRecordedElsewhere(root: string, changes: CommandChange[], invocationId: string, sinceMs: number): CommandChange[] {
  const seen = new Set<string>();
  for (const record of recentRecords(root, TAIL_LINES, TAIL_BYTES)) {
    if (record.invocationId === invocationId || Date.parse(record.timestamp ?? '') < sinceMs) continue;
    for (const file of record.files) seen.add(`${file.path}\0${file.after_hash ?? null}`);
  }
  return seen.size === 0 ? changes : changes.filter((c) => !seen.has(`${c.file.path}\0${c.state.hash}`));
}
