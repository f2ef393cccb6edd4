import type { CallWindows, WatchedCall } from './callWindows';

/** `metadata.kind` of a trace record for a change on disk no governed call explains. */
export const UNGOVERNED_KIND = 'ungoverned';
/** The governance record's code for a human's acceptance of an ungoverned record (its `record_id`). */
export const UNGOVERNED_ACCEPTED = 'UNGOVERNED_ACCEPTED';

/** What the governor last knew of a file: its hash (null: no file), its text when kept, and where that came from. */
export interface KnownContent {
  hash: string | null;
  text?: string;
  from: 'recorded' | 'pending' | 'read' | 'git' | 'none';
}

/** `metadata.ungoverned` of the record: the call that was open, and (no files) why the window went unwatched. */
export interface UngovernedNote {
  call: { tool: string; call_id: string };
  /** What the before hash is: the governor's record, a pending entry, the session's read, git HEAD, or nothing. */
  before_from?: KnownContent['from'];
  /** The watcher could not watch this call's window: changes in it may be on disk unrecorded. */
  unwatched?: string;
  /** More paths changed in one burst than are hashed: how many were left unhashed. */
  unhashed?: number;
}

/**
 * Paths whose changes say nothing about an agent: the governor's own files (its logs, pending entries, locks, temp
 * files) and git's, at any depth (a nested repository, a submodule).
 */
export function isWatchedPath(rel: string): boolean {
  if (rel === '' || rel.startsWith('../') || rel.startsWith('/')) return false;
  const segments = rel.split('/');
  return !segments.some((segment) => segment === '.git') && segments[0] !== '.orchestration';
}

export type ChangeVerdict =
  | { kind: 'ignored' }
  | { kind: 'explained'; by: WatchedCall }
  | { kind: 'unchanged' }
  /** No call was open when it was seen: a person's edit, a formatter, a checkout. */
  | { kind: 'outside' }
  | { kind: 'ungoverned'; call: WatchedCall };

/**
 * Whether a change seen at `at` is ungoverned: watched, made while a call was open, not that call's (or any open
 * call's) own target, and not what the governor already knows the file holds.
 */
export function judgeChange(rel: string, at: number, current: string | null, known: KnownContent, windows: CallWindows): ChangeVerdict {
  if (!isWatchedPath(rel)) return { kind: 'ignored' };
  const by = windows.explainedBy(rel, at);
  if (by) return { kind: 'explained', by };
  if (current === known.hash) return { kind: 'unchanged' };
  const call = windows.attribute(at);
  return call ? { kind: 'ungoverned', call } : { kind: 'outside' };
}

/**
 * A burst of file events as the distinct paths they name, each with the moment it was first seen; past `maxPaths`
 * further paths are only counted (the batch says how many went unhashed, never hashes a huge tree).
 */
export class EventBatch {
  private paths = new Map<string, number>();
  /** Distinct paths past the bound, themselves bounded: a count is all a record says of them. */
  private dropped = new Set<string>();

  constructor(private readonly maxPaths: number) {}

  add(rel: string, at: number): void {
    if (this.paths.has(rel)) return;
    if (this.paths.size < this.maxPaths) this.paths.set(rel, at);
    else if (this.dropped.size < 100 * this.maxPaths) this.dropped.add(rel);
  }

  get size(): number {
    return this.paths.size + this.dropped.size;
  }

  take(): { paths: Array<[string, number]>; dropped: number } {
    const taken = { paths: [...this.paths], dropped: this.dropped.size };
    this.paths = new Map();
    this.dropped = new Set();
    return taken;
  }
}

/** An ungoverned record as `governor check` judges it. */
export interface UngovernedRecord {
  line: number;
  id: string;
  session_id?: string;
  tool?: string;
  call_id?: string;
  unwatched?: string;
  files: Array<{ path: string; before_hash?: string; after_hash?: string; change?: string }>;
}

/**
 * The ungoverned records still open: not accepted (a governance record UNGOVERNED_ACCEPTED naming it) and not
 * reverted (every file back to its before hash; `currentHash` says what a path holds now, null for no file).
 */
export function openUngoverned(records: readonly UngovernedRecord[], accepted: ReadonlySet<string>, currentHash: (path: string) => string | null): UngovernedRecord[] {
  return records.filter((record) => {
    if (accepted.has(record.id)) return false;
    if (record.unwatched !== undefined || record.files.length === 0) return true;
    return record.files.some((file) => currentHash(file.path) !== (file.before_hash ?? null));
  });
}

/** A trace record's line as an ungoverned record, or undefined when it is another kind. */
export function ungovernedRecordOf(line: number, record: unknown): UngovernedRecord | undefined {
  const value = record as { id?: unknown; metadata?: Record<string, unknown> } | undefined;
  const meta = value?.metadata;
  if (!meta || meta.kind !== UNGOVERNED_KIND || typeof value.id !== 'string') return undefined;
  const note = (meta.ungoverned ?? {}) as Partial<UngovernedNote>;
  const files = Array.isArray(meta.files) ? (meta.files as UngovernedRecord['files']).filter((f) => typeof f?.path === 'string') : [];
  return {
    line,
    id: value.id,
    session_id: typeof meta.session_id === 'string' ? meta.session_id : undefined,
    tool: typeof note.call?.tool === 'string' ? note.call.tool : undefined,
    call_id: typeof note.call?.call_id === 'string' ? note.call.call_id : undefined,
    unwatched: typeof note.unwatched === 'string' ? note.unwatched : undefined,
    files,
  };
}

/** The record ids a governance log line accepts (UNGOVERNED_ACCEPTED), if any. */
export function acceptedRecordOf(record: unknown): string | undefined {
  const value = record as Record<string, unknown> | undefined;
  return value?.kind === 'governance' && value.code === UNGOVERNED_ACCEPTED && typeof value.record_id === 'string' ? value.record_id : undefined;
}
