import type { ApprovalRequest, Approver } from '../approval/approver';
import type { Logger } from '../logger';
import { sessionsSnapshotFrom, type ServingWindowSessions, type SessionAction, type SessionsSnapshot } from '../sessions/workspaceSessions';
import { RELAY_ANSWER_PATH, RELAY_EVENTS_PATH, RELAY_FOCUS_PATH, RELAY_INTENT_PATH, RELAY_KEY_HEADER, RELAY_SESSION_PATH, type RelayEvent } from './relayProtocol';

export interface RelayClientOptions {
  /** `http://127.0.0.1:<port>` of the serving window. */
  origin: string;
  /** The MCP bearer token (the server's first guard). */
  token: string;
  relayKey: string;
  windowId: string;
  /** Whether this window has focus now; sent with the connection. */
  focused: boolean;
  /** This window's own approver (the modal queue): it asks the human here. */
  approver: Approver;
  notice(message: string): void;
  /** The serving window's agent sessions as they change; undefined once the relay has ended. */
  sessions?(snapshot: SessionsSnapshot | undefined): void;
  logger: Logger;
}

/**
 * A window that does not serve its workspace, attached to the one that does: it receives the approval requests
 * meant for the human here, asks through its own modal approver and sends the answer back, and reports focus.
 * `closed` settles when the connection ends (the serving window closed, reloaded or refused us): the requests
 * still on screen are withdrawn, since their answer has nowhere to go. It also carries the serving window's agent
 * sessions and the person's pick here, and this window's actions on them and picks back (ServingWindowSessions).
 */
export class RelayClient implements ServingWindowSessions {
  readonly closed: Promise<string>;
  /** Resolves once the serving window has attached this one (requests may come from then on). */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private readonly stop = new AbortController();
  private readonly asks = new Map<string, AbortController>();

  constructor(private readonly options: RelayClientOptions) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.closed = this.run().then(
      (why) => this.finish(why),
      (error: unknown) => this.finish(error instanceof Error ? error.message : String(error)),
    );
  }

  reportFocus(focused: boolean): void {
    void this.post(RELAY_FOCUS_PATH, { window: this.options.windowId, focused }).catch((error: unknown) => this.options.logger.warn(`could not report focus to the serving window: ${String(error)}`));
  }

  /** Asks the serving window to act on one of its sessions; false when that session has ended there. */
  async act(action: SessionAction): Promise<boolean> {
    return this.post(RELAY_SESSION_PATH, { window: this.options.windowId, ...action });
  }

  /** Tells the serving window the person picked (or cleared) the intent here. */
  async pick(intentId: string | undefined): Promise<boolean> {
    return this.post(RELAY_INTENT_PATH, { window: this.options.windowId, intent: intentId ?? null });
  }

  dispose(): void {
    this.stop.abort();
  }

  private async run(): Promise<string> {
    const { origin, windowId, focused } = this.options;
    const url = `${origin}${RELAY_EVENTS_PATH}?window=${encodeURIComponent(windowId)}&focused=${focused ? 1 : 0}`;
    const response = await fetch(url, { headers: this.headers(), signal: this.stop.signal });
    if (response.status !== 200 || !response.body) return `the serving window refused the relay (HTTP ${response.status})`;
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim()) this.handle(JSON.parse(line) as RelayEvent);
      }
    }
    return 'the serving window closed the relay';
  }

  private handle(event: RelayEvent): void {
    if (event.type === 'ready') this.markReady();
    else if (event.type === 'notice') this.options.notice(event.message);
    else if (event.type === 'cancel') this.asks.get(event.id)?.abort();
    else if (event.type === 'ask') this.ask(event.id, event.request);
    else if (event.type === 'sessions') this.options.sessions?.(sessionsSnapshotFrom(event.snapshot));
  }

  private ask(id: string, request: ApprovalRequest): void {
    const cancel = new AbortController();
    this.asks.set(id, cancel);
    this.options.approver
      .approve(request, { signal: cancel.signal })
      .then(async (decision) => {
        if (cancel.signal.aborted) return;
        await this.post(RELAY_ANSWER_PATH, { window: this.options.windowId, id, decision });
      })
      .catch((error: unknown) => this.options.logger.warn(`an approval answer did not reach the serving window: ${String(error)}`))
      .finally(() => this.asks.delete(id));
  }

  private finish(why: string): string {
    for (const cancel of this.asks.values()) cancel.abort();
    this.asks.clear();
    this.options.sessions?.(undefined);
    return why;
  }

  /** True when the serving window did it; false for 410 (gone: that request or session is no longer there). */
  private async post(path: string, body: unknown): Promise<boolean> {
    const response = await fetch(`${this.options.origin}${path}`, {
      method: 'POST',
      headers: { ...this.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: this.stop.signal,
    });
    await response.arrayBuffer();
    if (!response.ok && response.status !== 410) throw new Error(`HTTP ${response.status}`);
    return response.ok;
  }

  private headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.options.token}`, [RELAY_KEY_HEADER]: this.options.relayKey };
  }
}
