import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { errnoOf } from '../ioError';
import { contentHash } from '../contentHash';
import type { AgentInfo, LandingFile } from './traceSink';
import { currentProcess, localProcessGone } from '../io/processIdentity';

/**
 * Changes whose trace record is written but whose rename has not been confirmed: one small file per change in
 * `.orchestration/pending/`, created before the record is appended and removed once the change landed (or was
 * voided). A file left behind by a process that died says which record to reconcile with the disk.
 */
export interface JournalEntry {
  record_id: string;
  invocation_id: string;
  session_id: string;
  agent: AgentInfo;
  intent_id?: string;
  tool: string;
  files: LandingFile[];
  pid: number;
  /** The writer's start time (clock ticks, Linux), so a reused pid is not taken for the writer. */
  pid_start: number;
  host: string;
  started: string;
}

/** How a dead writer's change ended, judged from what the files hold now. */
export type Reconciled = 'landed' | 'not_landed' | 'unknown';

export function pendingDir(root: string): string {
  return join(root, '.orchestration', 'pending');
}

/** A `.tmp` entry this old belongs to a writer that died between writing it and renaming it (microseconds). */
const TORN_ENTRY_AGE_MS = 60_000;
/** An entry names a few files and ids; anything larger is not one of ours. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** Files larger than this are not hashed during recovery: reported as unknown instead. */
const MAX_RECONCILE_BYTES = 64 * 1024 * 1024;

export class WriteAheadJournal {
  private dirReady = false;

  constructor(private readonly root: string) {}

  /** Writes the entry; returns its file. Synchronous: it runs inside the write lock. */
  begin(entry: Omit<JournalEntry, 'pid' | 'pid_start' | 'host' | 'started'>): string {
    const dir = pendingDir(this.root);
    if (!this.dirReady) this.prepare(dir);
    const file = join(dir, `${entry.record_id.replace(/[^A-Za-z0-9_-]/g, '_')}.${randomBytes(4).toString('hex')}.json`);
    const me = currentProcess();
    const text = JSON.stringify({ ...entry, pid: me.pid, pid_start: me.start, host: me.host, started: new Date().toISOString() } satisfies JournalEntry);
    // Written aside and renamed into place: a `.json` entry is always whole, so a writer killed mid-write
    // leaves only a `.tmp` (its record was never appended), which a later recovery sweeps.
    const publish = () => {
      const temp = `${file}.tmp`;
      writeFileSync(temp, text, { flag: 'wx', mode: 0o600 });
      renameSync(temp, file);
    };
    try {
      publish();
    } catch (error) {
      // The folder went away (git clean): make it again, once.
      if (errnoOf(error) !== 'ENOENT') throw error;
      this.prepare(dir);
      publish();
    }
    return file;
  }

  private prepare(dir: string): void {
    mkdirSync(dir, { recursive: true });
    // Machine state, never part of a commit.
    writeFileSync(join(dir, '.gitignore'), '*\n');
    this.dirReady = true;
  }

  end(file: string): void {
    try {
      unlinkSync(file);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
  }

  /** Entries whose writer is gone (same host, pid dead), with the file each was read from. */
  orphans(): { file: string; entry: JournalEntry }[] {
    let names: string[];
    try {
      names = readdirSync(pendingDir(this.root));
    } catch {
      return [];
    }
    const found: { file: string; entry: JournalEntry }[] = [];
    for (const name of names) {
      if (name.endsWith('.json.tmp')) this.sweepTorn(join(pendingDir(this.root), name));
      // `native.*`: agents' native changes waiting for their post event (src/core/bridge/pendingNativeChanges.ts).
      if (!name.endsWith('.json') || name.startsWith('native.')) continue;
      const file = join(pendingDir(this.root), name);
      let entry: JournalEntry;
      try {
        const read = readRegularFileSync(file, { maxBytes: MAX_ENTRY_BYTES, noFollow: true });
        if (!read.ok) continue;
        entry = JSON.parse(read.bytes.toString('utf8')) as JournalEntry;
      } catch {
        continue; // torn by a crash mid-write: its record was never appended (the entry is written first)
      }
      if (typeof entry.record_id !== 'string' || !Array.isArray(entry.files)) continue;
      // Only this machine's writers can be judged; a live one is still in flight.
      if (entry.host !== currentProcess().host || !localProcessGone(entry.pid, entry.pid_start ?? 0)) continue;
      found.push({ file, entry });
    }
    return found;
  }

  /** A half-written entry: its writer died before its record was appended. Old enough that no live writer is still on it. */
  private sweepTorn(temp: string): void {
    const stats = statSync(temp, { throwIfNoEntry: false });
    if (stats && Date.now() - stats.mtimeMs > TORN_ENTRY_AGE_MS) rmSync(temp, { force: true });
  }

  /**
   * Did the dead writer's change land? Where the writer staged a temp file, that file still being there means
   * the rename never happened (it is removed now); gone, the change landed unless the file no longer holds it.
   * Otherwise every file must be wholly before or wholly after.
   */
  reconcile(entry: JournalEntry): Reconciled {
    const staged = entry.files.filter((f) => isStagedName(f.staged));
    if (staged.length === entry.files.length && staged.length > 0) {
      const pending = staged.filter((f) => existsSync(join(this.root, f.staged as string)));
      for (const f of pending) rmSync(join(this.root, f.staged as string), { force: true });
      if (pending.length === staged.length) return 'not_landed';
      if (pending.length > 0) return 'unknown';
      return staged.every((f) => hashOnDisk(join(this.root, f.path)) === f.after_hash) ? 'landed' : 'unknown';
    }
    let before = true;
    let after = true;
    for (const file of entry.files) {
      const now = hashOnDisk(join(this.root, file.path));
      if (now === 'unreadable') return 'unknown';
      before &&= now === file.before_hash;
      after &&= now === file.after_hash;
    }
    if (after) return 'landed';
    return before ? 'not_landed' : 'unknown';
  }
}

/** Only our own temp files (nodeWorkspace's `.<name>.<12 hex>.ig-tmp`) inside the workspace are ever removed. */
function isStagedName(path: unknown): path is string {
  return typeof path === 'string' && !isAbsolute(path) && !path.split('/').includes('..') && /(^|\/)\.[^/]*\.[0-9a-f]{12}\.ig-tmp$/.test(path);
}

/** `sha256:` of a regular file's bytes, undefined when there is none, 'unreadable' for anything else. */
function hashOnDisk(abs: string): string | undefined | 'unreadable' {
  // Non-blocking and regular files only: a FIFO put where the file was must not hang the process that recovers.
  const read = readRegularFileSync(abs, { maxBytes: MAX_RECONCILE_BYTES, noFollow: true });
  if (read.ok) return contentHash(read.bytes);
  return read.problem.kind === 'missing' ? undefined : 'unreadable';
}
