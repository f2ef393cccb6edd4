/** What a standing approval was granted against: a change to the intent's scope or status ends it. */
export interface StandingBasis {
  readonly owned_scope: readonly string[];
  readonly status: string;
}

/**
 * A human's "Approve for this Session": later writes and edits by one session inside one intent's owned scope
 * need no further modal. Deletes and destructive commands still ask; the scope guard still refuses the rest.
 */
export interface StandingApproval {
  readonly session: string;
  readonly intent: string;
  /** Who granted it: the approver's name (`modal`, a user name). */
  readonly granted_by: string;
  /** ISO time of the grant. */
  readonly granted_at: string;
  readonly basis?: StandingBasis;
}

type Listener = () => void;

/**
 * The standing approvals of one governor process, in memory only: a restart (or a reload of the window that
 * serves the workspace) asks again, which is the safe side.
 */
export class StandingApprovals {
  private readonly entries = new Map<string, StandingApproval>();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  grant(sessionId: string, intentId: string, grantedBy: string, basis?: StandingBasis): StandingApproval {
    const approval: StandingApproval = {
      session: sessionId,
      intent: intentId,
      granted_by: grantedBy,
      granted_at: this.clock().toISOString(),
      ...(basis ? { basis: { owned_scope: [...basis.owned_scope], status: basis.status } } : {}),
    };
    this.entries.set(key(sessionId, intentId), approval);
    this.changed();
    return approval;
  }

  find(sessionId: string, intentId: string): StandingApproval | undefined {
    return this.entries.get(key(sessionId, intentId));
  }

  /**
   * The approval that covers a change by `sessionId` under the intent as it is now. One granted against another
   * scope or status has ended: it is revoked here, so a stale grant can never approve (fail closed).
   */
  findCurrent(sessionId: string, intent: { id: string } & StandingBasis): StandingApproval | undefined {
    const found = this.find(sessionId, intent.id);
    if (!found) return undefined;
    if (found.basis && sameBasis(found.basis, intent)) return found;
    this.revoke(sessionId, intent.id);
    return undefined;
  }

  list(): StandingApproval[] {
    return [...this.entries.values()];
  }

  /** Ends one session's approval for one intent, or all of the session's; true when something ended. */
  revoke(sessionId: string, intentId?: string): boolean {
    let ended = false;
    for (const [k, entry] of this.entries) {
      if (entry.session !== sessionId || (intentId !== undefined && entry.intent !== intentId)) continue;
      this.entries.delete(k);
      ended = true;
    }
    if (ended) this.changed();
    return ended;
  }

  /**
   * Ends every approval whose intent is gone or whose scope or status is no longer what it was granted against,
   * for a host that watches the intents file.
   */
  reconcile(intents: readonly ({ id: string } & StandingBasis)[]): void {
    const byId = new Map(intents.map((intent) => [intent.id, intent]));
    let ended = false;
    for (const [k, entry] of this.entries) {
      const now = byId.get(entry.intent);
      if (now && entry.basis && sameBasis(entry.basis, now)) continue;
      this.entries.delete(k);
      ended = true;
    }
    if (ended) this.changed();
  }

  /** Called after every grant and revoke; returns the function that stops it. */
  onDidChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function key(sessionId: string, intentId: string): string {
  return `${sessionId}\u0000${intentId}`;
}

function sameBasis(a: StandingBasis, b: StandingBasis): boolean {
  return a.status === b.status && a.owned_scope.length === b.owned_scope.length && a.owned_scope.every((glob, i) => glob === b.owned_scope[i]);
}
