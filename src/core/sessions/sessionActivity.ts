import type { ErrorCode } from '../toolError';
import { sessionDoor, type AgentLabeller, type SessionDoor } from './sessionDoor';

/** How a call ended for the agent: let through, refused (with its code), handed to a human, or failed while running. */
export type CallDecision = 'allowed' | 'denied' | 'asked' | 'failed';

export interface CallSummary {
  tool: string;
  /** The path or command the call was about, when it had one. */
  target?: string;
  decision: CallDecision;
  code?: ErrorCode;
  /** Who approved it, when a human or a standing approval did. */
  approver?: string;
  /** ISO time the outcome was known. */
  at: string;
}

/** Which intent a session's next change is judged under, and why. */
export type IntentBinding =
  | { kind: 'own'; intentId: string }
  /** No selection of its own: the human's pick applies (none when the human has not picked either). */
  | { kind: 'default'; intentId?: string }
  /** A human unbound it: no fallback to the human's pick until the agent selects an intent again. */
  | { kind: 'unbound' };

/** One live session as views show it. */
export interface LiveSession {
  id: string;
  agent: string;
  door: SessionDoor;
  /** ISO times. */
  started: string;
  lastActive: string;
  intent: IntentBinding;
  calls: number;
  lastCall?: CallSummary;
  /** Newest last, at most RECENT_CALLS. */
  recent: readonly CallSummary[];
  /** Approvals this session waits for right now. */
  pendingApprovals: number;
}

export interface SessionActivityOptions {
  /** Milliseconds since some epoch; tests pass a fake clock. */
  now: () => number;
  /** A session with no call for this long (and no approval pending) is no longer live. */
  idleMs: number;
  bindingOf: (sessionId: string) => IntentBinding;
  /** Names the agent of a hook-bridge or resident session for people. */
  agentLabel?: AgentLabeller;
}

/** The parts of a governed call this model reads. */
export interface CallRef {
  tool: string;
  input: unknown;
  session_id: string;
  agent: { name: string };
}

/** A call's outcome (CallOutcome) or, for an agent's native tool, that its own UI must ask. */
export interface OutcomeRef {
  status: 'success' | 'blocked' | 'error' | 'asked';
  error?: { code: ErrorCode };
  approval?: { approved: boolean; approver: string };
}

/** Calls kept per session for Show Calls: enough to see what it has been doing, bounded however long it runs. */
export const RECENT_CALLS = 50;
/** Idle sessions are looked for on use at most this often (listing always looks). */
const SWEEP_INTERVAL_MS = 60_000;

interface Activity {
  agent: string;
  started: number;
  lastActive: number;
  calls: number;
  recent: CallSummary[];
  pending: number;
}

type Listener = () => void;

/**
 * What each live session is and did, for the Agent Sessions view and the status bar: every door's calls are
 * recorded here as their outcome becomes known. Memory only and bounded (recent calls per session, idle sessions
 * dropped); the trace, not this, is the record.
 */
export class SessionActivity {
  private readonly sessions = new Map<string, Activity>();
  private readonly listeners = new Set<Listener>();
  private lastSweep: number;

  constructor(private readonly options: SessionActivityOptions) {
    this.lastSweep = options.now();
  }

  /** A call of `sessionId` ended with `call`'s decision. */
  record(sessionId: string, agent: string, call: Omit<CallSummary, 'at'>): void {
    const activity = this.touch(sessionId, agent);
    activity.calls += 1;
    activity.recent.push({ ...call, at: new Date(activity.lastActive).toISOString() });
    if (activity.recent.length > RECENT_CALLS) activity.recent.shift();
    this.changed();
  }

  /** A door opened a session (an MCP client finished its handshake): it is live before its first call. */
  opened(sessionId: string, agent: string): void {
    this.touch(sessionId, agent);
    this.changed();
  }

  /** Records how a governed call ended, as the pipeline knows it (the one place every door's calls pass). */
  recordOutcome(call: CallRef, outcome: OutcomeRef): void {
    const decision: CallDecision = outcome.status === 'success' ? 'allowed' : outcome.status === 'blocked' ? 'denied' : outcome.status === 'asked' ? 'asked' : 'failed';
    const target = targetOf(call.input);
    this.record(call.session_id, call.agent.name, {
      tool: call.tool,
      ...(target !== undefined ? { target } : {}),
      decision,
      ...(outcome.error ? { code: outcome.error.code } : {}),
      ...(outcome.approval?.approved ? { approver: outcome.approval.approver } : {}),
    });
  }

  /** A human is being asked for one of the session's calls; the returned function says the question is over. */
  asking(sessionId: string, agent: string): () => void {
    const activity = this.touch(sessionId, agent);
    activity.pending += 1;
    this.changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const current = this.sessions.get(sessionId);
      // The session may have ended (and started again) while the human thought: only its own count goes down.
      if (current === activity) {
        activity.pending -= 1;
        activity.lastActive = this.options.now(); // the answer is activity: the idle clock starts again here
      }
      this.changed();
    };
  }

  /** The door ended the session (MCP close, SessionEnd, End Session, idle sweep): it is no longer listed. */
  end(sessionId: string): void {
    if (this.sessions.delete(sessionId)) this.changed();
  }

  /** Live sessions, oldest first; idle ones are dropped on the way. */
  list(): LiveSession[] {
    this.sweep();
    return [...this.sessions.entries()].map(([id, activity]) => this.describe(id, activity));
  }

  /** Sessions held now, idle ones not yet dropped included: for logs and tests. */
  get size(): number {
    return this.sessions.size;
  }

  get(sessionId: string): LiveSession | undefined {
    this.sweep();
    const activity = this.sessions.get(sessionId);
    return activity && this.describe(sessionId, activity);
  }

  /** Something views show changed (a call, a binding, an end). Returns the unsubscribe function. */
  onDidChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A binding changed outside a call (the human's pick, Unbind Intent): views redraw. */
  changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A view that fails to redraw must not break the call that reported.
      }
    }
  }

  private touch(sessionId: string, agent: string): Activity {
    const now = this.options.now();
    // Bounded even where nobody lists the sessions (a long-lived CLI governor): idle ones go on use too.
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) this.sweep();
    let activity = this.sessions.get(sessionId);
    if (!activity) {
      activity = { agent, started: now, lastActive: now, calls: 0, recent: [], pending: 0 };
      this.sessions.set(sessionId, activity);
    }
    activity.agent = agent;
    activity.lastActive = now;
    return activity;
  }

  private sweep(): void {
    const now = this.options.now();
    this.lastSweep = now;
    let ended = false;
    for (const [id, activity] of this.sessions) {
      if (activity.pending > 0 || now - activity.lastActive <= this.options.idleMs) continue;
      this.sessions.delete(id);
      ended = true;
    }
    if (ended) this.changed();
  }

  private describe(id: string, activity: Activity): LiveSession {
    return {
      id,
      agent: activity.agent,
      door: sessionDoor(id, this.options.agentLabel),
      started: new Date(activity.started).toISOString(),
      lastActive: new Date(activity.lastActive).toISOString(),
      intent: this.options.bindingOf(id),
      calls: activity.calls,
      ...(activity.recent.length > 0 ? { lastCall: activity.recent[activity.recent.length - 1] } : {}),
      recent: [...activity.recent],
      pendingApprovals: activity.pending,
    };
  }
}

/** What a call was about, for one line of a view: its command, else its path, else the intent it selected. */
function targetOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const key of ['command', 'path', 'intent_id']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') return value.length > 200 ? `${value.slice(0, 199)}…` : value;
  }
  return undefined;
}
