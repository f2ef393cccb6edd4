import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FileIntentSource } from '../intents/fileIntentSource';
import type { IntentSource } from '../intents/intent';
import { describeProblem, readRegularFile } from '../io/regularFile';
import { errnoOf, ioToolError } from '../ioError';
import { nullLogger, type Logger } from '../logger';
import { canonicalizePath, detectCaseInsensitive } from '../paths/canonicalPath';
import { fail, ok, type Result } from '../toolError';
import { acquireLock, type LockHandle } from '../io/crossProcessLock';
import { attributeLines } from '../trace/traceBlame';
import { governanceLogPath, traceFilePath } from '../trace/traceFiles';
import { IntentMapModel } from './intentMapModel';
import { INTENT_MAP_FILE, renderIntentMap } from './intentMapMarkdown';
import type { IntentMapOutcome, IntentMapUpdates } from './intentMapUpdates';
import { buildIntentMapView, type FileState, type OwnedRun } from './intentMapView';
import { LogFollower } from './logFollower';
import { RefreshSchedule } from './refreshSchedule';

export interface IntentMapKeeperOptions {
  /** Absolute workspace root. */
  workspaceRoot: string;
  /** The plan; default: the workspace's intents file. */
  intents?: IntentSource;
  logger?: Logger;
  /** How long after a change the map is rebuilt, so a burst of changes costs one rebuild (default 250 ms). */
  delayMs?: number;
  /** How long to wait for another process rebuilding the same map (default 10 s). */
  lockTimeoutMs?: number;
}

/** Files past this size are listed but not read (blame hashes every window of every range length). */
const MAX_MAPPED_FILE_BYTES = 8 * 1024 * 1024;
const DEFAULT_DELAY_MS = 250;
/** Readings of the logs in one rebuild before giving up on logs git keeps rewriting. */
const MAX_LOG_READS = 3;

interface CachedFile {
  key: string;
  state: FileState;
}

/**
 * Keeps `.orchestration/intent_map.md` in step with the logs. One per workspace per process: the first rebuild
 * streams both logs; later ones read only the lines appended since (see LogFollower), and reread a touched file
 * only when its stat or the records about it changed, so the cost of a rebuild follows what changed, not the
 * size of the trace. Rebuilds run in the background after `changed()` (debounced), one at a time, and under a
 * lock every governor process on the workspace takes, so the last writer always wrote from the newest logs.
 * The map is replaced whole (temp file + rename), never appended to, and only when its text changed.
 */
export class IntentMapKeeper implements IntentMapUpdates {
  readonly path: string;
  private readonly model = new IntentMapModel();
  private readonly trace: LogFollower;
  private readonly governance: LogFollower;
  private readonly intents: IntentSource;
  private readonly logger: Logger;
  private readonly files = new Map<string, CachedFile>();
  private readonly schedule: RefreshSchedule;
  private caseInsensitive: Promise<boolean> | undefined;
  private last: Result<IntentMapOutcome> | undefined;

  constructor(private readonly options: IntentMapKeeperOptions) {
    this.path = join(options.workspaceRoot, INTENT_MAP_FILE);
    this.trace = new LogFollower(traceFilePath(options.workspaceRoot));
    this.governance = new LogFollower(governanceLogPath(options.workspaceRoot));
    this.intents = options.intents ?? new FileIntentSource(options.workspaceRoot);
    this.logger = options.logger ?? nullLogger;
    this.schedule = new RefreshSchedule(async () => {
      this.last = await this.rebuild();
      if (!this.last.ok) this.logger.error(`intent map: ${this.last.error.message}`);
    }, options.delayMs ?? DEFAULT_DELAY_MS);
  }

  /** A log grew: rebuild soon, in the background. */
  changed(): void {
    this.schedule.request();
  }

  /** Rebuilds now (after any rebuild under way) and says what it did. */
  async refresh(): Promise<Result<IntentMapOutcome>> {
    this.schedule.request();
    await this.schedule.flush();
    return this.last ?? fail(ioToolError(new Error('no rebuild ran'), 'rebuild', INTENT_MAP_FILE));
  }

  /** Finishes a rebuild that is pending or under way (a door calls this before it exits). */
  flush(): Promise<void> {
    return this.schedule.flush();
  }

  private async rebuild(): Promise<Result<IntentMapOutcome>> {
    let lock: LockHandle;
    try {
      // Not recursive: a workspace removed since the rebuild was asked for (a worker outliving it) is not recreated.
      await mkdir(dirname(this.path)).catch((error: unknown) => {
        if (errnoOf(error) !== 'EEXIST') throw error;
      });
      lock = await acquireLock(`${this.path}.lock`, { timeoutMs: this.options.lockTimeoutMs ?? 10_000 });
    } catch (error) {
      return fail(ioToolError(error, 'lock', INTENT_MAP_FILE));
    }
    try {
      const composed = await this.compose();
      return ok({ ...composed, written: await this.writeIfChanged(composed.text) });
    } catch (error) {
      return fail(ioToolError(error, 'rebuild', INTENT_MAP_FILE));
    } finally {
      await lock.release();
    }
  }

