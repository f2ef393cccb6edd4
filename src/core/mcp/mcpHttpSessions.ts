import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Governor } from '../governor';
import type { Logger } from '../logger';
import { createGovernedMcpServer } from './governedMcpServer';
import { InflightCalls } from './inflightCalls';

/** One MCP session: its own transport and server, and its own governance session (bound intent, reads). */
export interface McpHttpSession {
  readonly id: string;
  readonly governanceSessionId: string;
  readonly transport: StreamableHTTPServerTransport;
  /** HTTP requests of this session still open (an SSE stream counts until the client hangs up). */
  open: number;
  /**
   * The client held the server-to-client stream (GET) at some point: it says it listens while it lives, so that
   * stream ending with nothing else open is the client gone (closed without DELETE, or killed).
   */
  listened: boolean;
  lastActive: number;
  /** Aborted when the client hangs up on the POST that carried the request with this id (see cancelOnHangUp). */
  readonly hangUps: Map<string, AbortController>;
}

export interface McpHttpSessionsOptions {
  name: string;
  version: string;
  governorFor: (mcpSessionId: string) => Governor;
  logger: Logger;
  maxSessions: number;
  /** A session with nothing open for this long is closed: a client that died never sends DELETE. */
  idleMs: number;
  /**
   * A session whose client held the GET stream and let it go, with nothing else open, is closed after this much
   * longer (room for the client to reconnect it): its agent is gone, and it must not stay listed as live.
   */
  lostMs: number;
  now?: () => number;
}

/**
 * The live MCP sessions of one HTTP listener, as in the SDK's examples: one transport per session, added once
 * initialized, removed when its transport closes (DELETE, idle reaping, shutdown).
 */
export class McpHttpSessions {
  private readonly sessions = new Map<string, McpHttpSession>();
  /** Sessions whose initialize is in flight: they count toward the cap so a burst cannot overshoot it. */
  private pending = 0;
  /** Tool calls still running, so closing waits until their outcomes (refusals included) are recorded. */
  private readonly calls = new InflightCalls();
  private readonly now: () => number;

  constructor(private readonly options: McpHttpSessionsOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpHttpSession | undefined {
    return this.sessions.get(id);
  }

  isFull(): boolean {
    return this.sessions.size + this.pending >= this.options.maxSessions;
  }

  /**
   * Runs `initialize` on a fresh transport. The id is drawn before the transport exists so the governance
   * session can be named after it; the session is kept only if the handshake succeeded.
   */
  async initialize(handle: (transport: StreamableHTTPServerTransport) => Promise<void>): Promise<void> {
    const id = randomUUID();
    const governanceSessionId = `mcp-http:${id}`;
    const governor = this.options.governorFor(id);
    const hangUps = new Map<string, AbortController>();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        this.sessions.set(id, { id, governanceSessionId, transport, open: 0, listened: false, lastActive: this.now(), hangUps });
        this.options.logger.info(`MCP session ${id} opened (${this.sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (!this.sessions.delete(id)) return;
      governor.services.sessions.end(governanceSessionId);
      governor.services.standingApprovals.revoke(governanceSessionId); // "for this Session" ends with it
      this.options.logger.info(`MCP session ${id} closed (${this.sessions.size} open)`);
    };
    const server = createGovernedMcpServer(governor, {
      name: this.options.name,
      version: this.options.version,
      sessionId: governanceSessionId,
      clientGone: (requestId) => hangUps.get(requestKey(requestId))?.signal,
      track: (call) => this.calls.track(call),
    });
    this.pending += 1;
    try {
      await server.connect(transport);
      await handle(transport);
    } finally {
      this.pending -= 1;
      if (!this.sessions.has(id)) await server.close();
    }
  }

  /**
   * Counts a request of `session` as open until its response closes, so a long SSE stream is never reaped as idle.
   * A GET is the client's standing stream: once it has held one, losing it counts as the client going away.
   */
  track(session: McpHttpSession, response: NodeJS.EventEmitter, method: string): void {
    session.open += 1;
    if (method === 'GET') session.listened = true;
    session.lastActive = this.now();
    response.once('close', () => {
      session.open -= 1;
      session.lastActive = this.now();
    });
  }

  /**
   * Cancels the requests a POST carries if its client hangs up before their answers were written. With no event
   * store a dropped stream can never be resumed, so those answers could not reach anyone: the calls must not go
   * on to change anything.
   */
  cancelOnHangUp(session: McpHttpSession, body: unknown, response: ServerResponse): void {
    const keys = requestIds(body).map(requestKey);
    if (keys.length === 0) return;
    const controllers = keys.map((key) => {
      const controller = new AbortController();
      session.hangUps.set(key, controller);
      return [key, controller] as const;
    });
    response.once('close', () => {
      for (const [key, controller] of controllers) {
        if (session.hangUps.get(key) === controller) session.hangUps.delete(key);
        if (!response.writableFinished) controller.abort(new Error('the client disconnected'));
      }
    });
  }

  /** Closes the sessions whose client is gone: its stream lost past `lostMs`, or nothing at all past `idleMs`. */
  async closeIdle(): Promise<void> {
    const now = this.now();
    const idle = [...this.sessions.values()].filter((s) => s.open === 0 && now - s.lastActive > this.graceOf(s));
    for (const session of idle) {
      const why = session.listened ? 'its client dropped the connection' : 'no request';
      this.options.logger.info(`MCP session ${session.id}: ${why} for ${Math.round(this.graceOf(session) / 1000)} s; closing it`);
    }
    await Promise.all(idle.map((s) => s.transport.close()));
  }

  /** How long a session with nothing open is kept. */
  private graceOf(session: McpHttpSession): number {
    return session.listened ? Math.min(this.options.lostMs, this.options.idleMs) : this.options.idleMs;
  }

  /** Closes every session (which cancels the calls they still run), then waits for those calls to be recorded. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close()));
    await this.calls.settled();
  }
}

/** The JSON-RPC requests (not notifications or responses) in a POST body: one message or a batch. */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    if (typeof m !== 'object' || m === null) return [];
    const { id, method } = m as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/** 1 and "1" are different JSON-RPC ids. */
function requestKey(id: string | number): string {
  return `${typeof id}:${id}`;
}
