import type { StandingApproval, StandingApprovals } from '../approval/standingApprovals';
import type { LiveSession } from './sessionActivity';
import type { SessionRegistry } from './sessionRegistry';

/** What a person can do to a live session from the Agent Sessions view. */
export type SessionAction = { action: 'unbind' | 'end'; session: string } | { action: 'revoke'; session: string; intent: string };

/** This window's sessions and standing approvals, as the serving window sends them to the other windows. */
export interface SessionsSnapshot {
  sessions: LiveSession[];
  standing: StandingApproval[];
  /** The person's pick in the workspace (absent: none), which sessions without their own selection work under. */
  defaultIntent?: string;
}

/** The serving window, as an attached window reaches it: the person's actions and pick go there. */
export interface ServingWindowSessions {
  act(action: SessionAction): Promise<boolean>;
  pick(intentId: string | undefined): Promise<boolean>;
}

type Listener = () => void;

/**
 * The live agent sessions of the workspace as this window shows them: its own (language model tools, or every
 * door while it serves the folder) and, while it is attached to the window that serves the folder, that
 * window's (MCP clients, the hook bridge), mirrored over the relay. An action on a mirrored session is sent to
 * the serving window, which holds the session; one on an own session is applied here.
 */
export class WorkspaceSessions {
  private mirrored: { snapshot: SessionsSnapshot; serving: ServingWindowSessions } | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly pickListeners = new Set<Listener>();
  private readonly stops: (() => void)[];

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly standingApprovals: StandingApprovals,
  ) {
    this.stops = [sessions.activity.onDidChange(() => this.changed()), standingApprovals.onDidChange(() => this.changed())];
  }

  /** The human's own pick, which sessions without a selection of their own work under. */
  defaultIntent(): string | undefined {
    return this.sessions.getDefaultIntent();
  }

  /**
   * The person picked (or cleared) the intent in this window. It is the workspace's pick: the serving window,
   * which judges the MCP and hook-bridge calls, takes it and sends it to every window. False when the serving
   * window could not be told (the pick then holds in this window only).
   */
  async pick(intentId: string | undefined): Promise<boolean> {
    this.pickHere(intentId);
    return this.mirrored ? this.mirrored.serving.pick(intentId) : true;
  }

  /** Sets the pick in this window (the serving window, for another window's pick). */
  pickHere(intentId: string | undefined): void {
    if (this.sessions.getDefaultIntent() === intentId) return;
    this.sessions.setDefaultIntent(intentId);
    for (const listener of [...this.pickListeners]) listener();
  }

  /** The pick changed: here, or in another window of the workspace. */
  onDidChangePick(listener: Listener): () => void {
    this.pickListeners.add(listener);
    return () => this.pickListeners.delete(listener);
  }

  list(): LiveSession[] {
    const own = this.sessions.activity.list();
    const ids = new Set(own.map((session) => session.id));
    return [...own, ...(this.mirrored?.snapshot.sessions.filter((session) => !ids.has(session.id)) ?? [])];
  }

  get(sessionId: string): LiveSession | undefined {
    return this.sessions.activity.get(sessionId) ?? this.mirrored?.snapshot.sessions.find((session) => session.id === sessionId);
  }

  standing(): StandingApproval[] {
    const own = this.standingApprovals.list();
    const mirrored = this.mirrored?.snapshot.standing.filter((approval) => this.sessions.activity.get(approval.session) === undefined) ?? [];
    return [...own, ...mirrored];
  }

  /** This window's own sessions: what it sends the other windows while it serves the folder. */
  snapshot(): SessionsSnapshot {
    const pick = this.sessions.getDefaultIntent();
    return { sessions: this.sessions.activity.list(), standing: this.standingApprovals.list(), ...(pick === undefined ? {} : { defaultIntent: pick }) };
  }

  /** The serving window's sessions and pick as it last sent them; undefined when the relay to it ended. */
  mirror(snapshot: SessionsSnapshot | undefined, serving?: ServingWindowSessions): void {
    this.mirrored = snapshot && serving ? { snapshot, serving } : undefined;
    if (snapshot && serving) this.pickHere(snapshot.defaultIntent); // the serving window's pick is the workspace's
    this.changed();
  }

  /** Applies the action to a session this window holds (the serving window, for another window's request). */
  actHere(action: SessionAction): boolean {
    return applySessionAction(this.sessions, this.standingApprovals, action);
  }

  /** Applies the action where the session lives; false when it has ended (or the serving window is gone). */
  async act(action: SessionAction): Promise<boolean> {
    if (this.sessions.activity.get(action.session)) return this.actHere(action);
    const mirrored = this.mirrored;
    if (!mirrored?.snapshot.sessions.some((session) => session.id === action.session)) return false;
    return mirrored.serving.act(action);
  }

  onDidChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const stop of this.stops) stop();
    this.listeners.clear();
    this.pickListeners.clear();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * An action on a session this process holds. Unbinding or ending a session also ends its standing approvals:
 * they belonged to the binding that ended, so selecting the intent again asks again.
 */
function applySessionAction(sessions: SessionRegistry, standing: StandingApprovals, action: SessionAction): boolean {
  if (action.action === 'revoke') return standing.revoke(action.session, action.intent);
  if (!sessions.activity.get(action.session)) return false;
  if (action.action === 'unbind') sessions.unbind(action.session);
  else sessions.end(action.session);
  standing.revoke(action.session);
  return true;
}

/** A pick from another window: an intent id, or null for none; undefined when it is neither. */
export function pickFrom(value: unknown): { intent: string | undefined } | undefined {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (v.intent === null) return { intent: undefined };
  return typeof v.intent === 'string' && v.intent.length > 0 && v.intent.length <= 256 ? { intent: v.intent } : undefined;
}

/** An action from another window, checked field by field; undefined for anything else. */
export function sessionActionFrom(value: unknown): SessionAction | undefined {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (typeof v.session !== 'string' || v.session.length === 0 || v.session.length > 512) return undefined;
  if (v.action === 'unbind' || v.action === 'end') return { action: v.action, session: v.session };
  if (v.action === 'revoke' && typeof v.intent === 'string' && v.intent.length > 0) return { action: 'revoke', session: v.session, intent: v.intent };
  return undefined;
}

/** A snapshot from the serving window, kept only when it has the expected shape (a broken one shows nothing). */
export function sessionsSnapshotFrom(value: unknown): SessionsSnapshot | undefined {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (!Array.isArray(v.sessions) || !Array.isArray(v.standing)) return undefined;
  const sessions = v.sessions.filter((s): s is LiveSession => isRecord(s) && typeof s.id === 'string' && typeof s.agent === 'string' && isRecord(s.door) && isRecord(s.intent) && Array.isArray(s.recent));
  const standing = v.standing.filter((a): a is StandingApproval => isRecord(a) && typeof a.session === 'string' && typeof a.intent === 'string');
  return { sessions, standing, ...(typeof v.defaultIntent === 'string' ? { defaultIntent: v.defaultIntent } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