  /** What a rebuild would write now, without writing it (`governor intent-map --check`). */
  async preview(): Promise<Result<Omit<IntentMapOutcome, 'written'>>> {
    await this.schedule.flush();
    try {
      return ok(await this.compose());
    } catch (error) {
      return fail(ioToolError(error, 'rebuild', INTENT_MAP_FILE));
    }
  }

  private async compose(): Promise<Omit<IntentMapOutcome, 'written'>> {
    await this.readLogs();
    const plan = await this.intents.load();
    const files = await this.fileStates();
    const view = buildIntentMapView(this.model, plan, files);
    return { path: this.path, text: renderIntentMap(view), intents: view.intents.length, files: files.size };
  }

  /**
   * New lines of both logs into the model, the governance log first (its voids name trace records). A log git
   * rewrote, or a void for a record already folded in, means reading both again from the start.
   */
  private async readLogs(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const governance = await this.governance.follow((line, text) => this.model.addGovernance(line, parse(text)));
      const trace = await this.trace.follow((line, text) => this.model.addTrace(line, parse(text)));
      if (trace === 'appended' && governance === 'appended' && !this.model.needsReread) return;
      if (attempt === MAX_LOG_READS) throw new Error('the logs kept being rewritten while they were read; try again once git (or a recovering writer) is done');
      this.model.clear();
      this.trace.reset();
      this.governance.reset();
    }
  }

  /** What each touched file holds now; a file whose stat and records are as last time is not read again. */
  private async fileStates(): Promise<Map<string, FileState>> {
    const states = new Map<string, FileState>();
    const touched = this.model.touchedPaths();
    const keep = new Set(touched);
    for (const path of this.files.keys()) if (!keep.has(path)) this.files.delete(path);
    for (const path of touched) {
      const key = `${this.model.generation(path)}:${await statKey(join(this.options.workspaceRoot, path))}`;
      const cached = this.files.get(path);
      if (cached?.key === key) {
        states.set(path, cached.state);
        continue;
      }
      const state = await this.fileState(path);
      this.files.set(path, { key, state });
      states.set(path, state);
    }
    return states;
  }

  private async fileState(path: string): Promise<FileState> {
    this.caseInsensitive ??= detectCaseInsensitive(this.options.workspaceRoot);
    // A log is editable by anyone with the workspace: its paths go through the canonicaliser like an agent's read.
    const resolved = await canonicalizePath(this.options.workspaceRoot, path, 'read', { caseInsensitive: await this.caseInsensitive });
    if (!resolved.ok) {
      if (resolved.error.code === 'PATH_OUTSIDE_WORKSPACE') return { kind: 'unreadable', reason: 'outside the workspace' };
      const entry = await lstat(join(this.options.workspaceRoot, path)).catch(() => undefined);
      return { kind: 'unreadable', reason: entry && !entry.isFile() ? 'not a regular file' : 'not a valid workspace path' };
    }
    if (!resolved.value.exists) return { kind: 'missing' };
    const read = await readRegularFile(resolved.value.abs, { maxBytes: MAX_MAPPED_FILE_BYTES });
    if (!read.ok) {
      const { problem } = read;
      if (problem.kind === 'missing') return { kind: 'missing' };
      return { kind: 'unreadable', reason: problem.kind === 'too_large' ? `larger than ${MAX_MAPPED_FILE_BYTES / 1024 / 1024} MiB` : describeProblem(path, problem) };
    }
    return { kind: 'present', runs: ownedRuns(attributeLines(read.bytes.toString('utf8'), this.model.candidatesFor(path))) };
  }

  private async writeIfChanged(text: string): Promise<boolean> {
    const current = await readRegularFile(this.path, { maxBytes: Buffer.byteLength(text) + 1 });
    if (current.ok && current.bytes.equals(Buffer.from(text, 'utf8'))) return false;
    // Temp file beside the map, then one rename: a reader sees the old map or the new one, never half of one.
    const temp = join(dirname(this.path), `.intent_map.md.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, text, { flag: 'wx' });
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return true;
  }
}

/** Consecutive lines one record claims, as runs (1-based, inclusive). */
function ownedRuns(lines: { line: number; recordId?: string; intentId?: string }[]): OwnedRun[] {
  const runs: OwnedRun[] = [];
  for (const { line, recordId, intentId } of lines) {
    if (recordId === undefined) continue;
    const last = runs[runs.length - 1];
    if (last && last.recordId === recordId && last.end === line - 1) last.end = line;
    else runs.push({ recordId, intentId, start: line, end: line });
  }
  return runs;
}

/** Identity and version of whatever is at `path` now ('' when nothing is). */
async function statKey(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return '';
    return `error:${errno ?? 'unknown'}`;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
