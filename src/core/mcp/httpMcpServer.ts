import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HOOK_PATH } from '../agents/common/nativeCall';
import { errnoOf } from '../ioError';
import type { Governor } from '../governor';
import type { Logger } from '../logger';
import { guardRequest, MAX_REQUEST_BODY_BYTES, newBearerToken, tokenDigest, type HttpGuardPolicy, type HttpRefusal } from './httpRequestGuard';
import { McpHttpSessions, type McpHttpSession } from './mcpHttpSessions';

export const MCP_PATH = '/mcp';
export { HOOK_PATH };
const LOOPBACK = '127.0.0.1';

export interface HttpMcpServerOptions {
  governor: Governor;
  /** The governor a new MCP session works against (e.g. rebuilt after a workspace change); default: `governor`. */
  governorFor?: (mcpSessionId: string) => Governor;
  name: string;
  version: string;
  /** Reuse a token (clients configured earlier keep working); default: 256 fresh random bits. */
  token?: string;
  /** Preferred port; taken if free, otherwise a random free one. Default: random. */
  port?: number;
  /** Browser origins allowed to call, e.g. a trusted web client. Default none. */
  allowedOrigins?: string[];
  logger: Logger;
  maxSessions?: number;
  maxBodyBytes?: number;
  /** Close a session after this long with no request and no open stream. Default 30 minutes. */
  idleSessionMs?: number;
  /**
   * Answers POST /hook (the hook bridge); without it the route does not exist. Same token and guards as /mcp.
   * `signal` aborts when the hook process hangs up before the answer (it gave up: its deadline passed).
   */
  hookHandler?: HookHandler;
  /** Answers `/relay/*` (the approval relay between the windows of one workspace); same guards, then its own key. */
  relayHandler?: RelayHandler;
}

export type RelayHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

export type HookHandler = (body: unknown, signal: AbortSignal) => Promise<{ status: number; body: unknown }>;

export interface HttpMcpServer {
  port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  token: string;
  /** Live MCP sessions (for status displays and tests). */
  sessionCount(): number;
  /** The listener's bound address, as the OS reports it (always 127.0.0.1). */
  address(): AddressInfo;
  /** Closes every session transport, then the listener. */
  close(): Promise<void>;
}

const DEFAULTS = { maxSessions: 64, maxBodyBytes: MAX_REQUEST_BODY_BYTES, idleSessionMs: 30 * 60_000 };

/**
 * The governed tools over MCP Streamable HTTP for agents outside the extension host. It is reachable by every
 * local process and every web page the user opens, so each request is checked before the SDK sees it:
 * loopback only, Host and Origin (DNS rebinding, browsers), bearer token, then JSON content type and size.
 */
