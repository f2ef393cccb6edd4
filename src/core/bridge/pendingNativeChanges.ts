import type { PlannedPlaceholders } from '../sandbox/placeholders';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ApprovalDecision } from '../approval/approver';
import { readRegularFileSync } from '../io/regularFile';
import { SpareFiles } from '../io/spareFiles';
import { errnoOf } from '../ioError';
import { contentHash } from '../contentHash';
import { currentProcess, localProcessGone } from '../io/processIdentity';
import type { AgentInfo } from '../trace/traceSink';
import { pendingDir } from '../trace/writeAheadJournal';

/**
 * An agent's native change between its PreToolUse and its PostToolUse, on disk: the pre phase of an allowed
 * write or edit leaves one in `.orchestration/pending/` (beside the write-ahead journal's entries) before it
 * answers, the post phase completes it, and when the post never comes (the editor closed, the agent was killed,
 * the hook timed out) a later governor compares each file with its before hash and records what changed.
 *
 * Names, one invocation `<id>` (a hash of its key):
 *   native.<id>.json                     the entry (who, what, the before hashes), renamed into place whole
 *   native.<id>.before                   the before-contents, when there are any, for the ranges of the record
 *   native.<id>.snapshot                 a confined shell command's snapshot of its writable roots (its entry has `command`)
 *   native.<id>.claimed.<pid>.<start>    the entry, taken by one process to record it (rename: only one wins)
 *   native.<id>.done                     recorded by a reconciliation: the after hashes, so a late post adds no second record
 *   native.<id>.posted                   its post came before the files held the change (no `done` marker is needed)
 * A claim whose process died is taken over by the next reconciliation.
 */
export interface PendingNativeFile {
  /** The call's index in the invocation: its record's invocation id is `<key>#<index>`. */
  index: number;
  /** run_command: a file a confined command changed, found by its snapshot (never stored in an entry's files). */
  tool: 'write_file' | 'edit_file' | 'run_command';
  /** Workspace-relative, as the canonicaliser placed it. */
  path: string;
  /** `sha256:` of the bytes before the tool ran; null: there was no file. */
  before_hash: string | null;
  /** The file's stat before it was read: while size, mtime and inode are the same, it has not changed. */
  before_stat?: { size: number; mtime_ms: number; ino: number };
}

export interface PendingNativeChange {
  kind: 'native-change';
  key: string;
  session_id: string;
  agent: AgentInfo;
  intent_id?: string;
  /** The intent's owned_scope at PreToolUse, recorded with a reconciled change (`governor check` judges by it). */
  intent_scope?: string[];
  /** The agent's own tool (`Write`, `create_file`). */
  native_tool?: string;
  files: PendingNativeFile[];
  /** An agent's own shell command the bridge rewrote to run confined: its changes are found against the snapshot. */
  command?: PendingCommand;
  approval?: ApprovalDecision;
  /** Whether `native.<id>.before` holds before-contents. */
  before_kept: boolean;
  pid: number;
  pid_start: number;
  host: string;
  /** The process outlives its calls (the extension, `governor mcp`): the post comes back to it while it runs. */
  resident: boolean;
  started: string;
}

/** What the post (or a reconciliation) of a confined shell command needs besides the snapshot. */
export interface PendingCommand {
  /** The call's index in the invocation, its record's invocation id (the pre's), and the command before the rewrite. */
  index: number;
  invocation_id: string;
  command: string;
  /** Workspace-relative folder it runs in. */
  cwd: string;
  /** The writable roots, workspace-relative: the snapshot covers these. */
  roots: Array<{ rel: string; abs: string; file: boolean }>;
  owned_scope: string[];
  case_insensitive: boolean;
  /** Removed once the command's changes are recorded: its private temp folder, and scope folders made for it. */
  temp_dir: string;
  created: string[];
  /** The read-only mount points bubblewrap makes for protected names not there yet: removed before the after-check. */
  placeholders?: PlannedPlaceholders;
  /** When its snapshot was taken (ms since the epoch): a protected path born before it is never the command's. */
  planned_at?: number;
}

