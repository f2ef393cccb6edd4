import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { NativeCall, NativeEdit } from '../core/agents/common/nativeCall';
import { readRegularFileSync } from '../core/io/regularFile';
import type { Logger } from '../core/logger';
import { foldedFileName, independentOfRecordings } from '../core/bridge/foldedFileName';

/**
 * An edited file larger than this gets no expected content: it would be read before the answer goes back. (Its
 * change is completed at the agent's next event.) A watched file is compared up to the cap of a Write's content.
 */
const MAX_EDITED_BYTES = 256 * 1024;
const MAX_COMPARED_BYTES = 64 * 1024 * 1024;

/**
 * Events after which an agent's earlier tool call has finished: its next tool call or post, a new prompt, the end
 * of its turn. (A PermissionRequest or Notification may come while the tool still waits for a person.)
 */
const MOVED_ON = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact']);

/** One file an allowed change writes: how it stood when the governor answered, and what the tool leaves if it runs as asked. */
interface Watched {
  abs: string;
  /** Inode, size, mtime and ctime when the PreToolUse was answered ('-': no file). */
  before: string;
  /** What the file holds once the tool ran as asked (undefined: not known, the edited file was too big or unreadable). */
  expected?: string;
}

/** Completed tool calls remembered, so a post that comes anyway (a hand-edited matcher, a late failure) records nothing twice. */
const REMEMBERED = 1024;

/** A change whose folder could not be watched (the tool creates it) is looked at this often, for this long. */
const POLL_MS = 50;
const POLL_FOR_MS = 5_000;

interface Outstanding {
  /** Claude's tool_use_id. */
  id: string;
  /** The subagent that called it (undefined: the main agent); one agent runs its file tools one at a time. */
  agent: string | undefined;
  /** The PostToolUse this change would have had. */
  post: Record<string, unknown>;
  files: Watched[];
  watchers: FSWatcher[];
  poll?: NodeJS.Timeout;
}

/**
 * Native changes the resident governor completes itself: Claude Code does not send their PostToolUse (the install
 * routes posts only where the governor or a user hook needs them, see claudeRouting.ts), so once the tool wrote
 * the file, the governor runs the same post it would have got (the trace record, completing the pending entry
 * the PreToolUse left) without Claude Code waiting for it.
 *
 * When: as soon as a watched file holds exactly what the tool was asked to write (a watcher on its folder, or a
 * short poll when the tool creates the folder), and in any case before the governor handles the same agent's next
 * event (its next tool call or post, a new prompt, its Stop), so a later call of the session is judged against the
 * change (the read ledger) and in the trace's order. A change of another agent is completed only on its exact content or its own next event: a file that
 * changed otherwise may be a person's save, or a write still under way. At its Stop (SubagentStop) an agent's
 * last changes are completed whatever the files hold (the post finds nothing to record when the tool failed),
 * and so is every change when the session closes. If the governor itself dies first, the pending entry is there:
 * the next governor records the change (`the governor that allowed it stopped before recording it`).
 */
export class ResidentCompletions {
  private readonly open = new Map<string, Outstanding>();
  /** Completions under way, each with the names of the files it records. */
  private readonly running = new Map<Promise<void>, ReadonlySet<string>>();
  /** The last of them: each starts after the one before, so records keep the order of the calls. */
  private last: Promise<void> = Promise.resolve();
  private readonly completed = new Set<string>();

