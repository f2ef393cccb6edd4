import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeProblem, problemError, readRegularFileSync } from '../io/regularFile';
import { errnoOf, ioToolError } from '../ioError';
import { fail, ok, toolError, type Result, type ToolError } from '../toolError';
import type { IntentSource, IntentStatus, IntentsSnapshot } from './intent';
import { formatProblem, parseIntentsFile } from './intentsFile';
import { appendIntentToText, setScopeInText, type IntentDraft } from './intentsFileEdit';
import { addScopeToText, setStatusInText } from './intentsWriter';

export const INTENTS_FILE_RELATIVE = '.orchestration/active_intents.yaml';
/** A plan, not a database: anything bigger is a mistake, and parsing it on the hot path would hurt every tool call. */
export const MAX_INTENTS_FILE_BYTES = 1024 * 1024;
/** Write-backs retried when someone else changes the file between our read and our rename. */
const MAX_WRITE_ATTEMPTS = 3;

type FileRead =
  | { kind: 'text'; key: string; text: string; mode: number }
  | { kind: 'missing' }
  | { kind: 'invalid'; key?: string; snapshot: IntentsSnapshot & { valid: false } };

type Transform = (text: string) => Result<string>;

/**
 * Intents read from `<root>/.orchestration/active_intents.yaml`. `load()` runs on every tool call, so the snapshot is
 * cached by the file's stat and an unchanged file costs one stat. Snapshots name the file workspace-relative, which
 * is what agents and humans see in messages. Filesystems with coarse timestamps can hide a same-size edit within one
 * tick: hosts with a file watcher call `invalidate()`.
 */
export class FileIntentSource implements IntentSource {
  readonly file: string;
  private cached: { key: string; snapshot: IntentsSnapshot } | undefined;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(workspaceRoot: string) {
    this.file = join(workspaceRoot, INTENTS_FILE_RELATIVE);
  }

  /** Forgets the cached snapshot; the next load reads the file again. */
  invalidate(): void {
    this.cached = undefined;
  }

  async load(): Promise<IntentsSnapshot> {
    let info: Stats;
    try {
      // One synchronous stat on every tool call: microseconds, with no thread-pool round trip.
      info = statSync(this.file);
    } catch (error) {
      if (isMissing(error)) return this.remember('missing', { valid: true, file: INTENTS_FILE_RELATIVE, exists: false, intents: [] });
      return unreadable(error);
    }
    if (this.cached?.key === statKey(info)) return this.cached.snapshot;
    const read = this.read();
    if (read.kind === 'missing') return this.load();
    if (read.kind === 'invalid') return read.key === undefined ? read.snapshot : this.remember(read.key, read.snapshot);
    return this.remember(read.key, parseIntentsFile(read.text, INTENTS_FILE_RELATIVE));
  }

  addScope(intentId: string, globs: string[]): Promise<Result<IntentsSnapshot>> {
    return this.writeBack((text) => addScopeToText(text, INTENTS_FILE_RELATIVE, intentId, globs));
  }

  setStatus(intentId: string, status: IntentStatus): Promise<Result<IntentsSnapshot>> {
    return this.writeBack((text) => setStatusInText(text, INTENTS_FILE_RELATIVE, intentId, status));
  }

  /** Appends a new intent (New Intent…); the file must exist (the host creates it from its template first). */
  addIntent(draft: IntentDraft): Promise<Result<IntentsSnapshot>> {
    return this.writeBack((text) => appendIntentToText(text, INTENTS_FILE_RELATIVE, draft));
  }

  /** Replaces an intent's owned_scope (Edit Scope in the Intents view). */
  setScope(intentId: string, globs: string[]): Promise<Result<IntentsSnapshot>> {
    return this.writeBack((text) => setScopeInText(text, INTENTS_FILE_RELATIVE, intentId, globs));
  }

  private remember(key: string, snapshot: IntentsSnapshot): IntentsSnapshot {
    if (this.cached?.key === key) return this.cached.snapshot;
    this.cached = { key, snapshot };
    return snapshot;
  }