export async function startHttpMcpServer(options: HttpMcpServerOptions): Promise<HttpMcpServer> {
  const token = options.token ?? newBearerToken();
  if (token.length < 16) throw new Error('startHttpMcpServer: a given token must be at least 16 characters');
  const limits = {
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    idleSessionMs: options.idleSessionMs ?? DEFAULTS.idleSessionMs,
  };
  const logger = options.logger;
  const sessions = new McpHttpSessions({
    name: options.name,
    version: options.version,
    governorFor: options.governorFor ?? (() => options.governor),
    logger,
    maxSessions: limits.maxSessions,
    idleMs: limits.idleSessionMs,
  });
  const policy: HttpGuardPolicy = { port: 0, tokenDigest: tokenDigest(token), allowedOrigins: options.allowedOrigins ?? [] };

  const server = createServer((req, res) => {
    handle(req, res, { policy, sessions, maxBodyBytes: limits.maxBodyBytes, logger, hookHandler: options.hookHandler, relayHandler: options.relayHandler }).catch((error: unknown) => {
      logger.error(`MCP HTTP request failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, { status: 500, error: 'The governor failed to handle this request; see the Intent Governor log.' });
      else res.end();
    });
  });
  const port = await listen(server, options.port ?? 0, logger);
  policy.port = port;
  const reapIdle = () => sessions.closeIdle().catch((error: unknown) => logger.error(`closing idle MCP sessions failed: ${error instanceof Error ? error.message : String(error)}`));
  const reaper = setInterval(reapIdle, Math.max(50, Math.min(limits.idleSessionMs / 2, 60_000)));
  reaper.unref();
  const url = `http://${LOOPBACK}:${port}${MCP_PATH}`;
  logger.info(`MCP server listening on ${url}`);
  let closing: Promise<void> | undefined;

  return {
    port,
    url,
    token,
    sessionCount: () => sessions.size,
    address: () => server.address() as AddressInfo,
    close() {
      closing ??= (async () => {
        clearInterval(reaper);
        await sessions.closeAll();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // SSE streams and keep-alive sockets would hold close() open forever.
        server.closeAllConnections();
        await closed;
        logger.info(`MCP server on port ${port} stopped`);
      })();
      return closing;
    },
  };
}

/** Listens on the loopback interface only; a preferred port that is taken falls back to a random one. */
async function listen(server: HttpServer, port: number, logger: Logger): Promise<number> {
  const attempt = (p: number) =>
    new Promise<number>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      server.once('error', onError);
      server.listen({ host: LOOPBACK, port: p, exclusive: true }, () => {
        server.off('error', onError);
        resolve((server.address() as AddressInfo).port);
      });
    });
  try {
    return await attempt(port);
  } catch (error) {
    if (port === 0 || errnoOf(error) !== 'EADDRINUSE') throw error;
    logger.warn(`MCP port ${port} is in use; listening on a random free port instead (clients read it from the discovery file)`);
    return attempt(0);
  }
}

interface HandlerContext {
  policy: HttpGuardPolicy;
  sessions: McpHttpSessions;
  maxBodyBytes: number;
  logger: Logger;
  hookHandler?: HttpMcpServerOptions['hookHandler'];
  relayHandler?: RelayHandler;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: HandlerContext): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  const hook = path === HOOK_PATH && ctx.hookHandler !== undefined;
  const relay = path.startsWith('/relay/') && ctx.relayHandler !== undefined;
  const refusal = guardRequest({ method: req.method, path, headers: req.headers }, ctx.policy, hook ? HOOK_PATH : relay ? path : MCP_PATH);
  if (refusal) return refuseAndDiscard(req, res, refusal, ctx.logger);
  if (hook) return handleHook(req, res, ctx);
  if (relay) return ctx.relayHandler!(req, res, path);

  const sessionId = req.headers['mcp-session-id'];
  if (req.method !== 'POST') {
    // GET opens the server-to-client SSE stream, DELETE ends the session; both belong to an existing one.
    const session = typeof sessionId === 'string' ? ctx.sessions.get(sessionId) : undefined;
    if (!session) return refuseAndDiscard(req, res, unknownSession(sessionId), ctx.logger);
    return forward(session, req, res, undefined, ctx);
  }

  const body = await readJsonBody(req, ctx.maxBodyBytes);
  if (!body.ok) return refuseAndDiscard(req, res, body.refusal, ctx.logger);

  if (sessionId !== undefined) {
    const session = typeof sessionId === 'string' ? ctx.sessions.get(sessionId) : undefined;
    if (!session) return refuse(res, unknownSession(sessionId));
    return forward(session, req, res, body.value, ctx);
  }
  if (!isInitializeRequest(body.value)) {
    return refuse(res, { status: 400, error: 'No Mcp-Session-Id header: start a session with an initialize request first.' });
  }
  if (ctx.sessions.isFull()) {
    return refuse(res, { status: 503, error: 'Too many open MCP sessions; close unused clients (DELETE their session) and retry.' });
  }
  await ctx.sessions.initialize((transport) => transport.handleRequest(req, res, body.value));
}

async function handleHook(req: IncomingMessage, res: ServerResponse, ctx: HandlerContext): Promise<void> {
  if (req.method !== 'POST') return refuseAndDiscard(req, res, { status: 405, error: 'POST a hook request to /hook.', headers: { Allow: 'POST' } }, ctx.logger);
  const body = await readJsonBody(req, ctx.maxBodyBytes);
  if (!body.ok) return refuseAndDiscard(req, res, body.refusal, ctx.logger);
  // The response closing before it was written means the hook process is gone: nobody would act on an allow.
  const hungUp = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) hungUp.abort(new Error('the hook disconnected'));
  });
  const answer = await ctx.hookHandler!(body.value, hungUp.signal);
  if (hungUp.signal.aborted) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

function forward(session: McpHttpSession, req: IncomingMessage, res: ServerResponse, body: unknown, ctx: HandlerContext): Promise<void> {
  ctx.sessions.track(session, res);
  ctx.sessions.cancelOnHangUp(session, body, res);
  return session.transport.handleRequest(req, res, body);
}

function unknownSession(sessionId: string | string[] | undefined): HttpRefusal {
  if (sessionId === undefined) return { status: 400, error: 'Missing Mcp-Session-Id header; start a session with an initialize POST first.' };
  return { status: 404, error: 'Unknown or ended MCP session; start a new one with an initialize request (no Mcp-Session-Id).' };
}

type BodyResult = { ok: true; value: unknown } | { ok: false; refusal: HttpRefusal };

/**
 * Buffers at most `limit` bytes. A larger body (declared or actual) is refused as soon as it is known; what
 * still arrives is let through unbuffered so the 413 reaches the client (destroying the request would reset
 * the socket before it could read the answer).
 */
function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, refusal: { status: 413, error: `Request body larger than ${limit} bytes; send smaller tool inputs.` } };
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      resolve(tooLarge);
    };
    req.on('data', onData);
    req.on('end', () => resolve(parseJson(Buffer.concat(chunks))));
    // A client that hangs up mid-body gets no answer; this only settles the promise.
    req.on('close', () => resolve({ ok: false, refusal: { status: 400, error: 'The request body ended early.' } }));
  });
}

function parseJson(bytes: Buffer): BodyResult {
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) };
  } catch (error) {
    return { ok: false, refusal: { status: 400, error: `Body is not valid JSON (${error instanceof Error ? error.message : 'parse error'}); send a JSON-RPC message.` } };
  }
}

function refuse(res: ServerResponse, refusal: HttpRefusal): void {
  const body = JSON.stringify({ error: refusal.error });
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...refusal.headers });
  res.end(body);
}

/**
 * Answers a request whose body may not have been read. `Connection: close` ends the connection after the
 * answer, so a refused client cannot keep streaming into it; until then its upload is discarded, never buffered.
 */
function refuseAndDiscard(req: IncomingMessage, res: ServerResponse, refusal: HttpRefusal, logger: Logger): void {
  if (refusal.status === 401 || refusal.status === 403) logger.warn(`MCP HTTP ${req.method ?? ''} ${(req.url ?? '').split('?')[0].slice(0, 100)} refused ${refusal.status}: ${refusal.error}`);
  const complete = req.complete;
  refuse(res, complete ? refusal : { ...refusal, headers: { ...refusal.headers, Connection: 'close' } });
  if (!complete) req.resume();
}
