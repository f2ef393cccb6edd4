import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BridgeAnswer, BridgeRequest } from '../../../../src/core/agents/common/nativeCall';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import { startHttpMcpServer, type HttpMcpServer, type HttpMcpServerOptions } from '../../../../src/core/mcp/httpMcpServer';
import { MAX_REQUEST_BODY_BYTES } from '../../../../src/core/tools/requestBodyCap';
import { MAX_CONTENT_CHARS } from '../../../../src/core/tools/toolInput';
import { createHarness, type Harness } from '../../../support/governorHarness';

const LOGIN = 'export function login() {\n  return true;\n}\n';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-http', version: '1.0.0' } },
});

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

async function connect(server: HttpMcpServer, name = 'http-test-agent'): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function errorCode(result: unknown): string | undefined {
  const r = result as CallToolResult;
  return r.isError ? JSON.parse(text({ content: [r.content[0]] })).code : undefined;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface RawRequest {
  method?: string;
  path?: string;
  /** Overrides the valid defaults; `undefined` removes a header. */
  headers?: Record<string, string | undefined>;
  body?: string | Buffer;
  /** Stream the body without Content-Length (chunked). */
  chunked?: boolean;
  host?: string;
}

/** One HTTP request with full control of the headers (Host included), starting from a valid initialize POST. */
function raw(server: HttpMcpServer, options: RawRequest = {}): Promise<RawResponse> {
  const body = options.body ?? INITIALIZE;
  const defaults: Record<string, string | undefined> = {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${server.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': options.chunked ? undefined : String(Buffer.byteLength(body)),
  };
  const merged = { ...defaults, ...options.headers };
  const headers = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve, reject) => {
    const req = request({ host: options.host ?? '127.0.0.1', port: server.port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The server may answer and close before the whole body is sent: the answer is what we assert.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (options.method === 'GET' || options.method === 'DELETE') req.end();
    else req.end(body);
  });
}

async function eventually(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function nonLoopbackIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;
}

describe('HTTP MCP server', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  const clients: Connected[] = [];
  const start = (extra: Partial<HttpMcpServerOptions> = {}) =>
    startHttpMcpServer({ governor: h.governor, name: 'intent-governor', version: 'test', logger: h.logger, ...extra });

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    server = await start();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.client.close().catch(() => undefined);
    await server.close();
    await h.dispose();
    assert.deepEqual(h.logger.lines.filter((l) => l.startsWith('error')), [], 'no request crashed the handler');
  });

  describe('a real MCP client with the bearer token', () => {
    it('lists the governed tools', async () => {
      const c = await connect(server);
      clients.push(c);
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['delete_file', 'edit_file', 'list_files', 'list_intents', 'read_file', 'request_scope_expansion', 'run_command', 'select_active_intent', 'write_file']);
    });

    it('selects an intent, is refused out of scope, reads a file and writes it', async () => {
      const c = await connect(server);
      clients.push(c);
      assert.match(text(await c.client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /Keep the public login\(\) signature/);
      const outside = await c.client.callTool({ name: 'write_file', arguments: { path: 'src/billing/a.ts', content: 'x' } });
      assert.equal(outside.isError, true);
      assert.equal(errorCode(outside), 'SCOPE_VIOLATION');
      const read = await c.client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
      assert.match(text(read), /export function login/);
      const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
      assert.ok(hash, text(read));
      const written = await c.client.callTool({ name: 'write_file', arguments: { path: 'src/auth/login.ts', content: 'export const login = () => false;\n', expected_content_hash: hash } });
      assert.equal(errorCode(written), undefined, text(written));
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), 'export const login = () => false;\n');
      assert.equal(h.trace.mutations.length, 1);
      assert.equal(h.trace.mutations[0].session_id, `mcp-http:${c.transport.sessionId}`);
      assert.equal(h.trace.mutations[0].agent.name, 'http-test-agent');
    });

    it('gives two concurrent clients separate governance sessions', async () => {
      const [a, b] = await Promise.all([connect(server, 'agent-a'), connect(server, 'agent-b')]);
      clients.push(a, b);
      assert.equal(server.sessionCount(), 2);
      assert.notEqual(a.transport.sessionId, b.transport.sessionId);
      await a.client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const [fromA, fromB] = await Promise.all([
        a.client.callTool({ name: 'write_file', arguments: { path: 'src/auth/new.ts', content: 'a' } }),
        b.client.callTool({ name: 'write_file', arguments: { path: 'src/auth/other.ts', content: 'b' } }),
      ]);
      assert.equal(errorCode(fromA), undefined, text(fromA));
      assert.equal(errorCode(fromB), 'NO_ACTIVE_INTENT', 'selecting an intent in one session must not bind the other');
      assert.equal(h.governor.services.sessions.boundIntentId(`mcp-http:${a.transport.sessionId}`), 'auth-refactor');
      assert.equal(h.governor.services.sessions.boundIntentId(`mcp-http:${b.transport.sessionId}`), undefined);
    });

    it('ends the MCP and governance session on DELETE', async () => {
      const c = await connect(server);
      await c.client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const governanceId = `mcp-http:${c.transport.sessionId}`;
      assert.equal(server.sessionCount(), 1);
      await c.transport.terminateSession();
      await c.client.close();
      assert.equal(server.sessionCount(), 0);
      assert.equal(h.governor.services.sessions.boundIntentId(governanceId), undefined);
      const after = await raw(server, { headers: { 'mcp-session-id': c.transport.sessionId ?? 'x', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      assert.equal(after.status, 404);
    });

    it('reaps the session of a client that closed without DELETE once it has been idle', async () => {
      await server.close();
      server = await start({ idleSessionMs: 200 });
      const c = await connect(server);
      await c.client.listTools();
      assert.equal(server.sessionCount(), 1);
      await c.client.close();
      await eventually(() => server.sessionCount() === 0, 'the idle session to be closed');
    });

    it('keeps a session with an open SSE stream however long it is quiet', async () => {
      await server.close();
      server = await start({ idleSessionMs: 100 });
      const c = await connect(server);
      clients.push(c);
      // The SDK client holds a GET stream open for server-to-client messages.
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(server.sessionCount(), 1);
      assert.equal((await c.client.listTools()).tools.length > 0, true);
    });

    it('close() ends every session and stops listening, once however often it is called', async () => {
      const c = await connect(server);
      clients.push(c);
      await Promise.all([server.close(), server.close()]);
      await server.close();
      assert.equal(server.sessionCount(), 0);
      await assert.rejects(raw(server), /ECONNREFUSED/);
      server = await start();
    });
  });

  describe('locked down', () => {
    const wrongSameLength = () => `${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}`;
    const table: { name: string; req: () => RawRequest; status: number; error?: RegExp }[] = [
      { name: 'no token', req: () => ({ headers: { authorization: undefined } }), status: 401, error: /bearer token/ },
      { name: 'wrong token of the right length', req: () => ({ headers: { authorization: `Bearer ${wrongSameLength()}` } }), status: 401 },
      { name: 'wrong token of another length', req: () => ({ headers: { authorization: `Bearer ${server.token}x` } }), status: 401 },
      { name: 'token under another scheme', req: () => ({ headers: { authorization: `Basic ${server.token}` } }), status: 401 },
      { name: 'token as a query parameter', req: () => ({ path: `/mcp?token=${server.token}`, headers: { authorization: undefined } }), status: 401 },
      { name: 'a forged Host (DNS rebinding)', req: () => ({ headers: { host: `evil.example:${server.port}` } }), status: 403, error: /Host header/ },
      { name: 'Host with another port', req: () => ({ headers: { host: `127.0.0.1:${server.port + 1}` } }), status: 403 },
      { name: 'Origin: null', req: () => ({ headers: { origin: 'null' } }), status: 403, error: /web pages/ },
      { name: 'a foreign Origin', req: () => ({ headers: { origin: 'https://evil.example' } }), status: 403 },
      { name: 'a loopback Origin not in the allowlist', req: () => ({ headers: { origin: `http://localhost:${server.port}` } }), status: 403 },
      { name: 'a forged Host checked before the token', req: () => ({ headers: { host: 'evil.example', authorization: undefined } }), status: 403 },
      { name: 'POST text/plain', req: () => ({ headers: { 'content-type': 'text/plain' } }), status: 415, error: /application\/json/ },
      { name: 'POST without a content type', req: () => ({ headers: { 'content-type': undefined } }), status: 415 },
      { name: 'text/plain without a token fails on the token first', req: () => ({ headers: { 'content-type': 'text/plain', authorization: undefined } }), status: 401 },
      { name: 'a declared body over the cap', req: () => ({ body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x20) }), status: 413 },
      { name: 'a chunked body over the cap', req: () => ({ body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x20), chunked: true }), status: 413 },
      { name: 'a body that is not JSON', req: () => ({ body: '{"jsonrpc":' }), status: 400, error: /not valid JSON/ },
      { name: 'an unknown path', req: () => ({ path: '/admin' }), status: 404, error: /\/mcp/ },
      { name: 'an OAuth discovery probe', req: () => ({ method: 'GET', path: '/.well-known/oauth-protected-resource', headers: { authorization: undefined } }), status: 404 },
      { name: 'PUT', req: () => ({ method: 'PUT' }), status: 405 },
      { name: 'a request before initialize', req: () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }), status: 400, error: /initialize/ },
      { name: 'an unknown session', req: () => ({ headers: { 'mcp-session-id': 'not-a-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }), status: 404 },
      { name: 'GET without a session', req: () => ({ method: 'GET' }), status: 400 },
      { name: 'DELETE of an unknown session', req: () => ({ method: 'DELETE', headers: { 'mcp-session-id': 'nope' } }), status: 404 },
    ];
    for (const row of table) {
      it(`refuses ${row.name} with ${row.status}`, async () => {
        const res = await raw(server, row.req());
        assert.equal(res.status, row.status, res.body);
        assert.match(String(res.headers['content-type']), /application\/json/);
        const body = JSON.parse(res.body) as { error: string };
        assert.equal(typeof body.error, 'string');
        if (row.error) assert.match(body.error, row.error);
        assert.ok(!res.body.includes(server.token), 'a refusal never echoes the token');
        if (row.status === 401) assert.match(String(res.headers['www-authenticate']), /^Bearer/);
        assert.equal(server.sessionCount(), 0);
      });
    }

    it('refuses a request with no Host at all (Node answers 400 before our guard would say 403)', async () => {
      const res = await raw(server, { headers: { host: undefined } });
      assert.equal(res.status, 400);
      assert.equal(server.sessionCount(), 0);
    });

    it('answers an endless upload with 413 and closes the connection', async () => {
      const { status, connection } = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        let answered = false;
        const req = request(
          { host: '127.0.0.1', port: server.port, method: 'POST', path: '/mcp', agent: false, headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
          (res) => {
            answered = true;
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.on('error', (error: NodeJS.ErrnoException) => (answered ? undefined : reject(error)));
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!answered && req.write(chunk));
          if (!answered) req.once('drain', pump);
        };
        pump();
      });
      assert.equal(status, 413);
      assert.equal(connection, 'close');
    });

    it('accepts a valid initialize (the control for the table), with localhost as Host and charset in the type', async () => {
      const res = await raw(server, { headers: { host: `localhost:${server.port}`, 'content-type': 'application/json; charset=utf-8', authorization: `bearer ${server.token}` } });
      assert.equal(res.status, 200, res.body);
      assert.match(res.body, /"serverInfo"/);
      assert.equal(server.sessionCount(), 1);
    });

    it('accepts an Origin that the host put on the allowlist', async () => {
      await server.close();
      server = await start({ allowedOrigins: ['vscode-webview://trusted'] });
      assert.equal((await raw(server, { headers: { origin: 'vscode-webview://trusted' } })).status, 200);
      assert.equal((await raw(server, { headers: { origin: 'null' } })).status, 403);
    });

    it('caps concurrent sessions', async () => {
      await server.close();
      server = await start({ maxSessions: 2 });
      assert.equal((await raw(server)).status, 200);
      assert.equal((await raw(server)).status, 200);
      const third = await raw(server);
      assert.equal(third.status, 503);
      assert.match(JSON.parse(third.body).error, /Too many open MCP sessions/);
      assert.equal(server.sessionCount(), 2);
    });

    it('listens on loopback only', async function () {
      assert.equal(server.address().address, '127.0.0.1');
      assert.equal(new URL(server.url).hostname, '127.0.0.1');
      const external = nonLoopbackIPv4();
      if (!external) {
        // Nothing to probe from: the bound address above is the whole check on this machine.
        this.test!.title += ' (non-loopback probe skipped: this machine has no non-loopback IPv4 address)';
        return;
      }
      await assert.rejects(raw(server, { host: external, headers: { host: `127.0.0.1:${server.port}` } }), (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');
    });

    it('mints a 256-bit base64url token, or keeps the one it is given', async () => {
      assert.match(server.token, /^[A-Za-z0-9_-]{43}$/);
      const given = 'a-token-the-host-kept-from-last-time';
      const other = await start({ token: given });
      try {
        assert.equal(other.token, given);
        assert.notEqual(other.port, server.port);
      } finally {
        await other.close();
      }
      await assert.rejects(start({ token: 'short' }), /at least 16/);
    });
  });

  describe('the body cap and the tool schemas agree', () => {
    it('takes the largest write_file content the schema allows, and one character more is a schema error naming the limit', async () => {
      const c = await connect(server);
      clients.push(c);
      await c.client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const line = `${'x'.repeat(79)}\n`;
      const largest = line.repeat(Math.floor(MAX_CONTENT_CHARS / line.length)).padEnd(MAX_CONTENT_CHARS, 'y');
      const written = await c.client.callTool({ name: 'write_file', arguments: { path: 'src/auth/large.ts', content: largest } });
      assert.equal(errorCode(written), undefined, text(written).slice(0, 300));
      assert.equal((await readFile(join(h.root, 'src/auth/large.ts'), 'utf8')).length, MAX_CONTENT_CHARS);

      const over = await c.client.callTool({ name: 'write_file', arguments: { path: 'src/auth/larger.ts', content: `${largest}z` } });
      assert.equal(errorCode(over), 'INVALID_INPUT', text(over).slice(0, 300));
      assert.match(text(over), new RegExp(`'content' must NOT have more than ${MAX_CONTENT_CHARS} characters`));
    });
    it('lets the hook door (POST /hook) take a native write of the same size, under the same cap', async () => {
      await server.close();
      const seen: number[] = [];
      // The real route, with a bridge that only measures what reached it.
      const bridge = {
        handle: async (request: BridgeRequest): Promise<BridgeAnswer> => {
          seen.push(String((request.calls[0].input as { content: string }).content).length);
          return { decision: 'allow' };
        },
      };
      server = await start({ routes: [hookRoute(bridge)] });
      const largest = JSON.stringify({ phase: 'pre', session_id: 'claude:s', key: 'claude:s:1', agent: { name: 'claude-code' }, calls: [{ tool: 'write_file', input: { path: 'src/auth/large.ts', content: 'x'.repeat(MAX_CONTENT_CHARS) } }] });
      assert.equal((await raw(server, { path: '/hook', body: largest })).status, 200);
      assert.deepEqual(seen, [MAX_CONTENT_CHARS]);
      assert.equal((await raw(server, { path: '/hook', body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x20) })).status, 413);
    });
  });

  describe('port choice', () => {
    it('takes the preferred port when it is free', async () => {
      const probe = await start();
      const port = probe.port;
      await probe.close();
      const again = await start({ port });
      try {
        assert.equal(again.port, port);
        assert.equal(again.url, `http://127.0.0.1:${port}/mcp`);
      } finally {
        await again.close();
      }
    });

    it('falls back to a random free port when the preferred one is taken', async () => {
      const squatter: Server = createServer();
      await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
      const taken = (squatter.address() as AddressInfo).port;
      try {
        const fallback = await start({ port: taken });
        try {
          assert.notEqual(fallback.port, taken);
          assert.ok(h.logger.lines.some((l) => l.startsWith('warn') && l.includes(`port ${taken} is in use`)));
        } finally {
          await fallback.close();
        }
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
    });
  });
});
