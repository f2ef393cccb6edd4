import type { ServerResponse } from 'node:http';
import { bearerMatches, tokenDigest, type GuardedRequest, type HttpRefusal } from '../localServer/requestGuard';
import type { LocalReply, LocalRequest, LocalRoute } from '../localServer/routeTable';
import type { Logger } from '../logger';
import { pickFrom, sessionActionFrom, type SessionAction, type SessionsSnapshot } from '../sessions/workspaceSessions';
import { decisionFrom, isWindowId, RELAY_ANSWER_PATH, RELAY_EVENTS_PATH, RELAY_FOCUS_PATH, RELAY_HEARTBEAT_MS, RELAY_INTENT_PATH, RELAY_KEY_HEADER, RELAY_SESSION_PATH, type RelayEvent } from './relayProtocol';
import type { WindowApprovalRouter } from './windowApprovalRouter';

/** The serving window's agent sessions and the person's pick, shared with the other windows. */
export interface RelayedSessions {
  snapshot(): SessionsSnapshot;
  actHere(action: SessionAction): boolean;
  pickHere(intentId: string | undefined): void;
}

/**
 * The relay's routes on the serving window's local server (`/relay/*`), behind its Host/Origin/token guard. Each
 * checks the relay key on top of the token, before the body is read: agents get the token, only windows get the
 * key. Focus reports and answers are a few hundred bytes: the server's default body cap holds them.
 */
export function relayRoutes(router: WindowApprovalRouter, relayKey: string, logger: Logger, sessions?: RelayedSessions, heartbeatMs = RELAY_HEARTBEAT_MS): LocalRoute[] {
  const keyDigest = tokenDigest(relayKey);
  const guard = (request: GuardedRequest): HttpRefusal | undefined => {
    const key = request.headers[RELAY_KEY_HEADER];
    if (bearerMatches(`Bearer ${typeof key === 'string' ? key : ''}`, keyDigest)) return undefined;
    logger.warn(`relay ${request.path} refused: wrong or missing relay key`);
    return { status: 403, error: 'Wrong or missing relay key: only the VS Code windows of this workspace may use the relay.' };
  };
  /** A POST route whose body names the window it comes from. */
  const post = (path: string, answer: (v: Record<string, unknown> & { window: string }) => LocalReply): LocalRoute => ({
    path,
    methods: ['POST'],
    guard,
    handle({ body }: LocalRequest) {
      const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (!isWindowId(v.window)) return reply(400, { error: 'Send {"window": "<id>", ...} as JSON.' });
      return answer(v as Record<string, unknown> & { window: string });
    },
  });
  const routes: LocalRoute[] = [
    { path: RELAY_EVENTS_PATH, methods: ['GET'], guard, handle: ({ url }, res) => stream(router, url, res, sessions, heartbeatMs) },
    post(RELAY_FOCUS_PATH, (v) => {
      router.focus(v.window, v.focused === true);
      return reply(200, { ok: true });
    }),
    post(RELAY_ANSWER_PATH, (v) => {
      if (typeof v.id !== 'string') return reply(400, { error: 'An answer needs the id of the request it answers.' });
      const taken = router.answer(v.window, v.id, decisionFrom(v.decision));
      return taken ? reply(200, { ok: true }) : reply(410, { error: 'That request is no longer waiting for this window (cancelled or answered).' });
    }),
  ];
  if (!sessions) return routes;
  return [
    ...routes,
    post(RELAY_SESSION_PATH, (v) => {
      const action = sessionActionFrom(v);
      if (!action) return reply(400, { error: 'Send {"window", "action": "unbind"|"end"|"revoke", "session", "intent" (for revoke)} as JSON.' });
      const done = sessions.actHere(action);
      logger.info(`${action.action} of session ${action.session} from window ${v.window}: ${done ? 'done' : 'no such live session'}`);
      return done ? reply(200, { ok: true }) : reply(410, { error: 'That agent session has ended.' });
    }),
    post(RELAY_INTENT_PATH, (v) => {
      const pick = pickFrom(v);
      if (!pick) return reply(400, { error: 'Send {"window", "intent": "<intent id>" | null} as JSON.' });
      sessions.pickHere(pick.intent);
      logger.info(`intent ${pick.intent ?? '(none)'} picked in window ${v.window}`);
      return reply(200, { ok: true });
    }),
  ];
}

/** One window's event stream: attached while the response is open, detached the moment it closes. */
function stream(router: WindowApprovalRouter, url: URL, res: ServerResponse, sessions: RelayedSessions | undefined, heartbeatMs: number): LocalReply | undefined {
  const id = url.searchParams.get('window');
  if (!isWindowId(id)) return reply(400, { error: 'Open the event stream with ?window=<id>.' });
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
  const send = (event: RelayEvent) => {
    if (res.writableEnded || res.destroyed) throw new Error('the window is gone');
    res.write(`${JSON.stringify(event)}\n`);
  };
  const detach = router.attach(id, { send }, url.searchParams.get('focused') === '1');
  // The response, not the request: a GET's request 'close' fires once its (empty) body is read.
  // A human may look at a question for longer than the client's fetch waits for a silent body.
  const heartbeat = setInterval(() => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify({ type: 'heartbeat' } satisfies RelayEvent)}\n`);
  }, heartbeatMs);
  heartbeat.unref();
  res.once('close', () => {
    clearInterval(heartbeat);
    detach();
  });
  send({ type: 'ready' });
  if (sessions) send({ type: 'sessions', snapshot: sessions.snapshot() });
}

function reply(status: number, body: unknown): LocalReply {
  return { status, body };
}
