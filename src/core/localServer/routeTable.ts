import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { GuardedRequest, HttpRefusal, RouteVerdict } from './requestGuard';

/** POST carries a JSON body (read by the server before the route sees it); GET and DELETE carry none. */
export type RouteMethod = 'GET' | 'POST' | 'DELETE';

/** A request that passed the server's guards, as a route sees it. */
export interface LocalRequest {
  method: RouteMethod;
  /** The path without the query. */
  path: string;
  /** The whole URL, for query parameters. */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The Node request, for routes that hand it on (the MCP transport). */
  raw: IncomingMessage;
  /** A POST's JSON body, read and parsed under the route's cap; undefined for GET and DELETE. */
  body: unknown;
  /** Aborts when the client hangs up before the response is finished: nobody is left to act on the answer. */
  signal: AbortSignal;
}

/** An answer the server writes as JSON (no-store); a refusal's body is `{error}`. */
export interface LocalReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * What a feature contributes to the local server: an exact path, the methods it answers, and the handler. The
 * server has checked Host, Origin, the bearer token, the method and (for POST) the JSON content type, and has read
 * the body, before `handle` runs.
 */
export interface LocalRoute {
  /** Exact, without a query: `/mcp`, `/hook`, `/relay/events`. */
  path: string;
  methods: readonly RouteMethod[];
  /** The largest POST body this route takes (413 beyond it). Default: DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** The route's own check after the server's guards and before the body is read (the relay's key). */
  guard?(request: GuardedRequest): HttpRefusal | undefined;
  /** Returns the answer for the server to write (not written once the client hung up), or writes `res` itself and returns nothing. */
  handle(request: LocalRequest, res: ServerResponse): Promise<LocalReply | void> | LocalReply | void;
  /** The answer when `handle` throws before it wrote anything. Default: 500 with a pointer to the log. */
  failure?(error: unknown): LocalReply;
  /** Runs when the server closes, before the listener stops (sessions, timers). */
  close?(): Promise<void>;
}

/** A route's body cap when it names none: a few hundred bytes is what most requests are. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export const ROUTE_METHODS: readonly RouteMethod[] = ['GET', 'POST', 'DELETE'];

/** The answer to a route that throws, unless it says otherwise (the log has the details). */
export const HANDLER_FAILED: LocalReply = { status: 500, body: { error: 'The governor failed to handle this request; see the Intent Governor log.' } };

export function replyOf(refusal: HttpRefusal): LocalReply {
  return { status: refusal.status, body: { error: refusal.error }, headers: refusal.headers };
}

/** The local server's routes by exact path. A path has one route; registering it twice is a programming error. */
export class RouteTable {
  private readonly routes = new Map<string, LocalRoute>();

  /** Adds `route`; the function returned removes it again (requests to its path are then 404s). */
  register(route: LocalRoute): () => void {
    if (!route.path.startsWith('/') || route.path.includes('?')) throw new Error(`a route path is absolute and has no query: ${route.path}`);
    if (route.methods.length === 0 || route.methods.some((m) => !ROUTE_METHODS.includes(m))) throw new Error(`route ${route.path}: methods must be some of ${ROUTE_METHODS.join(', ')}`);
    if (this.routes.has(route.path)) throw new Error(`a route for ${route.path} is already registered`);
    this.routes.set(route.path, route);
    return () => {
      if (this.routes.get(route.path) === route) this.routes.delete(route.path);
    };
  }

  get(path: string): LocalRoute | undefined {
    return this.routes.get(path);
  }

  all(): LocalRoute[] {
    return [...this.routes.values()];
  }

  /**
   * The route for `path` and whether it takes `method`. A 404 names only `entryPath` (where the discovery file
   * sends clients), never the other routes: an unauthenticated caller learns nothing it did not already know.
   */
  lookup(method: string | undefined, path: string, entryPath: string | undefined): { route?: LocalRoute; verdict: RouteVerdict } {
    const route = this.routes.get(path);
    if (!route) {
      const error = entryPath === undefined ? 'Not found.' : `Not found; the endpoint is ${entryPath} (the URL in the discovery file).`;
      return { verdict: { notFound: { status: 404, error } } };
    }
    if ((route.methods as readonly string[]).includes(method ?? '')) return { route, verdict: {} };
    const allow = route.methods.join(', ');
    return { route, verdict: { wrongMethod: { status: 405, error: `Method ${method ?? ''} is not allowed on ${path}; use ${allow}.`, headers: { Allow: allow } } } };
  }
}
