import type { AgentLabeller } from './sessionDoor';
import type { ReadBasis } from '../policy/optimisticLock';
import { SessionActivity, type IntentBinding } from './sessionActivity';

/** Content kept per read so a STALE_FILE answer can show what changed since; larger files keep only the hash. */
const MAX_LEDGER_TEXT_BYTES = 256 * 1024;
/** Reads remembered per session; the oldest are forgotten first. */
const MAX_LEDGER_ENTRIES = 512;
/** A session unused this long is over in all but name (an agent that quit without saying so). */
const DEFAULT_IDLE_MS = 60 * 60_000;
/** Read text kept across all sessions; past it the least recently used text goes (its hash stays). */
const DEFAULT_MAX_TEXT_BYTES = 64 * 1024 * 1024;
/** Idle sessions are looked for at most this often, on use: no timer to dispose of. */
const SWEEP_INTERVAL_MS = 60_000;

export interface SessionState {
  readonly id: string;
  intentId?: string;
  /** A human unbound the session (Unbind Intent): it has no intent, not even the human's pick, until it selects one. */
  unbound?: boolean;
  /** Workspace-relative path → what the agent last saw there (by read or by its own write). */
  readonly reads: Map<string, ReadBasis>;
}

export interface SessionRegistryOptions {
  idleMs?: number;
  maxTextBytes?: number;
  /** Milliseconds since some epoch; tests pass a fake clock. */
  now?: () => number;
  /** Names the agent of a hook-bridge or resident session for people (the agent registry's labels). */
  agentLabel?: AgentLabeller;
}

interface Entry {
  state: SessionState;
  lastUsed: number;
}

/** One kept read text, for the cross-session least-recently-used order. */
interface KeptText {
  sessionId: string;
  rel: string;
  bytes: number;
}

