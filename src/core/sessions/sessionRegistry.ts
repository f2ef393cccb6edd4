import type { ReadBasis } from '../policy/optimisticLock';

/** Content kept per read so a STALE_FILE answer can show what changed since; larger files keep only the hash. */
const MAX_LEDGER_TEXT_BYTES = 256 * 1024;
/** Reads remembered per session; the oldest are forgotten first. */
const MAX_LEDGER_ENTRIES = 512;

export interface SessionState {
  readonly id: string;
  intentId?: string;
  /** Workspace-relative path → what the agent last saw there (by read or by its own write). */
  readonly reads: Map<string, ReadBasis>;
}

/** Governance sessions: one per MCP session, hook-bridge session or CLI run. */
export class SessionRegistry {
  private readonly sessions = new Map<string, SessionState>();
  private defaultIntentId: string | undefined;

  get(sessionId: string): SessionState {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { id: sessionId, reads: new Map() };
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  bindIntent(sessionId: string, intentId: string | undefined): void {
    this.get(sessionId).intentId = intentId;
  }

  /** The intent a human picked in the editor; it applies to every session that has not selected its own. */
  setDefaultIntent(intentId: string | undefined): void {
    this.defaultIntentId = intentId;
  }

  getDefaultIntent(): string | undefined {
    return this.defaultIntentId;
  }

  /** The intent a session works under: its own selection, else the human's pick. */
  boundIntentId(sessionId: string): string | undefined {
    return this.sessions.get(sessionId)?.intentId ?? this.defaultIntentId;
  }

  recordRead(sessionId: string, rel: string, hash: string, text: string | undefined): void {
    const reads = this.get(sessionId).reads;
    reads.delete(rel);
    const keepText = text !== undefined && Buffer.byteLength(text, 'utf8') <= MAX_LEDGER_TEXT_BYTES;
    reads.set(rel, keepText ? { hash, text } : { hash });
    if (reads.size > MAX_LEDGER_ENTRIES) reads.delete(reads.keys().next().value as string);
  }

  forgetRead(sessionId: string, rel: string): void {
    this.get(sessionId).reads.delete(rel);
  }

  lastRead(sessionId: string, rel: string): ReadBasis | undefined {
    return this.sessions.get(sessionId)?.reads.get(rel);
  }

  end(sessionId: string): void {
    this.sessions.delete(sessionId);
  }
}