  constructor(
    private readonly complete: (post: Record<string, unknown>) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /**
   * A PreToolUse the governor did not refuse, whose post Claude Code does not send: watch what `calls` write. Called
   * before the answer goes back, so the files are still as the governor judged them.
   */
  track(pre: Record<string, unknown>, toolInput: Record<string, unknown>, calls: NativeCall[]): void {
    const id = pre.tool_use_id;
    if (typeof id !== 'string' || id === '') return; // no id to pair it with: the pending entry is reconciled instead
    const files = calls.flatMap((call): Watched[] => (call.tool === 'write_file' || call.tool === 'edit_file' ? [watched(call)] : []));
    if (files.length === 0) return;
    const post: Record<string, unknown> = { ...pre, hook_event_name: 'PostToolUse', tool_input: toolInput };
    delete post.tool_response;
    const outstanding: Outstanding = { id, agent: agentOf(pre), post, files, watchers: [] };
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
        // Looked at for a while; after that the agent's next event (or a reconciliation) completes the change.
        const until = Date.now() + POLL_FOR_MS;
        outstanding.poll = setInterval(() => (Date.now() > until ? clearInterval(outstanding.poll) : this.settleIfDone(outstanding)), POLL_MS);
        outstanding.poll.unref();
      }
      this.settleIfDone(outstanding);
    });
  }

  /**
   * Before the governor handles `payload`: the changes it must see completed first are. `callsOf`: what a PreToolUse
   * maps to, asked only while completions run; one independent of them (independentOfRecordings) is judged without
   * waiting for them.
   */
  async before(payload: Record<string, unknown>, callsOf?: () => readonly NativeCall[] | undefined): Promise<void> {
    const event = payload.hook_event_name;
    const agent = agentOf(payload);
    const id = payload.tool_use_id;
    if ((event === 'PostToolUse' || event === 'PostToolUseFailure') && typeof id === 'string') {
      // Claude Code sent this one's post after all (a failure, or hooks routed it): the post completes it.
      const own = this.open.get(id);
      if (own) this.forget(own);
    }
    for (const outstanding of [...this.open.values()]) {
      const ends = (event === 'Stop' && outstanding.agent === undefined) || (event === 'SubagentStop' && outstanding.agent === agent);
      const movedOn = typeof event === 'string' && MOVED_ON.has(event) && outstanding.agent === agent && outstanding.id !== id;
      if (ends || (movedOn && changed(outstanding)) || done(outstanding)) this.settle(outstanding);
    }
    // Completions under way (this agent's, or a watcher's) land before the next judgement, unless it cannot depend on them.
    if (this.running.size === 0) return;
    const calls = event === 'PreToolUse' ? callsOf?.() : undefined;
    if (calls?.length && independentOfRecordings(calls, this.running.values())) return;
    await Promise.all(this.running.keys());
  }

  /** Whether this governor completed the tool call `id` itself: its post, if one comes after all, has nothing left to record. */
  completedAlready(id: unknown): boolean {
    return typeof id === 'string' && this.completed.has(id);
  }

  /** The session is over (Claude Code closed the server): every change still open is completed now. */
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
    const { post } = outstanding;
    this.run(`completing ${String(post.tool_name)} ${outstanding.id}`, () => this.complete(post), new Set(outstanding.files.map((file) => foldedFileName(file.abs))));
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

function agentOf(payload: Record<string, unknown>): string | undefined {
  return typeof payload.agent_id === 'string' && payload.agent_id !== '' ? payload.agent_id : undefined;
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
  return outstanding.files.every((file) => {
    if (file.expected === undefined || signature(file.abs) === file.before) return false;
    const read = readRegularFileSync(file.abs, { maxBytes: MAX_COMPARED_BYTES });
    return read.ok && read.bytes.length === Buffer.byteLength(file.expected) && read.bytes.equals(Buffer.from(file.expected));
  });
}

function signature(abs: string): string {
  try {
    const s = statSync(abs, { bigint: true, throwIfNoEntry: false });
    return s === undefined ? '-' : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '?';
  }
}

/** Claude's Edit/MultiEdit as it applies them: each search text in turn, the first occurrence (or all); undefined when one is missing. */
function applyEdits(text: string, edits: NativeEdit[]): string | undefined {
  let result = text;
  for (const edit of edits) {
    if (!result.includes(edit.search)) return undefined;
    result = edit.all ? result.split(edit.search).join(edit.replace) : result.replace(edit.search, () => edit.replace);
  }
  return result;
}