/**
 * Governance sessions: one per MCP session, hook-bridge session or CLI run. Bounded, because agents start
 * sessions and do not always end them: `end` frees one (MCP close, an agent's SessionEnd hook); a session idle
 * longer than `idleMs` loses its ledger and, unless it selected its own intent, is forgotten; and the read text
 * kept across all sessions stays under `maxTextBytes`, least recently used first. A session that lost its
 * ledger is answered as one that never read the file: its next change needs a fresh read (fail closed).
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Entry>();
  /** Every kept text, least recently used first (Map order), keyed by session and path. */
  private readonly texts = new Map<string, KeptText>();
  private textBytes = 0;
  private defaultIntentId: string | undefined;
  private readonly idleMs: number;
  private readonly maxTextBytes: number;
  private readonly now: () => number;
  private lastSweep: number;
  /** What each live session is and did, for views; ended with the session. */
  readonly activity: SessionActivity;

  constructor(options: SessionRegistryOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
    this.activity = new SessionActivity({ now: this.now, idleMs: this.idleMs, bindingOf: (id) => this.binding(id), agentLabel: options.agentLabel });
  }

  get(sessionId: string): SessionState {
    return this.touch(sessionId, true)!.state;
  }

  bindIntent(sessionId: string, intentId: string | undefined): void {
    const state = this.get(sessionId);
    state.intentId = intentId;
    state.unbound = false;
    this.activity.changed();
  }

  /**
   * A human took the session's intent away: its next change is NO_ACTIVE_INTENT, with no fallback to the human's
   * pick (that would bind it to an intent nobody chose for it), until the agent selects one again.
   */
  unbind(sessionId: string): void {
    const state = this.get(sessionId);
    state.intentId = undefined;
    state.unbound = true;
    this.activity.changed();
  }

  /** The intent a human picked in the editor; it applies to every session that has not selected its own. */
  setDefaultIntent(intentId: string | undefined): void {
    this.defaultIntentId = intentId;
    this.activity.changed();
  }

  getDefaultIntent(): string | undefined {
    return this.defaultIntentId;
  }

  /** The intent a session works under: its own selection, else the human's pick. */
  boundIntentId(sessionId: string): string | undefined {
    this.touch(sessionId, false); // the agent's own use keeps its session alive
    const binding = this.binding(sessionId);
    return binding.kind === 'unbound' ? undefined : binding.intentId;
  }

  /** Which intent the session works under and why, without touching it (a view looking is not the agent's use). */
  binding(sessionId: string): IntentBinding {
    const state = this.sessions.get(sessionId)?.state;
    if (state?.unbound) return { kind: 'unbound' };
    if (state?.intentId !== undefined) return { kind: 'own', intentId: state.intentId };
    return this.defaultIntentId === undefined ? { kind: 'default' } : { kind: 'default', intentId: this.defaultIntentId };
  }

  recordRead(sessionId: string, rel: string, hash: string, text: string | undefined): void {
    const reads = this.get(sessionId).reads;
    this.dropText(sessionId, rel);
    reads.delete(rel);
    const bytes = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
    const keepText = text !== undefined && bytes <= MAX_LEDGER_TEXT_BYTES;
    reads.set(rel, keepText ? { hash, text } : { hash });
    if (keepText) {
      this.texts.set(textKey(sessionId, rel), { sessionId, rel, bytes });
      this.textBytes += bytes;
    }
    if (reads.size > MAX_LEDGER_ENTRIES) {
      const oldest = reads.keys().next().value as string;
      this.dropText(sessionId, oldest);
      reads.delete(oldest);
    }
    this.trimTexts();
  }

  forgetRead(sessionId: string, rel: string): void {
    this.dropText(sessionId, rel);
    this.get(sessionId).reads.delete(rel);
  }

  lastRead(sessionId: string, rel: string): ReadBasis | undefined {
    const basis = this.touch(sessionId, false)?.state.reads.get(rel);
    const key = textKey(sessionId, rel);
    const kept = this.texts.get(key);
    if (kept) {
      // Used now: to the back of the eviction order.
      this.texts.delete(key);
      this.texts.set(key, kept);
    }
    return basis;
  }

  /** Frees everything kept for a session; its next call starts a fresh one. */
  end(sessionId: string): void {
    this.activity.end(sessionId);
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    for (const rel of entry.state.reads.keys()) this.dropText(sessionId, rel);
    this.sessions.delete(sessionId);
  }

  /** What the registry holds, for logs and tests. */
  stats(): { sessions: number; reads: number; textBytes: number } {
    let reads = 0;
    for (const entry of this.sessions.values()) reads += entry.state.reads.size;
    return { sessions: this.sessions.size, reads, textBytes: this.textBytes };
  }

  private touch(sessionId: string, create: boolean): Entry | undefined {
    const now = this.now();
    this.sweep(now);
    let entry = this.sessions.get(sessionId);
    if (!entry && create) {
      entry = { state: { id: sessionId, reads: new Map() }, lastUsed: now };
      this.sessions.set(sessionId, entry);
    }
    if (entry) entry.lastUsed = now;
    return entry;
  }

  /** Idle sessions lose their ledger; those without an intent of their own are forgotten outright. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [id, entry] of [...this.sessions]) {
      if (now - entry.lastUsed <= this.idleMs) continue;
      // An unbound session is kept: forgetting it would hand it the human's pick again.
      if (entry.state.intentId === undefined && !entry.state.unbound) {
        this.end(id);
        continue;
      }
      for (const rel of entry.state.reads.keys()) this.dropText(id, rel);
      entry.state.reads.clear();
    }
  }

  /** Keeps the hashes (the basis of optimistic locking) and lets the oldest texts go until the total fits. */
  private trimTexts(): void {
    for (const [key, kept] of this.texts) {
      if (this.textBytes <= this.maxTextBytes) return;
      this.texts.delete(key);
      this.textBytes -= kept.bytes;
      const reads = this.sessions.get(kept.sessionId)?.state.reads;
      const basis = reads?.get(kept.rel);
      if (reads && basis) reads.set(kept.rel, { hash: basis.hash });
    }
  }

  private dropText(sessionId: string, rel: string): void {
    const key = textKey(sessionId, rel);
    const kept = this.texts.get(key);
    if (!kept) return;
    this.texts.delete(key);
    this.textBytes -= kept.bytes;
  }
}

function textKey(sessionId: string, rel: string): string {
  return `${sessionId}\u0000${rel}`;
}
