import type { ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Governor } from '../governor';
import type { HttpRefusal } from '../localServer/requestGuard';
import { replyOf, type LocalReply, type LocalRequest, type LocalRoute } from '../localServer/routeTable';
import type { Logger } from '../logger';
import { MAX_REQUEST_BODY_BYTES } from '../tools/requestBodyCap';
import { McpHttpSessions, type McpHttpSession } from './mcpHttpSessions';

export const MCP_PATH = '/mcp';

export interface McpRouteOptions {
  governor: Governor;
  /** The governor a new MCP session works against (e.g. rebuilt after a workspace change); default: `governor`. */
  governorFor?: (mcpSessionId: string) => Governor;
  name: string;
  version: string;
  logger: Logger;
  maxSessions?: number;
  maxBodyBytes?: number;
  /** Close a session after this long with no request and no open stream. Default 30 minutes. */
  idleSessionMs?: number;
  /**
   * Close a session this long after its client dropped the stream it held (closed without DELETE, or killed),
   * unless it reconnects meanwhile. Default 30 s: with the reaper's period, gone within a minute.
   */
  lostSessionMs?: number;
}

/** The MCP door on the local server; it counts its live sessions (for status displays and tests). */
export interface McpRoute extends LocalRoute {
  sessionCount(): number;
}

const DEFAULTS = { maxSessions: 64, maxBodyBytes: MAX_REQUEST_BODY_BYTES, idleSessionMs: 30 * 60_000, lostSessionMs: 30_000 };

/**
 * The governed tools over MCP Streamable HTTP for agents outside the extension host, as the local server's route
 * `/mcp` (POST, GET, DELETE). The server has checked the request (token, Host, Origin, JSON) and read the body;
 * this route keeps one SDK transport per MCP session. Closing it (the server does, before it stops listening)
 * closes every session and waits until the calls they still ran are recorded.
 */
export function mcpRoute(options: McpRouteOptions): McpRoute {
  const limits = {
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    idleSessionMs: options.idleSessionMs ?? DEFAULTS.idleSessionMs,
    lostSessionMs: options.lostSessionMs ?? DEFAULTS.lostSessionMs,
  };
  const logger = options.logger;
  const sessions = new McpHttpSessions({
    name: options.name,
    version: options.version,
    governorFor: options.governorFor ?? (() => options.governor),
    logger,
    maxSessions: limits.maxSessions,
    idleMs: limits.idleSessionMs,
    lostMs: limits.lostSessionMs,
  });
  const reapIdle = () => sessions.closeIdle().catch((error: unknown) => logger.error(`closing idle MCP sessions failed: ${error instanceof Error ? error.message : String(error)}`));
  // Often enough that a lost session goes within its grace again (30 s + 15 s by default).
  const reaper = setInterval(reapIdle, Math.max(50, Math.min(limits.idleSessionMs / 2, limits.lostSessionMs / 2, 60_000)));
  reaper.unref();
  let closing: Promise<void> | undefined;

  return {
    path: MCP_PATH,
    methods: ['POST', 'GET', 'DELETE'],
    maxBodyBytes: limits.maxBodyBytes,
    sessionCount: () => sessions.size,
    handle: (request, res) => handle(request, res, sessions),
    close() {
      closing ??= (async () => {
        clearInterval(reaper);
        await sessions.closeAll();
      })();
      return closing;
    },
  };
}

async function handle(request: LocalRequest, res: ServerResponse, sessions: McpHttpSessions): Promise<LocalReply | void> {
  const sessionId = request.headers['mcp-session-id'];
  if (request.method !== 'POST') {
    // GET opens the server-to-client SSE stream, DELETE ends the session; both belong to an existing one.
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!session) return replyOf(unknownSession(sessionId));
    return forward(session, request, res, sessions);
  }
  if (sessionId !== undefined) {
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!session) return replyOf(unknownSession(sessionId));
    return forward(session, request, res, sessions);
  }
  if (!isInitializeRequest(request.body)) {
    return replyOf({ status: 400, error: 'No Mcp-Session-Id header: start a session with an initialize request first.' });
  }
  if (sessions.isFull()) {
    return replyOf({ status: 503, error: 'Too many open MCP sessions; close unused clients (DELETE their session) and retry.' });
  }
  await sessions.initialize((transport) => transport.handleRequest(request.raw, res, request.body));
}

function forward(session: McpHttpSession, request: LocalRequest, res: ServerResponse, sessions: McpHttpSessions): Promise<void> {
  sessions.track(session, res, request.method);
  sessions.cancelOnHangUp(session, request.body, res);
  return session.transport.handleRequest(request.raw, res, request.body);
}

function unknownSession(sessionId: string | string[] | undefined): HttpRefusal {
  if (sessionId === undefined) return { status: 400, error: 'Missing Mcp-Session-Id header; start a session with an initialize POST first.' };
  return { status: 404, error: 'Unknown or ended MCP session; start a new one with an initialize request (no Mcp-Session-Id).' };
}
