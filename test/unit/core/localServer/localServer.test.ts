import { strict as assert } from 'node:assert';
import { request, type IncomingHttpHeaders } from 'node:http';
import type { BridgeAnswer } from '../../../../src/core/agents/common/nativeCall';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import { startLocalServer, type LocalServer } from '../../../../src/core/localServer/localServer';
import { DEFAULT_MAX_BODY_BYTES, RouteTable, type LocalRequest, type LocalRoute } from '../../../../src/core/localServer/routeTable';
import { RecordingLogger } from '../../../support/governorHarness';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json: { error?: string } & Record<string, unknown>;
}

interface Raw {
  method?: string;
  path?: string;
  /** Overrides the valid defaults; `undefined` removes a header. */
  headers?: Record<string, string | undefined>;
  body?: string | Buffer;
}

/** One request with full control of the headers, valid unless told otherwise (token, Host, JSON). */
function raw(server: LocalServer, options: Raw = {}): Promise<Answer> {
  const method = options.method ?? 'POST';
  const body = options.body ?? (method === 'POST' ? '{}' : '');
  const defaults: Record<string, string | undefined> = {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${server.token}`,
    'content-type': method === 'POST' ? 'application/json' : undefined,
    'content-length': String(Buffer.byteLength(body)),
  };
  const merged = { ...defaults, ...options.headers };
  const headers = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path: options.path ?? '/a', headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Answer['json'] = {};
        try {
          json = JSON.parse(text) as Answer['json'];
        } catch {
          // a streamed or empty answer
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(body);
  });
}

/** A route that records what reached it and answers `{ok, path, body}`. */
function echo(path: string, methods: LocalRoute['methods'], seen: LocalRequest[], extra: Partial<LocalRoute> = {}): LocalRoute {
  return {
    path,
    methods,
    handle(request) {
      seen.push(request);
      return { status: 200, body: { ok: true, path: request.path, body: request.body ?? null, q: request.url.searchParams.get('q') } };
    },
    ...extra,
  };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('local server: one loopback server with a route table', function () {
  this.timeout(20_000);
  let logger: RecordingLogger;
  let server: LocalServer;
  let seen: LocalRequest[];

  beforeEach(async () => {
    logger = new RecordingLogger();
    seen = [];
    server = await startLocalServer({ logger, entryPath: '/a', routes: [echo('/a', ['POST', 'GET', 'DELETE'], seen), echo('/b', ['POST'], seen)] });
  });
  afterEach(async () => {
    await server.close();
  });

  describe('registration', () => {
    it('serves the routes it started with, by exact path, with the JSON body and the query', async () => {
      const a = await raw(server, { path: '/a?q=1', body: '{"x":1}' });
      assert.equal(a.status, 200, a.body);
      assert.deepEqual(a.json, { ok: true, path: '/a', body: { x: 1 }, q: '1' });
      assert.equal((await raw(server, { path: '/b' })).status, 200);
      const get = await raw(server, { method: 'GET', path: '/a' });
      assert.deepEqual([get.status, get.json.body], [200, null], 'a GET carries no body');
      assert.match(String(a.headers['content-type']), /application\/json/);
      assert.equal(a.headers['cache-control'], 'no-store');
      assert.equal((await raw(server, { path: '/a/' })).status, 404, 'exact paths only');
    });

    it('takes routes registered later, and 404s them again once they are removed', async () => {
      assert.equal((await raw(server, { path: '/late' })).status, 404);
      const remove = server.register(echo('/late', ['POST'], seen));
      assert.equal((await raw(server, { path: '/late' })).status, 200);
      remove();
      assert.equal((await raw(server, { path: '/late' })).status, 404);
    });

    it('refuses a second route for a path, a path with a query or no leading slash, and unknown methods', () => {
      assert.throws(() => server.register(echo('/a', ['GET'], seen)), /already registered/);
      assert.throws(() => server.register(echo('c', ['GET'], seen)), /absolute/);
      assert.throws(() => server.register(echo('/c?x', ['GET'], seen)), /no query/);
      assert.throws(() => server.register(echo('/c', ['PUT' as 'GET'], seen)), /methods/);
      assert.throws(() => server.register(echo('/c', [], seen)), /methods/);
    });

    it('announces its entry path as the URL (what the discovery file holds) and listens on loopback only', () => {
      assert.equal(server.url, `http://127.0.0.1:${server.port}/a`);
      assert.equal(server.origin, `http://127.0.0.1:${server.port}`);
      assert.equal(server.address().address, '127.0.0.1');
    });

    it('looks routes up in the table on its own: 404 naming only the entry path, 405 with the route’s methods', () => {
      const table = new RouteTable();
      table.register(echo('/hook', ['POST'], seen));
      table.register(echo('/x', ['GET', 'DELETE'], seen));
      const missing = table.lookup('POST', '/nope', '/mcp').verdict.notFound;
      assert.equal(missing?.status, 404);
      assert.match(missing!.error, /\/mcp/);
      assert.doesNotMatch(missing!.error, /hook|\/x/, 'other routes are not advertised');
      assert.equal(table.lookup('GET', '/hook', '/mcp').verdict.wrongMethod?.headers?.Allow, 'POST');
      assert.equal(table.lookup('POST', '/x', '/mcp').verdict.wrongMethod?.headers?.Allow, 'GET, DELETE');
      assert.deepEqual(table.lookup('DELETE', '/x', '/mcp').verdict, {});
    });
  });

  describe('unknown paths and wrong methods', () => {
    it('answers an unknown path 404 even without a token, naming the entry path', async () => {
      const res = await raw(server, { path: '/.well-known/oauth-protected-resource', method: 'GET', headers: { authorization: undefined } });
      assert.equal(res.status, 404);
      assert.match(res.json.error ?? '', /\/a/);
    });

    it('answers a method the route does not take 405 with Allow, but only to a client with the token', async () => {
      const get = await raw(server, { method: 'GET', path: '/b' });
      assert.equal(get.status, 405);
      assert.equal(get.headers.allow, 'POST');
      assert.match(get.json.error ?? '', /GET is not allowed on \/b; use POST/);
      const put = await raw(server, { method: 'PUT', path: '/a' });
      assert.equal(put.status, 405);
      assert.equal(put.headers.allow, 'POST, GET, DELETE');
      assert.equal((await raw(server, { method: 'GET', path: '/b', headers: { authorization: undefined } })).status, 401);
      assert.equal(seen.length, 0);
    });
  });

  describe('the guard applies to every route', () => {
    const refusals: { name: string; req: (server: LocalServer) => Raw; status: number }[] = [
      { name: 'no token', req: () => ({ headers: { authorization: undefined } }), status: 401 },
      { name: 'a wrong token', req: (s) => ({ headers: { authorization: `Bearer ${s.token}x` } }), status: 401 },
      { name: 'a forged Host', req: (s) => ({ headers: { host: `evil.example:${s.port}` } }), status: 403 },
      { name: 'a web page Origin', req: () => ({ headers: { origin: 'https://evil.example' } }), status: 403 },
      { name: 'a POST that is not JSON', req: () => ({ headers: { 'content-type': 'text/plain' } }), status: 415 },
    ];
    for (const row of refusals) {
      it(`refuses ${row.name} with ${row.status} on each route, the late and the hook route too, before any handler runs`, async () => {
        server.register(echo('/late', ['POST'], seen));
        server.register(hookRoute({ handle: async () => assert.fail('the bridge must not be reached') }));
        for (const path of ['/a', '/b', '/late', '/hook']) {
          const res = await raw(server, { path, ...row.req(server) });
          assert.equal(res.status, row.status, `${path}: ${res.body}`);
          assert.equal(typeof res.json.error, 'string');
          assert.ok(!res.body.includes(server.token), 'a refusal never echoes the token');
        }
        assert.equal(seen.length, 0);
      });
    }

    it("runs a route's own guard after the server's and before its body is read", async () => {
      const own: LocalRoute = echo('/keyed', ['POST'], seen, { guard: (r) => (r.headers['x-key'] === 'k' ? undefined : { status: 403, error: 'wrong key' }) });
      server.register(own);
      assert.equal((await raw(server, { path: '/keyed', headers: { authorization: undefined, 'x-key': 'k' } })).status, 401, 'the token first');
      const refused = await raw(server, { path: '/keyed', body: '{not json' });
      assert.deepEqual([refused.status, refused.json.error], [403, 'wrong key'], 'the key before the body');
      assert.equal((await raw(server, { path: '/keyed', headers: { 'x-key': 'k' } })).status, 200);
      assert.equal(seen.length, 1);
    });
  });

  describe('bodies', () => {
    it("caps a POST body at the route's limit (64 KB unless it says), and refuses a body that is not JSON", async () => {
      server.register(echo('/big', ['POST'], seen, { maxBodyBytes: 2 * DEFAULT_MAX_BODY_BYTES }));
      const over = JSON.stringify({ pad: 'x'.repeat(DEFAULT_MAX_BODY_BYTES) });
      assert.equal((await raw(server, { path: '/b', body: over })).status, 413);
      assert.equal((await raw(server, { path: '/big', body: over })).status, 200);
      const broken = await raw(server, { path: '/b', body: '{"x":' });
      assert.equal(broken.status, 400);
      assert.match(broken.json.error ?? '', /not valid JSON/);
      assert.equal(seen.length, 1);
    });
  });

  describe('a handler that throws', () => {
    it('is a 500 by default, thrown or rejected, and the error is logged', async () => {
      server.register({ path: '/sync', methods: ['POST'], handle: () => { throw new Error('boom sync'); } });
      server.register({ path: '/async', methods: ['GET'], handle: async () => { throw new Error('boom async'); } });
      const sync = await raw(server, { path: '/sync' });
      const async_ = await raw(server, { method: 'GET', path: '/async' });
      for (const res of [sync, async_]) {
        assert.equal(res.status, 500);
        assert.match(res.json.error ?? '', /see the Intent Governor log/);
      }
      assert.ok(logger.lines.some((l) => l.startsWith('error POST /sync failed') && l.includes('boom sync')));
      assert.ok(logger.lines.some((l) => l.startsWith('error GET /async failed') && l.includes('boom async')));
      assert.equal((await raw(server, { path: '/b' })).status, 200, 'the server keeps serving');
    });

    it("is the route's failure answer when it has one: /hook denies (fail closed)", async () => {
      server.register(hookRoute({ handle: async () => { throw new Error('the bridge broke'); } }));
      const call = { phase: 'pre', session_id: 'claude:s', key: 'claude:s:1', agent: { name: 'claude-code' }, calls: [{ tool: 'run_command', input: { command: 'ls' } }] };
      const denied = await raw(server, { path: '/hook', body: JSON.stringify(call) });
      assert.equal(denied.status, 200);
      assert.equal(denied.json.decision, 'deny');
      assert.match(String(denied.json.reason), /fail closed/);
      assert.ok(logger.lines.some((l) => l.startsWith('error POST /hook failed') && l.includes('the bridge broke')));
      const malformed = await raw(server, { path: '/hook', body: '{"phase":"pre"}' });
      assert.equal(malformed.status, 400, 'a malformed hook request is still the client’s error');
    });

    it('ends a response it had already started instead of answering twice', async () => {
      server.register({
        path: '/half',
        methods: ['GET'],
        handle: async (_request, res) => {
          res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
          res.write('{"a":1}\n');
          throw new Error('mid-stream');
        },
      });
      const res = await raw(server, { method: 'GET', path: '/half' });
      assert.deepEqual([res.status, res.body], [200, '{"a":1}\n']);
    });
  });

  describe('a client that hangs up', () => {
    it("aborts the request's signal, and no answer is written", async () => {
      let signal: AbortSignal | undefined;
      let release!: (answer: BridgeAnswer) => void;
      server.register({
        path: '/slow',
        methods: ['POST'],
        handle: async (request) => {
          signal = request.signal;
          return { status: 200, body: await new Promise<BridgeAnswer>((resolve) => (release = resolve)) };
        },
      });
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/slow', agent: false, headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', 'content-length': '2' } });
      req.on('error', () => undefined); // we hang up on purpose
      req.end('{}');
      await eventually(() => signal !== undefined, 'the handler to start');
      assert.equal(signal!.aborted, false);
      req.destroy();
      await eventually(() => signal!.aborted, 'the signal to abort');
      release({ decision: 'allow' });
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(logger.lines.filter((l) => l.startsWith('error')), [], 'writing nothing to a gone client is no error');
    });
  });

  describe('closing', () => {
    it("closes every route before the listener stops, once however often it is called; then refuses to register", async () => {
      const order: string[] = [];
      server.register({ ...echo('/c', ['GET'], seen), close: async () => void order.push('route /c') });
      await Promise.all([server.close(), server.close()]);
      order.push('closed');
      assert.deepEqual(order, ['route /c', 'closed']);
      await assert.rejects(raw(server, { path: '/a' }), /ECONNREFUSED/);
      assert.throws(() => server.register(echo('/d', ['GET'], seen)), /closed/);
    });

    it('closes the routes it was given when it cannot start', async () => {
      let closed = 0;
      await assert.rejects(startLocalServer({ logger, token: 'short', routes: [{ ...echo('/x', ['GET'], seen), close: async () => void closed++ }] }), /at least 16/);
      assert.equal(closed, 1);
    });
  });
});
