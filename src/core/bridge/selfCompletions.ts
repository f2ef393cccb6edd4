import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { NativeCall, NativeEdit } from '../agents/common/nativeCall';
import { readRegularFileSync } from '../io/regularFile';
import type { Logger } from '../logger';
import { foldedFileName, independentOfRecordings } from './foldedFileName';

/**
 * An edited file larger than this gets no expected content: it would be read before the answer goes back. (Its
 * change is completed at the agent's next event.) A watched file is compared up to the cap of a Write's content.
 */
const MAX_EDITED_BYTES = 256 * 1024;
const MAX_COMPARED_BYTES = 64 * 1024 * 1024;

/** One file an allowed change writes: how it stood when the governor answered, and what the tool leaves if it runs as asked. */
interface Watched {
  abs: string;
  /** Inode, size, mtime and ctime when the pre was answered ('-': no file). */
  before: string;
  /** What the file holds once the tool ran as asked (undefined: not known, the edited file was too big or unreadable). */
  expected?: string;
}

/** Completed tool calls remembered, so a post that comes anyway (a hand-edited matcher, a late failure) records nothing twice. */
const REMEMBERED = 1024;

/** A change whose folder could not be watched (the tool creates it) is looked at this often, for this long. */
const POLL_MS = 50;
const POLL_FOR_MS = 5_000;

/**
 * Where an agent's event stands for the changes the governor completes itself. `owner`: who sent it (an agent's
 * session, or one subagent of it: one agent runs its file tools one at a time); `id`: the tool call it belongs to.
 * - `post`: the call `id`'s own post came after all (it completes the call; for the owner's other calls it is a move on);
 * - `next`: the owner moved on, so its earlier calls have finished (its next tool call, a new prompt, a compaction);
 * - `end`: the owner stopped (its turn, its session): its calls are completed whatever the files hold;
 * - `other`: says nothing of its calls (a permission request or a notification may come while a tool waits for a person).
 */
export interface CompletionMoment {
  owner: string;
  id?: string;
  kind: 'post' | 'next' | 'end' | 'other';
}

interface Outstanding {
  id: string;
  owner: string;
  /** Records the change as the post would have (the trace record, completing the pending entry the pre left). */
  complete: () => Promise<void>;
  files: Watched[];
  watchers: FSWatcher[];
  poll?: NodeJS.Timeout;
}

/**
 * Native changes a long-lived governor completes itself because the agent does not send their post (the install
 * leaves it out: each hook an agent runs costs it a process or a round trip): once the tool wrote the file, the
 * governor runs the same post it would have got, without the agent waiting for it.
 *
 * When: as soon as a watched file holds exactly what the tool was asked to write (a watcher on its folder, or a
 * short poll when the tool creates the folder), and in any case before the governor handles the same owner's next
 * event, so a later call is judged against the change (the read ledger) and in the trace's order. Another owner's
 * change is completed only on its exact content or its own next event: a file that changed otherwise may be a
 * person's save, or a write still under way. At its end an owner's last changes are completed whatever the files
 * hold (the post finds nothing to record when the tool failed), and so is every change when the governor closes.
 * If the governor itself dies first, the pending entry is there: the next governor records the change (`the
 * governor that allowed it stopped before recording it`).
 */
export class SelfCompletions {
  private readonly open = new Map<string, Outstanding>();
  /** Completions under way, each with the names of the files it records. */
  private readonly running = new Map<Promise<void>, ReadonlySet<string>>();
  /** The last of them: each starts after the one before, so records keep the order of the calls. */
  private last: Promise<void> = Promise.resolve();
  private readonly completed = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /**
   * An allowed (or asked) tool call `id` of `owner` whose post will not come: watch what `calls` write. Called before
   * the answer goes back, so the files are still as the governor judged them.
   */
  track(id: string, owner: string, calls: readonly NativeCall[], complete: () => Promise<void>): void {
    const files = calls.flatMap((call): Watched[] => (call.tool === 'write_file' || call.tool === 'edit_file' ? [watched(call)] : []));
    if (files.length === 0) return;
    // An agent without call ids names a call by its input: the same call again means the earlier one finished.
    const earlier = this.open.get(id);
    if (earlier) this.settle(earlier);
    this.completed.delete(id);
    const outstanding: Outstanding = { id, owner, complete, files, watchers: [] };
    this.open.set(id, outstanding);
    // Armed once the answer is on its way; a write that came first is caught by the check right after.
    setImmediate(() => {
      if (this.open.get(id) !== outstanding) return;
      let unwatched = false;
      for (const dir of new Set(files.map((file) => dirname(file.abs)))) {
        try {
          const watcher = watch(dir, { persistent: false }, (_event, name) => {
            if (name === null || files.some((file) => basename(file.abs) === name)) this.settleIfDone(outstanding);
          });
          watcher.on('error', () => watcher.close());
          outstanding.watchers.push(watcher);
        } catch {
          unwatched = true; // a folder the tool creates
        }
      }
      if (unwatched) {
        // Looked at for a while; after that the owner's next event (or a reconciliation) completes the change.
        const until = Date.now() + POLL_FOR_MS;
        outstanding.poll = setInterval(() => (Date.now() > until ? clearInterval(outstanding.poll) : this.settleIfDone(outstanding)), POLL_MS);
        outstanding.poll.unref();
      }
      this.settleIfDone(outstanding);
    });
  }

