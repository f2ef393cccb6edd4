import { agentProcessOf, localProcessGone } from '../io/processIdentity';
import type { BridgeRequest } from '../agents/common/nativeCall';

/** A process found above a session's hook calls, and how many of them it was found above. */
interface AgentProcess {
  pid: number;
  start: number;
  calls: number;
}

interface Watched {
  /** The session's SessionEnd, as its agent would have sent it, for when the agent is gone. */
  end: BridgeRequest;
  /** Keyed `pid:start`. More than one when the session was resumed by another process, or a wrapper ran a call. */
  agents: Map<string, AgentProcess>;
  /** Calls of the session being judged now: something of it still lives, so it is not ended meanwhile. */
  inFlight: number;
}

/** Processes remembered per session; the ones that ran a single call and are gone go first. */
const MAX_AGENTS = 16;
/** Sessions watched at once; the oldest go first (they keep the idle sweep). */
const MAX_SESSIONS = 1024;

/**
 * The agent processes behind the hook sessions a long-lived governor serves, so a session whose agent was killed
 * (no SessionEnd) ends within a sweep instead of an idle timeout. Fail-safe: a session ends only when every process
 * found above its calls is gone, and one of them was found above at least two calls, which a per-call wrapper (a
 * `timeout`, an `npx`) never is; where no agent is found (no /proc), the session is not watched.
 */
export class SessionAgents {
  private readonly sessions = new Map<string, Watched>();

  /** A hook call begins: notes the agent above its caller. Synchronous, while the caller still waits for the answer. */
  begin(request: BridgeRequest): () => void {
    if (request.phase === 'end') {
      this.sessions.delete(request.session_id);
      return () => undefined;
    }
    const caller = request.caller;
    const agent = caller ? agentProcessOf(caller) : undefined;
    let watched = this.sessions.get(request.session_id);
    if (agent) watched = this.note(request, agent.pid, agent.start);
    // A call of the session from a process whose agent cannot be told: it may live on unseen, so the idle sweep decides.
    // One whose caller is gone already (a post recorded after its answer) says nothing either way.
    else if (watched && !(caller && localProcessGone(caller.pid, caller.start))) {
      this.sessions.delete(request.session_id);
      watched = undefined;
    }
    if (!watched || !this.sessions.has(request.session_id)) return () => undefined;
    const counted = watched;
    counted.inFlight += 1;
    return () => {
      counted.inFlight -= 1;
    };
  }

  /** The sessions whose agent is gone, each with the SessionEnd to end it by; they are no longer watched. */
  takeGone(): BridgeRequest[] {
    const gone: BridgeRequest[] = [];
    for (const [id, watched] of this.sessions) {
      if (watched.inFlight > 0) continue;
      const agents = [...watched.agents.values()];
      if (!agents.some((agent) => agent.calls >= 2)) continue;
      if (!agents.every((agent) => localProcessGone(agent.pid, agent.start))) continue;
      this.sessions.delete(id);
      gone.push(watched.end);
    }
    return gone;
  }

  /** How many sessions are watched, for tests and logs. */
  get size(): number {
    return this.sessions.size;
  }

  private note(request: BridgeRequest, pid: number, start: number): Watched {
    let watched = this.sessions.get(request.session_id);
    if (watched) this.sessions.delete(request.session_id); // to the back: the oldest watched goes first
    watched ??= { end: endOf(request), agents: new Map(), inFlight: 0 };
    watched.end = endOf(request);
    this.sessions.set(request.session_id, watched);
    const key = `${pid}:${start}`;
    const known = watched.agents.get(key);
    if (known) known.calls += 1;
    else {
      watched.agents.set(key, { pid, start, calls: 1 });
      if (watched.agents.size > MAX_AGENTS) this.trim(request.session_id, watched);
    }
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return watched;
  }

  /** Drops the one-call processes that are gone; with too many live ones left, the session is no longer watched (never one forgotten alive). */
  private trim(sessionId: string, watched: Watched): void {
    for (const [key, agent] of watched.agents) if (agent.calls < 2 && localProcessGone(agent.pid, agent.start)) watched.agents.delete(key);
    if (watched.agents.size > MAX_AGENTS) this.sessions.delete(sessionId);
  }
}

/** The SessionEnd the agent of `request`'s session would have sent (reason `other`, as Claude Code names an unlisted one). */
function endOf(request: BridgeRequest): BridgeRequest {
  const native = request.native;
  return {
    phase: 'end',
    session_id: request.session_id,
    agent: request.agent,
    key: '',
    calls: [],
    ...(native ? { native: { dialect: native.dialect, event: 'SessionEnd', session_id: native.session_id, cwd: native.cwd, fields: { reason: 'other' } } } : {}),
  };
}

/** How often a long-lived governor looks for gone agents: INTENT_GOVERNOR_SESSION_SWEEP_MS (tests), else 30 s. */
export function agentSweepMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.INTENT_GOVERNOR_SESSION_SWEEP_MS);
  return Number.isInteger(ms) && ms >= 50 ? ms : 30_000;
}
