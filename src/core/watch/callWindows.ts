import type { AgentInfo } from '../trace/traceSink';

/** A governed agent's tool call between its pre and its post: while one is open the workspace is watched. */
export interface WatchedCall {
  /** The native invocation's key (tool_use_id, else a hash of the input): the same at its pre and its post. */
  key: string;
  session_id: string;
  /** The agent's own id for the call (its tool_use_id), as records and messages name it; default the key. */
  call_id?: string;
  agent: AgentInfo;
  /** The agent's own tool name (`Task`, `Bash`, `Write`). */
  tool: string;
  /** Workspace-relative paths the call itself changes: its own post records those. */
  targets: readonly string[];
  /** Paths the call may change without naming them, which its own record holds: a shell command's writes. */
  explains?: (rel: string) => boolean;
}

interface Window {
  call: WatchedCall;
  opened: number;
  closed?: number;
}

const id = (session: string, key: string) => `${session}\u0000${key}`;

/**
 * Which calls are open, and were open at a moment: a file event can be read just after the post that follows the
 * write, so a call closed up to `graceMs` before a change was seen still explains its own targets and takes it.
 */
export class CallWindows {
  private readonly open = new Map<string, Window>();
  private closed: Window[] = [];

  constructor(
    private readonly graceMs: number,
    private readonly keepMs = 60_000,
  ) {}

  /** Opens the call's window; true when no other was open (the watcher starts). A second pre of a key is one window. */
  openCall(call: WatchedCall, now: number): boolean {
    const first = this.open.size === 0;
    const key = id(call.session_id, call.key);
    if (!this.open.has(key)) this.open.set(key, { call, opened: now });
    return first;
  }

  /** Closes the call's window; true when none is left open. Unknown keys change nothing. */
  closeCall(session: string, key: string, now: number): boolean {
    const window = this.open.get(id(session, key));
    if (window) {
      this.open.delete(id(session, key));
      window.closed = now;
      this.closed.push(window);
    }
    this.prune(now);
    return this.open.size === 0;
  }

  /** Ends every window of a session (SessionEnd): its calls will send no post. */
  closeSession(session: string, now: number): boolean {
    for (const window of [...this.open.values()]) if (window.call.session_id === session) this.closeCall(session, window.call.key, now);
    return this.open.size === 0;
  }

  get anyOpen(): boolean {
    return this.open.size > 0;
  }

  openCalls(): WatchedCall[] {
    return [...this.open.values()].map((w) => w.call);
  }

  /** The call a change seen at `at` is put down to: the latest opened still open then, else the latest closed within grace. */
  attribute(at: number): WatchedCall | undefined {
    const live = this.during(at);
    live.sort((a, b) => b.opened - a.opened);
    return live[0]?.call;
  }

  /** A call open at `at` (or closed within grace of it) whose own targets hold `rel`, or that explains it. */
  explainedBy(rel: string, at: number): WatchedCall | undefined {
    return this.during(at).find((w) => w.call.targets.includes(rel) || w.call.explains?.(rel) === true)?.call;
  }

  private during(at: number): Window[] {
    // A call opened after a change was seen never owns it; one closed just before may (its last writes' events).
    return [...this.open.values(), ...this.closed].filter((w) => w.opened <= at && (w.closed === undefined || w.closed + this.graceMs >= at));
  }

  private prune(now: number): void {
    // Kept a while: a batch is judged up to a settle delay after its events were seen.
    this.closed = this.closed.filter((w) => (w.closed as number) + this.keepMs >= now).slice(-256);
  }
}
