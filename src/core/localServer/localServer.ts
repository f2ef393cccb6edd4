import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errnoOf } from '../ioError';
import type { Logger } from '../logger';
import { guardRequest, newBearerToken, tokenDigest, type HttpGuardPolicy, type HttpRefusal } from './requestGuard';
import { DEFAULT_MAX_BODY_BYTES, HANDLER_FAILED, replyOf, RouteTable, type LocalReply, type LocalRequest, type LocalRoute, type RouteMethod } from './routeTable';

const LOOPBACK = '127.0.0.1';

export interface LocalServerOptions {
  logger: Logger;
  /** Reuse a token (clients configured earlier keep working); default: 256 fresh random bits. */
  token?: string;
  /** Preferred port; taken if free, otherwise a random free one. Default: random. */
  port?: number;
  /** Browser origins allowed to call, e.g. a trusted web client. Default none. */
  allowedOrigins?: string[];
  /** The path the discovery file sends clients to (the MCP endpoint): `url` ends with it and a 404 names it. */
  entryPath?: string;
  /**
   * Routes served from the first request on (more may be registered later). The server owns them: it closes them
   * when it closes, and when it fails to start.
   */
  routes?: readonly LocalRoute[];
}

/** The one loopback server of a window (or a test): a route table behind one token and one set of guards. */
export interface LocalServer {
  port: number;
  token: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port><entryPath>`: what the discovery file announces. */
  url: string;
  /** Adds a route (a path may have one); the function returned removes it. The server closes it when it closes. */
  register(route: LocalRoute): () => void;
  /** The listener's bound address, as the OS reports it (always 127.0.0.1). */
  address(): AddressInfo;
  /** Closes every route (sessions, streams' owners), then the listener and its connections. Once. */
  close(): Promise<void>;
}

/**
 * Starts the local server. It is reachable by every local process and every web page the user opens, so each
 * request is checked before any route sees it: loopback only, Host and Origin (DNS rebinding, browsers), a known
 * path, the bearer token, the route's methods, JSON content type, then the route's own guard and its body cap.
 * A route that throws gets its `failure` answer (500 unless it says otherwise); a client that hangs up aborts the
 * request's signal.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const given = options.routes ?? [];
  try {
    return await start(options, given);
  } catch (error) {
    await Promise.all(given.map((route) => route.close?.().catch(() => undefined)));
    throw error;
  }
}

async function start(options: LocalServerOptions, given: readonly LocalRoute[]): Promise<LocalServer> {
  const token = options.token ?? newBearerToken();
  if (token.length < 16) throw new Error('startLocalServer: a given token must be at least 16 characters');
  const logger = options.logger;
  const table = new RouteTable();
  for (const route of given) table.register(route);
  const policy: HttpGuardPolicy = { port: 0, tokenDigest: tokenDigest(token), allowedOrigins: options.allowedOrigins ?? [] };
  const owned = new Set<LocalRoute>(given);

  const server = createServer((req, res) => void dispatch(req, res, { table, policy, logger, entryPath: options.entryPath }));
  const port = await listen(server, options.port ?? 0, logger);
  policy.port = port;
  const origin = `http://${LOOPBACK}:${port}`;
  logger.info(`local server listening on ${origin} (${table.all().map((r) => r.path).join(', ') || 'no routes yet'})`);
  let closing: Promise<void> | undefined;

  return {
    port,
    token,
    origin,
    url: `${origin}${options.entryPath ?? ''}`,
    register(route) {
      if (closing) throw new Error(`cannot register ${route.path}: the local server is closed`);
      const unregister = table.register(route);
      owned.add(route);
      return () => {
        unregister();
        owned.delete(route);
      };
    },
    address: () => server.address() as AddressInfo,
    close() {
      closing ??= (async () => {
        await Promise.all(
          [...owned].map((route) =>
            route.close?.().catch((error: unknown) => logger.error(`closing the route ${route.path} failed: ${error instanceof Error ? error.message : String(error)}`)),
          ),
        );
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Streams (SSE, the relay's) and keep-alive sockets would hold close() open forever.
        server.closeAllConnections();
        await closed;
        logger.info(`local server on port ${port} stopped`);
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
    logger.warn(`port ${port} is in use; listening on a random free port instead (clients read it from the discovery file)`);
    return attempt(0);
  }
}

interface DispatchContext {
  table: RouteTable;
  policy: HttpGuardPolicy;
  logger: Logger;
  entryPath: string | undefined;
}

/** Guards, body, route; never rejects: whatever goes wrong is the route's failure answer or the connection's end. */
async function dispatch(req: IncomingMessage, res: ServerResponse, ctx: DispatchContext): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  // The response closing before it was written means the client is gone: nobody would act on the answer.
  const hungUp = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) hungUp.abort(new Error('the client disconnected'));
  });
  const { route, verdict } = ctx.table.lookup(req.method, path, ctx.entryPath);
  const guarded = { method: req.method, path, headers: req.headers };
  const refusal = guardRequest(guarded, ctx.policy, verdict);
  if (refusal || !route) return refuseAndDiscard(req, res, refusal ?? verdict.notFound!, ctx.logger);

  const method = req.method as RouteMethod;
  try {
    // The route's own refusal (the relay's key) is its to log.
    const own = route.guard?.(guarded);
    if (own) return send(req, res, replyOf(own));
    let body: unknown;
    if (method === 'POST') {
      const read = await readJsonBody(req, route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      if (hungUp.signal.aborted) return;
      if (!read.ok) return refuseAndDiscard(req, res, read.refusal, ctx.logger);
      body = read.value;
    }
    const request: LocalRequest = { method, path, url: new URL(req.url ?? '/', `http://${LOOPBACK}`), headers: req.headers, raw: req, body, signal: hungUp.signal };
    const reply = await route.handle(request, res);
    if (reply && !hungUp.signal.aborted) send(req, res, reply);
  } catch (error) {
    ctx.logger.error(`${method} ${path} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    if (hungUp.signal.aborted) return;
    if (!res.headersSent) send(req, res, failureOf(route, error, ctx.logger));
    else res.end();
  }
}

function failureOf(route: LocalRoute, error: unknown, logger: Logger): LocalReply {
  if (!route.failure) return HANDLER_FAILED;
  try {
    return route.failure(error);
  } catch (failed) {
    logger.error(`the failure answer of ${route.path} failed too: ${failed instanceof Error ? failed.message : String(failed)}`);
    return HANDLER_FAILED;
  }
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

/**
 * Writes `reply` as JSON. A request whose body was not read to the end gets `Connection: close`, so a refused
 * client cannot keep streaming into the connection; until it ends, its upload is discarded, never buffered.
 */
function send(req: IncomingMessage, res: ServerResponse, reply: LocalReply): void {
  const text = JSON.stringify(reply.body);
  const complete = req.complete;
  res.writeHead(reply.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...reply.headers,
    ...(complete ? {} : { Connection: 'close' }),
  });
  res.end(text);
  if (!complete) req.resume();
}

function refuseAndDiscard(req: IncomingMessage, res: ServerResponse, refusal: HttpRefusal, logger: Logger): void {
  if (refusal.status === 401 || refusal.status === 403) logger.warn(`HTTP ${req.method ?? ''} ${(req.url ?? '').split('?')[0].slice(0, 100)} refused ${refusal.status}: ${refusal.error}`);
  send(req, res, replyOf(refusal));
}