  /**
   * Before the governor handles an event at `moment`: the changes it must see completed first are. `callsOf`: what a
   * pre maps to, asked only while completions run; one independent of them (independentOfRecordings) is judged
   * without waiting for them.
   */
  async before(moment: CompletionMoment, callsOf?: () => readonly NativeCall[] | undefined): Promise<void> {
    if (this.open.size === 0 && this.running.size === 0) return;
    if (moment.kind === 'post' && moment.id !== undefined) {
      // The post came after all (a failure, or hooks routed it): the post completes it.
      const own = this.open.get(moment.id);
      if (own) this.forget(own);
    }
    for (const outstanding of [...this.open.values()]) {
      const mine = outstanding.owner === moment.owner;
      const ends = mine && moment.kind === 'end';
      // A pre under the same id is the same call again (an agent without call ids): the earlier one has finished too.
      const movedOn = mine && (moment.kind === 'next' || (moment.kind === 'post' && outstanding.id !== moment.id));
      if (ends || (movedOn && changed(outstanding)) || done(outstanding)) this.settle(outstanding);
    }
    // Completions under way (this owner's, or a watcher's) land before the next judgement, unless it cannot depend on them.
    if (this.running.size === 0) return;
    const calls = callsOf?.();
    if (calls?.length && independentOfRecordings(calls, this.running.values())) return;
    await Promise.all(this.running.keys());
  }

  /** Whether this governor completed the tool call `id` itself: its post, if one comes after all, has nothing left to record. */
  completedAlready(id: unknown): boolean {
    return typeof id === 'string' && this.completed.has(id);
  }

  /** The governor is closing (or the session is over): every change still open is completed now. */
  async close(): Promise<void> {
    for (const outstanding of [...this.open.values()]) this.settle(outstanding);
    await Promise.all(this.running.keys());
  }

  private settleIfDone(outstanding: Outstanding): void {
    // Watchers may fire once more after the change was completed (or forgotten): only an open change is settled.
    if (this.open.get(outstanding.id) === outstanding && done(outstanding)) this.settle(outstanding);
  }

  private settle(outstanding: Outstanding): void {
    this.forget(outstanding);
    this.completed.add(outstanding.id);
    if (this.completed.size > REMEMBERED) this.completed.delete(this.completed.values().next().value as string);
    // On failure the pending entry is still there: a later reconciliation records the change.
    this.run(`completing ${outstanding.id}`, outstanding.complete, new Set(outstanding.files.map((file) => foldedFileName(file.abs))));
  }

  private run(what: string, task: () => Promise<void>, names: ReadonlySet<string>): void {
    const run = this.last.then(task).catch((error: unknown) => this.logger.warn(`${what}: ${error instanceof Error ? error.message : String(error)}`));
    this.last = run;
    this.running.set(run, names);
    void run.finally(() => this.running.delete(run));
  }

  private forget(outstanding: Outstanding): void {
    this.open.delete(outstanding.id);
    for (const watcher of outstanding.watchers) watcher.close();
    clearInterval(outstanding.poll);
  }
}

function watched(call: Extract<NativeCall, { tool: 'write_file' | 'edit_file' }>): Watched {
  const abs = call.input.path;
  const before = signature(abs);
  if (call.tool === 'write_file') return { abs, before, expected: call.input.content };
  if (call.edits.length === 0) return { abs, before };
  const read = readRegularFileSync(abs, { maxBytes: MAX_EDITED_BYTES });
  const next = read.ok ? applyEdits(read.bytes.toString('utf8'), call.edits) : undefined;
  return { abs, before, ...(next !== undefined ? { expected: next } : {}) };
}

/** Whether any watched file is no longer as it was when the governor answered. */
function changed(outstanding: Outstanding): boolean {
  return outstanding.files.some((file) => signature(file.abs) !== file.before);
}

/** Whether every watched file holds exactly what the tool was asked to write. */
function done(outstanding: Outstanding): boolean {
  return outstanding.files.every((file) => file.expected !== undefined && signature(file.abs) !== file.before && holds(file.abs, file.expected));
}

function holds(abs: string, expected: string): boolean {
  const read = readRegularFileSync(abs, { maxBytes: MAX_COMPARED_BYTES });
  return read.ok && read.bytes.length === Buffer.byteLength(expected) && read.bytes.equals(Buffer.from(expected));
}

/**
 * What `calls` leave in each file they write when the tool runs as asked (undefined: not known), read before it
 * runs: for a process that looks later whether the tool has run (a one-shot hook's completion worker).
 */
export function expectedFiles(calls: readonly NativeCall[]): { abs: string; expected?: string }[] {
  return calls.flatMap((call) => (call.tool === 'write_file' || call.tool === 'edit_file' ? [watched(call)] : [])).map(({ abs, expected }) => ({ abs, ...(expected !== undefined ? { expected } : {}) }));
}

/** Whether every file holds what it is expected to (none unknown). */
export function holdExpected(files: readonly { abs: string; expected?: string }[]): boolean {
  return files.every((file) => file.expected !== undefined && holds(file.abs, file.expected));
}

function signature(abs: string): string {
  try {
    const s = statSync(abs, { bigint: true, throwIfNoEntry: false });
    return s === undefined ? '-' : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '?';
  }
}

/** An edit as the agents apply it: each search text in turn, the first occurrence (or all); undefined when one is missing. */
function applyEdits(text: string, edits: NativeEdit[]): string | undefined {
  let result = text;
  for (const edit of edits) {
    if (!result.includes(edit.search)) return undefined;
    result = edit.all ? result.split(edit.search).join(edit.replace) : result.replace(edit.search, () => edit.replace);
  }
  return result;
}