export type PendingNativeInput = Omit<PendingNativeChange, 'kind' | 'before_kept' | 'pid' | 'pid_start' | 'host' | 'resident' | 'started'>;

/** An entry one process now holds: record it, then `release` (or `markRecorded`, for a reconciliation). */
export interface HeldEntry {
  id: string;
  entry: PendingNativeChange;
  /** Workspace-relative path → content before. */
  before: Record<string, string>;
  /** A confined command's snapshot as stored (undefined: none, or unreadable). */
  snapshot?: unknown;
}

/** What a post finds of its invocation. */
export type Completion =
  | { kind: 'held'; held: HeldEntry }
  /** A reconciliation recorded it already: path → the after hash it recorded (null: the file was gone). */
  | { kind: 'recorded'; after: Record<string, string | null> }
  | { kind: 'none' };

/** One pending invocation as a listing shows it. */
export interface PendingListing {
  id: string;
  entry: boolean;
  /** Claims by processes that are gone (this host): their holder stopped between claiming and releasing. */
  deadClaims: string[];
  liveClaim: boolean;
  done: boolean;
  /** Its post came before its files held the change (putBackPosted). */
  posted: boolean;
}

const PREFIX = 'native.';
/** A temp file this old belongs to a writer that died between writing it and renaming it. */
const TORN_AGE_MS = 60_000;
/** A `done` marker is kept this long for a post that may still come. */
const DONE_KEEP_MS = 60 * 60_000;
/** An entry names a few files and ids; anything larger is not one of ours. */
const MAX_ENTRY_BYTES = 256 * 1024;
/** Before-contents are kept up to 2 MiB per file by the bridge. */
const MAX_BEFORE_BYTES = 64 * 1024 * 1024;
/** Files larger than this are not hashed by a reconciliation: left as they are. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
/** How long a post waits for another process that holds its entry (a reconciliation recording it, usually for milliseconds). */
const HELD_WAIT_MS = 10_000;

/** Names this process's temp files apart from any other's (random once: a random name per write cost more than the write). */
const TEMP_TAG = `${process.pid}-${randomBytes(4).toString('hex')}`;
let tempCount = 0;
/** A resident's spare files (keepSpares): `spare.<pid>.<start>.<n>.tmp`, removed with their process. */
const SPARE_PREFIX = 'spare.';
/** An entry, its before-contents and its command's snapshot: the most files one pre publishes. */
const SPARES = 3;

export function isNativePendingName(name: string): boolean {
  return name.startsWith(PREFIX);
}

export class PendingNativeChanges {
  readonly dir: string;
  private spares: SpareFiles | undefined;

  constructor(
    readonly root: string,
    private readonly options: { resident: boolean },
  ) {
    this.dir = pendingDir(root);
  }

