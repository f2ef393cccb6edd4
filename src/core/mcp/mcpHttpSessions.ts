import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Governor } from '../governor';
import type { Logger } from '../logger';
import { createGovernedMcpServer } from './governedMcpServer';

/** One MCP session: its own transport and server, and its own governance session (bound intent, reads). */
export interface McpHttpSession {
  readonly id: string;
  readonly governanceSessionId: string;
  readonly transport: StreamableHTTPServerTransport;
  /** HTTP requests of this session still open (an SSE stream counts until the client hangs up). */
  open: number;
  lastActive: number;
}

export interface McpHttpSessionsOptions {
  name: string;
  version: string;
  governorFor: (mcpSessionId: string) => Governor;
  logger: Logger;
  maxSessions: number;
  /** A session with nothing open for this long is closed: a client that died never sends DELETE. */
  idleMs: number;
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
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        this.sessions.set(id, { id, governanceSessionId, transport, open: 0, lastActive: this.now() });
        this.options.logger.info(`MCP session ${id} opened (${this.sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (!this.sessions.delete(id)) return;
      governor.services.sessions.end(governanceSessionId);
      this.options.logger.info(`MCP session ${id} closed (${this.sessions.size} open)`);
    };
    const server = createGovernedMcpServer(governor, { name: this.options.name, version: this.options.version, sessionId: governanceSessionId });
    this.pending += 1;
    try {
      await server.connect(transport);
      await handle(transport);
    } finally {
      this.pending -= 1;
      if (!this.sessions.has(id)) await server.close();
    }
  }

  /** Counts a request of `session` as open until its response closes, so a long SSE stream is never reaped as idle. */
  track(session: McpHttpSession, response: NodeJS.EventEmitter): void {
    session.open += 1;
    session.lastActive = this.now();
    response.once('close', () => {
      session.open -= 1;
      session.lastActive = this.now();
    });
  }

  async closeIdle(): Promise<void> {
    const cutoff = this.now() - this.options.idleMs;
    const idle = [...this.sessions.values()].filter((s) => s.open === 0 && s.lastActive < cutoff);
    for (const session of idle) this.options.logger.info(`MCP session ${session.id} idle for ${Math.round(this.options.idleMs / 1000)} s; closing it`);
    await Promise.all(idle.map((s) => s.transport.close()));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close()));
  }
}
