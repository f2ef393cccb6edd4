import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayHandler } from '../mcp/httpMcpServer';
import { bearerMatches, tokenDigest } from '../mcp/httpRequestGuard';
import type { Logger } from '../logger';
import { pickFrom, sessionActionFrom, type SessionAction, type SessionsSnapshot } from '../sessions/workspaceSessions';
import { decisionFrom, isWindowId, RELAY_ANSWER_PATH, RELAY_EVENTS_PATH, RELAY_FOCUS_PATH, RELAY_HEARTBEAT_MS, RELAY_INTENT_PATH, RELAY_KEY_HEADER, RELAY_SESSION_PATH, type RelayEvent } from './relayProtocol';
import type { WindowApprovalRouter } from './windowApprovalRouter';

/** Focus reports and answers are a few hundred bytes; nothing bigger is one. */
const MAX_BODY_BYTES = 64 * 1024;

/** The serving window's agent sessions and the person's pick, shared with the other windows. */
export interface RelayedSessions {
  snapshot(): SessionsSnapshot;
  actHere(action: SessionAction): boolean;
  pickHere(intentId: string | undefined): void;
}

/**
 * The relay's HTTP side, mounted on the serving window's loopback server after its Host/Origin/token guard.
 * The relay key is checked here on top of the MCP token: agents get the token, only windows get the key.
 */
export function relayRoutes(router: WindowApprovalRouter, relayKey: string, logger: Logger, sessions?: RelayedSessions, heartbeatMs = RELAY_HEARTBEAT_MS): RelayHandler {
  const keyDigest = tokenDigest(relayKey);
  return async (req, res, path) => {
    const key = req.headers[RELAY_KEY_HEADER];
    if (!bearerMatches(`Bearer ${typeof key === 'string' ? key : ''}`, keyDigest)) {
      logger.warn(`relay ${path} refused: wrong or missing relay key`);
      return reply(res, 403, { error: 'Wrong or missing relay key: only the VS Code windows of this workspace may use the relay.' });
    }
    const url = new URL(req.url ?? '', 'http://127.0.0.1');
    if (path === RELAY_EVENTS_PATH && req.method === 'GET') return stream(router, url, res, sessions, heartbeatMs);
    const routes = sessions ? [RELAY_FOCUS_PATH, RELAY_ANSWER_PATH, RELAY_SESSION_PATH, RELAY_INTENT_PATH] : [RELAY_FOCUS_PATH, RELAY_ANSWER_PATH];
    if (req.method !== 'POST' || !routes.includes(path)) return reply(res, 404, { error: `No relay route ${req.method ?? ''} ${path}.` });
    const body = await readBody(req);
    const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (!isWindowId(v.window)) return reply(res, 400, { error: 'Send {"window": "<id>", ...} as JSON.' });
    if (path === RELAY_FOCUS_PATH) {
      router.focus(v.window, v.focused === true);
      return reply(res, 200, { ok: true });
    }
    if (path === RELAY_SESSION_PATH && sessions) {
      const action = sessionActionFrom(v);
      if (!action) return reply(res, 400, { error: 'Send {"window", "action": "unbind"|"end"|"revoke", "session", "intent" (for revoke)} as JSON.' });
      const done = sessions.actHere(action);
      logger.info(`${action.action} of session ${action.session} from window ${v.window}: ${done ? 'done' : 'no such live session'}`);
      return reply(res, done ? 200 : 410, done ? { ok: true } : { error: 'That agent session has ended.' });
    }
    if (path === RELAY_INTENT_PATH && sessions) {
      const pick = pickFrom(v);
      if (!pick) return reply(res, 400, { error: 'Send {"window", "intent": "<intent id>" | null} as JSON.' });
      sessions.pickHere(pick.intent);
      logger.info(`intent ${pick.intent ?? '(none)'} picked in window ${v.window}`);
      return reply(res, 200, { ok: true });
    }
    if (typeof v.id !== 'string') return reply(res, 400, { error: 'An answer needs the id of the request it answers.' });
    const taken = router.answer(v.window, v.id, decisionFrom(v.decision));
    return reply(res, taken ? 200 : 410, taken ? { ok: true } : { error: 'That request is no longer waiting for this window (cancelled or answered).' });
  };
}

/** One window's event stream: attached while the response is open, detached the moment it closes. */
function stream(router: WindowApprovalRouter, url: URL, res: ServerResponse, sessions: RelayedSessions | undefined, heartbeatMs: number): void {
  const id = url.searchParams.get('window');
  if (!isWindowId(id)) return reply(res, 400, { error: 'Open the event stream with ?window=<id>.' });
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

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}