  idOf(key: string): string {
    return createHash('sha256').update(key).digest('hex').slice(0, 32);
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  /**
   * Leaves the entry on disk before the pre phase answers: synchronous, one small file (two with before-contents).
   * `idKey`: the call's key as posts name it, when the entry holds it in its journal form (a redacted session).
   */
  begin(input: PendingNativeInput, before: Record<string, string>, snapshot?: unknown, idKey: string = input.key): void {
    const id = this.idOf(idKey);
    const me = currentProcess();
    const keep = Object.keys(before).length > 0;
    const entry: PendingNativeChange = { kind: 'native-change', ...input, before_kept: keep, pid: me.pid, pid_start: me.start, host: me.host, resident: this.options.resident, started: new Date().toISOString() };
    // An earlier invocation with the same key (agents without tool ids key by input) was reconciled: its marker goes.
    const done = this.path(`${PREFIX}${id}.done`);
    if (existsSync(done)) removeIfThere(done); // asked first: an unlink's ENOENT, thrown and caught, costs more
    if (keep) this.publish(`${PREFIX}${id}.before`, JSON.stringify(before));
    if (snapshot !== undefined) this.publish(`${PREFIX}${id}.snapshot`, JSON.stringify(snapshot));
    this.publish(`${PREFIX}${id}.json`, JSON.stringify(entry));
  }

  /**
   * For a process that outlives its calls (a resident governor): entries are published through spare files made
   * ahead of need, so a pre does not create a file while the agent waits. `stop` removes them.
   */
  keepSpares(): { stop(): void } {
    const me = currentProcess();
    let count = 0;
    const spares = new SpareFiles(() => this.path(`${SPARE_PREFIX}${me.pid}.${me.start}.${(count += 1)}.tmp`), SPARES);
    this.spares = spares;
    return {
      stop: () => {
        if (this.spares === spares) this.spares = undefined;
        spares.dispose();
      },
    };
  }

  /** Written aside and renamed into place: an entry is always whole. */
  private publish(name: string, text: string): void {
    if (this.spares?.publish(this.path(name), text)) return;
    const write = () => {
      const temp = this.path(`${name}.${TEMP_TAG}.${(tempCount += 1)}.tmp`);
      writeFileSync(temp, text, { flag: 'wx', mode: 0o600 });
      renameSync(temp, this.path(name));
    };
    try {
      write();
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
      mkdirSync(this.dir, { recursive: true });
      // Machine state, never part of a commit (the write-ahead journal writes the same).
      writeFileSync(this.path('.gitignore'), '*\n');
      write();
    }
  }

  /**
   * The post phase takes its invocation's entry, so no reconciliation records the change as well. When a
   * reconciliation holds it right now, the post waits for it (briefly) and learns what it recorded.
   */
  async complete(key: string): Promise<Completion> {
    const id = this.idOf(key);
    const held = this.claim(id, `${PREFIX}${id}.json`);
    if (held) return { kind: 'held', held };
    const deadline = Date.now() + HELD_WAIT_MS;
    while (this.list(id)[0]?.liveClaim && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const done = readJson<{ after: Record<string, string | null> }>(this.path(`${PREFIX}${id}.done`), MAX_ENTRY_BYTES);
    return done && typeof done.after === 'object' && done.after !== null ? { kind: 'recorded', after: done.after } : { kind: 'none' };
  }

  /** Takes an entry (or a dead process's claim on one) by renaming it to this process's claim. */
  claim(id: string, from: string): HeldEntry | undefined {
    const me = currentProcess();
    const claimed = this.path(`${PREFIX}${id}.claimed.${me.pid}.${me.start}`);
    try {
      renameSync(this.path(from), claimed);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined; // someone else took it
      throw error;
    }
    const entry = readJson<PendingNativeChange>(claimed, MAX_ENTRY_BYTES);
    if (!entry || entry.kind !== 'native-change' || typeof entry.key !== 'string' || !Array.isArray(entry.files) || this.idOf(entry.key) !== id) {
      this.release(id); // not one of ours, or torn: nothing can be recorded from it
      return undefined;
    }
    const before = entry.before_kept ? (readJson<Record<string, string>>(this.path(`${PREFIX}${id}.before`), MAX_BEFORE_BYTES) ?? {}) : {};
    const snapshot = entry.command ? this.snapshotOf(id) : undefined;
    return { id, entry: { ...entry, files: entry.files.filter(validFile) }, before, ...(snapshot !== undefined ? { snapshot } : {}) };
  }

  /** The entry is recorded (or needs no record): its files go. */
  release(id: string): void {
    const me = currentProcess();
    removeIfThere(this.path(`${PREFIX}${id}.posted`));
    removeIfThere(this.path(`${PREFIX}${id}.before`));
    removeIfThere(this.path(`${PREFIX}${id}.snapshot`));
    removeIfThere(this.path(`${PREFIX}${id}.claimed.${me.pid}.${me.start}`));
  }

  /** Gives a held entry back (its record could not be written): the next reconciliation takes it again. */
  putBack(id: string): void {
    const me = currentProcess();
    try {
      renameSync(this.path(`${PREFIX}${id}.claimed.${me.pid}.${me.start}`), this.path(`${PREFIX}${id}.json`));
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
  }

  /**
   * Gives a held entry back because its post came before the files held the change (VS Code's agent saves what
   * create_file and replace_string_in_file produce after their PostToolUse): a reconciliation records it once
   * they do, and says so.
   */
  putBackPosted(id: string): void {
    writeFileSync(this.path(`${PREFIX}${id}.posted`), '', { mode: 0o600 });
    this.putBack(id);
  }

  /** Whether the entry's post came before its files held the change (putBackPosted). */
  wasPosted(id: string): boolean {
    return existsSync(this.path(`${PREFIX}${id}.posted`));
  }

  /**
   * A reconciliation recorded the entry: a post that still comes finds the after hashes and adds no second record.
   * An entry whose post came already (putBackPosted) expects no other, so it leaves no marker.
   */
  markRecorded(id: string, after: Record<string, string | null>): void {
    if (!this.wasPosted(id)) this.publish(`${PREFIX}${id}.done`, JSON.stringify({ after, at: new Date().toISOString() }));
    this.release(id);
  }

  /** Reads an entry without taking it (a reconciliation deciding whether it is due). */
  peek(id: string): PendingNativeChange | undefined {
    const entry = readJson<PendingNativeChange>(this.path(`${PREFIX}${id}.json`), MAX_ENTRY_BYTES);
    return entry && entry.kind === 'native-change' && Array.isArray(entry.files) ? { ...entry, files: entry.files.filter(validFile) } : undefined;
  }

  /** A confined command's stored snapshot, read without taking its entry; undefined when there is none. */
  snapshotOf(id: string): unknown {
    return readJson<unknown>(this.path(`${PREFIX}${id}.snapshot`), MAX_BEFORE_BYTES);
  }

  /** Milliseconds since the entry was written; undefined when it is gone. */
  ageOf(id: string, now = Date.now()): number | undefined {
    const info = statSync(this.path(`${PREFIX}${id}.json`), { throwIfNoEntry: false });
    return info ? now - info.mtimeMs : undefined;
  }

  /**
   * The pending invocations (one directory listing; `only` narrows it to one id). Also sweeps what a dead writer
   * left half-written and `done` markers past their use.
   */
  list(only?: string): PendingListing[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const me = currentProcess();
    const own = `${me.pid}.${me.start}`;
    const byId = new Map<string, PendingListing>();
    const orphanedBefore: string[] = []; // names of .before, .snapshot and .posted files
    const posted = new Set<string>();
    const at = (id: string) => {
      let listing = byId.get(id);
      if (!listing) byId.set(id, (listing = { id, entry: false, deadClaims: [], liveClaim: false, done: false, posted: false }));
      return listing;
    };
    for (const name of names) {
      if (name.startsWith(SPARE_PREFIX)) {
        const [, pid, start] = name.split('.');
        // Empty, and nothing writes one once its process is gone. This process's own are not probed (every hook call lists).
        if (`${pid}.${start}` !== own && localProcessGone(Number(pid), Number(start))) removeIfThere(this.path(name));
        continue;
      }
      if (!name.startsWith(PREFIX)) continue;
      const [, id, kind, pid, start] = name.split('.');
      if (!id || (only !== undefined && id !== only)) continue;
      if (name.endsWith('.tmp')) {
        sweepOlderThan(this.path(name), TORN_AGE_MS);
      } else if (kind === 'json' && name === `${PREFIX}${id}.json`) {
        at(id).entry = true;
      } else if (kind === 'claimed') {
        // Claims are only ever made on this host (the entry's directory is the workspace's); a pid that is gone is a dead holder.
        if (localProcessGone(Number(pid), Number(start))) at(id).deadClaims.push(name);
        else at(id).liveClaim = true;
      } else if (kind === 'done') {
        if (sweepOlderThan(this.path(name), DONE_KEEP_MS)) continue;
        at(id).done = true;
      } else if (kind === 'before' || kind === 'snapshot' || kind === 'posted') {
        orphanedBefore.push(name);
        if (kind === 'posted') posted.add(id);
      }
    }
    for (const id of posted) {
      const listing = byId.get(id);
      if (listing) listing.posted = true;
    }
    // Before-contents whose entry never got written (its writer died in between) or was released by a holder that died.
    for (const name of orphanedBefore) {
      const listing = byId.get(name.split('.')[1]);
      if (!listing || (!listing.entry && !listing.liveClaim && listing.deadClaims.length === 0)) sweepOlderThan(this.path(name), TORN_AGE_MS);
    }
    return [...byId.values()].filter((listing) => listing.entry || listing.liveClaim || listing.deadClaims.length > 0 || listing.done);
  }

  /** Drops an entry that needs no record (nothing changed): taken first, so a post that comes now still records. */
  drop(id: string): boolean {
    const held = this.claim(id, `${PREFIX}${id}.json`);
    if (!held) return false;
    this.release(id);
    return true;
  }

  /** Where each of the entry's files stands now, compared with its before hash. */
  fileState(file: PendingNativeFile): FileState {
    const abs = join(this.root, file.path);
    const info = lstatSync(abs, { throwIfNoEntry: false });
    if (!info) return file.before_hash === null ? { kind: 'unchanged' } : { kind: 'changed', bytes: undefined, hash: null, mtimeMs: 0 };
    if (!info.isFile()) return { kind: 'unreadable' };
    const stat = file.before_stat;
    if (file.before_hash !== null && stat && info.size === stat.size && info.mtimeMs === stat.mtime_ms && info.ino === stat.ino) return { kind: 'unchanged' };
    // Non-blocking and regular files only: whatever was put at the path, the hook call answers promptly.
    const read = readRegularFileSync(abs, { maxBytes: MAX_HASHED_BYTES, noFollow: true });
    if (!read.ok) return read.problem.kind === 'missing' ? (file.before_hash === null ? { kind: 'unchanged' } : { kind: 'changed', bytes: undefined, hash: null, mtimeMs: 0 }) : { kind: 'unreadable' };
    const hash = contentHash(read.bytes);
    return hash === file.before_hash ? { kind: 'unchanged' } : { kind: 'changed', bytes: read.bytes, hash, mtimeMs: read.stats.mtimeMs };
  }
}

/** `changed`: the bytes now (undefined: the file is gone), their hash, and when it was written (0: gone, not known). */
export type FileState = { kind: 'unchanged' } | { kind: 'unreadable' } | { kind: 'changed'; bytes: Buffer | undefined; hash: string | null; mtimeMs: number };

/** A file an entry may name: inside the workspace, relative, no `..`. */
function validFile(file: PendingNativeFile): boolean {
  return (
    typeof file === 'object' &&
    file !== null &&
    typeof file.path === 'string' &&
    file.path !== '' &&
    !isAbsolute(file.path) &&
    !file.path.split(/[\\/]/).includes('..') &&
    Number.isInteger(file.index) &&
    (file.tool === 'write_file' || file.tool === 'edit_file') &&
    (file.before_hash === null || typeof file.before_hash === 'string')
  );
}

function readJson<T>(path: string, maxBytes: number): T | undefined {
  const read = readRegularFileSync(path, { maxBytes, noFollow: true });
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.bytes.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
}

/** Removes the file when it is older than `ms`; true when it did. */
function sweepOlderThan(path: string, ms: number): boolean {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info || Date.now() - info.mtimeMs <= ms) return false;
  removeIfThere(path);
  return true;
}