  /** Write-backs run one at a time in this process, so two approvals in quick succession both land. */
  private writeBack(transform: Transform): Promise<Result<IntentsSnapshot>> {
    const run = this.writes.then(() => this.transformFile(transform));
    this.writes = run.catch(() => undefined);
    return run;
  }

  private async transformFile(transform: Transform): Promise<Result<IntentsSnapshot>> {
    for (let attempt = 1; ; attempt++) {
      const read = this.read();
      if (read.kind === 'invalid') return fail(invalidFileError(read.snapshot));
      const next = transform(read.kind === 'text' ? read.text : '');
      if (!next.ok) return next;
      if (read.kind === 'missing') return fail(toolError('INTENT_NOT_FOUND', `There is no ${INTENTS_FILE_RELATIVE}; a human must create it.`));
      if (next.value === read.text) return ok(await this.load());
      const written = await this.replace(next.value, read);
      if (written === 'raced' && attempt < MAX_WRITE_ATTEMPTS) continue;
      if (written === 'raced') {
        return fail(toolError('HOOK_ERROR', `${INTENTS_FILE_RELATIVE} kept changing while it was being updated; retry.`, { io_error: true }));
      }
      if (written !== 'ok') return fail(written);
      this.invalidate();
      return ok(await this.load());
    }
  }

  /**
   * The file's text with the stat it was read under (fstat on the open descriptor, so the two belong together).
   * Synchronous, like the stat in `load`: the file is small (capped) and a thread-pool round trip per step costs
   * more. Through the regular-file reader, so a FIFO or a device put here is refused without blocking the thread
   * that enforces the hook's deadline.
   */
  private read(): FileRead {
    const read = readRegularFileSync(this.file, { maxBytes: MAX_INTENTS_FILE_BYTES });
    if (read.ok) return { kind: 'text', key: statKey(read.stats), text: read.bytes.toString('utf8'), mode: read.stats.mode & 0o7777 };
    const problem = read.problem;
    if (problem.kind === 'missing') return { kind: 'missing' };
    if (problem.kind === 'not_regular') {
      return { kind: 'invalid', key: problem.stats && statKey(problem.stats), snapshot: problemAtStart(`${describeProblem(INTENTS_FILE_RELATIVE, problem)}; replace it with a YAML file`) };
    }
    if (problem.kind === 'too_large') {
      return { kind: 'invalid', key: statKey(problem.stats), snapshot: problemAtStart(`${describeProblem('the file', problem)}; remove finished intents`) };
    }
    return { kind: 'invalid', snapshot: unreadable(problemError(INTENTS_FILE_RELATIVE, problem)) };
  }

  /** Temp file in the same directory, fsync, then rename over the original, unless the original changed since `read`. */
  private async replace(text: string, read: FileRead & { kind: 'text' }): Promise<'ok' | 'raced' | ToolError> {
    const temp = join(dirname(this.file), `.active_intents.yaml.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx', read.mode);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.chmod(read.mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A human saving in an editor between our read and here would otherwise be overwritten.
      if (statKey(await stat(this.file)) !== read.key) {
        await unlink(temp).catch(() => undefined);
        return 'raced';
      }
      await rename(temp, this.file);
      return 'ok';
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      return ioToolError(error, 'write', INTENTS_FILE_RELATIVE);
    }
  }
}

function statKey(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function problemAtStart(message: string): IntentsSnapshot & { valid: false } {
  return { valid: false, file: INTENTS_FILE_RELATIVE, problems: [{ file: INTENTS_FILE_RELATIVE, line: 1, column: 1, message }] };
}

function unreadable(error: unknown): IntentsSnapshot & { valid: false } {
  const errno = errnoOf(error) ?? 'UNKNOWN';
  return problemAtStart(`cannot read the file (${errno}); check that it exists and is readable by the editor`);
}

function invalidFileError(snapshot: IntentsSnapshot & { valid: false }): ToolError {
  const shown = snapshot.problems.slice(0, 10).map(formatProblem).join('\n');
  return toolError('INTENTS_FILE_INVALID', `The intents file is invalid; fix it before changing intents:\n${shown}`, {
    file: snapshot.file,
    problems: snapshot.problems,
  });
}
