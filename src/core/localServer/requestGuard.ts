import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A refusal the listener sends as `{error}`; the message says what to fix and never echoes a credential. */
export interface HttpRefusal {
  status: number;
  error: string;
  headers?: Record<string, string>;
}

/** What every request must satisfy to reach a route. */
export interface HttpGuardPolicy {
  port: number;
  /** SHA-256 of the bearer token: comparing digests keeps the comparison constant-time whatever the length sent. */
  tokenDigest: Buffer;
  /** Browser origins allowed to call (exact, case-insensitive). Empty: no browser page may. */
  allowedOrigins: readonly string[];
}

/** 256 bits from the CSPRNG, URL-safe so it survives headers and JSON config files unescaped. */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Constant-time token check. Both sides are hashed to 32 bytes first, so `timingSafeEqual` always compares
 * equal-length buffers and a token of the wrong length takes the same path as a wrong one: no early return
 * tells an attacker the length.
 */
export function bearerMatches(authorization: string | undefined, expectedDigest: Buffer): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  const sent = tokenDigest(match?.[1] ?? '');
  return timingSafeEqual(sent, expectedDigest) && match !== null;
}

/**
 * DNS rebinding defence: a page on evil.example that re-points its name at 127.0.0.1 still sends
 * `Host: evil.example`, so only our own loopback authority is accepted.
 */
export function checkHost(host: string | undefined, port: number): HttpRefusal | undefined {
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (host !== undefined && allowed.includes(host.toLowerCase())) return undefined;
  return { status: 403, error: `Host header must be one of ${allowed.join(', ')}; connect to the URL in the discovery file.` };
}

/**
 * Browsers always send Origin on cross-origin requests; MCP clients (Node, Electron main, CLIs) send none.
 * So: absent is a non-browser client, `null` is a sandboxed or file:// page, anything else must be listed.
 */
export function checkOrigin(origin: string | undefined, allowedOrigins: readonly string[]): HttpRefusal | undefined {
  if (origin === undefined) return undefined;
  const listed = allowedOrigins.some((o) => o.toLowerCase() === origin.toLowerCase());
  if (origin !== 'null' && listed) return undefined;
  return { status: 403, error: 'Requests from web pages are refused: this server is for local MCP clients, which send no Origin header.' };
}

export function checkAuth(authorization: string | undefined, expectedDigest: Buffer): HttpRefusal | undefined {
  if (bearerMatches(authorization, expectedDigest)) return undefined;
  return {
    status: 401,
    error: 'Missing or wrong bearer token. Send "Authorization: Bearer <token>" with the token from the file named for the workspace folder in ~/.intent-governor/servers/ (<folder>-<hash>.json; or the extension\'s "Connect an agent" command).',
    headers: { 'WWW-Authenticate': 'Bearer realm="intent-governor"' },
  };
}

/** `application/json`, any parameters (`; charset=utf-8`), any case. */
export function checkJsonContentType(contentType: string | undefined): HttpRefusal | undefined {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (media === 'application/json') return undefined;
  return { status: 415, error: 'POST bodies must be JSON-RPC sent as Content-Type: application/json.' };
}

/** The parts of a request the guard looks at (all of it before the body is read). */
export interface GuardedRequest {
  method: string | undefined;
  path: string;
  headers: IncomingHttpHeaders;
}

/** What the route table said of the request's path and method: no route (404), not this method (405), or neither. */
export interface RouteVerdict {
  notFound?: HttpRefusal;
  wrongMethod?: HttpRefusal;
}

/**
 * Every check a request passes before a route sees it, in order: where it comes from (Host, Origin), where
 * it goes (an unknown path is a 404 even without a token: it holds nothing, and OAuth discovery probes learn
 * there is no login to start), who sends it (token), then how (the route's methods, JSON content type).
 */
export function guardRequest(request: GuardedRequest, policy: HttpGuardPolicy, route: RouteVerdict): HttpRefusal | undefined {
  const { headers } = request;
  return (
    checkHost(headers.host, policy.port) ??
    checkOrigin(headers.origin, policy.allowedOrigins) ??
    route.notFound ??
    checkAuth(headers.authorization, policy.tokenDigest) ??
    route.wrongMethod ??
    (request.method === 'POST' ? checkJsonContentType(headers['content-type']) : undefined)
  );
}
