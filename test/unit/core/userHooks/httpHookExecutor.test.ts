import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HookExecution, HookRunContext } from '../../../../src/core/userHooks/hookExecution';
import { readHookExecution } from '../../../../src/core/userHooks/hookOutput';
import type { HookAction, HookSpec } from '../../../../src/core/userHooks/hookSpec';
import { httpHookExecutor, interpolateHeader } from '../../../../src/core/userHooks/httpHookExecutor';

type HttpAction = Extract<HookAction, { type: 'http' }>;

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

function spec(action: HttpAction): HookSpec {
  return {
    id: '.orchestration/hooks.json#PreToolUse[0].hooks[0]',
    identity: 'sha256:test',
    name: 'policy-server',
    event: 'PreToolUse',
    matcher: '',
    action,
    timeoutMs: 15_000,
    async: false,
    asyncRewake: false,
    once: false,
    onFailure: 'block',
    source: { layer: 'project', file: '.orchestration/hooks.json' },
    approvalHash: 'sha256:0',
  };
}

const message = (execution: HookExecution): string => (execution.kind === 'exited' ? `exited ${execution.exitCode}` : execution.message);

describe('httpHookExecutor: hooks answered by a real HTTP server on 127.0.0.1', () => {
  let server: Server;
  let base: string;
  let received: Received[];
  let answer: (request: IncomingMessage, response: ServerResponse) => void;
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push' } });
  const context = (overrides: Partial<HookRunContext> = {}): HookRunContext => ({ input, env: {}, cwd: '/', timeoutMs: 15_000, ...overrides });
  const action = (overrides: Partial<HttpAction> = {}): HttpAction => ({ type: 'http', url: `${base}/hook`, headers: {}, allowedEnvVars: [], ...overrides });
  const run = (a: HttpAction, overrides: Partial<HookRunContext> = {}) => httpHookExecutor.run(a, spec(a), context(overrides));

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        answer(request, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    received = [];
    answer = (_request, response) => response.end();
  });
  afterEach(() => server.closeAllConnections());
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("POSTs the input as JSON and reads a Claude-format deny in the body as a refusal", async () => {
    answer = (_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'pushes wait for review' } }));
    };
    const a = action();
    const execution = await run(a);
    assert.equal(execution.kind === 'exited' && execution.exitCode, 0);
    assert.equal(received.length, 1);
    assert.equal(received[0].method, 'POST');
    assert.equal(received[0].url, '/hook');
    assert.equal(received[0].headers['content-type'], 'application/json');
    assert.equal(received[0].body, input);
    const verdict = readHookExecution(spec(a), execution);
    assert.equal(verdict.decision, 'deny');
    assert.equal(verdict.reason, 'pushes wait for review');
    assert.equal(verdict.decidedBy, 'policy-server');
  });

  it('fills header variables only from allowedEnvVars; any other variable is sent empty', async () => {
    const a = action({
      headers: { Authorization: 'Bearer $HOOK_TOKEN', 'X-Braced': '${HOOK_TOKEN}!', 'X-Stolen': 'x${GITHUB_TOKEN}y$AWS_SECRET_ACCESS_KEY', 'Content-Type': 'text/plain' },
      allowedEnvVars: ['HOOK_TOKEN'],
    });
    const execution = await run(a, { env: { HOOK_TOKEN: 'tok-123', GITHUB_TOKEN: 'ghp_secret', AWS_SECRET_ACCESS_KEY: 'aws-secret' } });
    assert.equal(execution.kind, 'exited');
    const headers = received[0].headers;
    assert.equal(headers.authorization, 'Bearer tok-123');
    assert.equal(headers['x-braced'], 'tok-123!');
    assert.equal(headers['x-stolen'], 'xy');
    assert.equal(headers['content-type'], 'application/json', "the body is JSON whatever the hook's headers say");
    assert.doesNotMatch(JSON.stringify(headers), /ghp_secret|aws-secret/);
  });

  it('fails on HTTP 500 with an excerpt of the body, which refuses the call', async () => {
    answer = (_request, response) => {
      response.statusCode = 500;
      response.end('policy database unavailable');
    };
    const a = action();
    const execution = await run(a);
    assert.equal(message(execution), 'answered HTTP 500: policy database unavailable');
    const verdict = readHookExecution(spec(a), execution);
    assert.equal(verdict.decision, 'deny');
    assert.deepEqual(verdict.failures, [{ hook: 'policy-server', message: 'answered HTTP 500: policy database unavailable' }]);
  });

  it('fails a server that does not answer in time', async () => {
    answer = () => undefined; // never answers
    const execution = await run(action(), { timeoutMs: 300 });
    assert.equal(message(execution), 'did not answer within 300 ms; the request was dropped');
  });

  it('does not follow a redirect: the input goes only to the URL the hook names', async () => {
    answer = (request, response) => {
      if (request.url === '/hook') {
        response.statusCode = 307;
        response.setHeader('Location', '/elsewhere');
      }
      response.end('{}');
    };
    const execution = await run(action());
    assert.match(message(execution), /^answered HTTP 307 \(a redirect to \/elsewhere; redirects are not followed\)$/);
    assert.deepEqual(received.map((r) => r.url), ['/hook']);
  });

  it('fails an answer past 64 KiB instead of reading part of it', async () => {
    answer = (_request, response) => response.end(`{"reason":"${'x'.repeat(200_000)}"}`);
    assert.match(message(await run(action())), /more than 64 KiB/);
  });

  it('fails when nothing listens, naming the server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hook`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    assert.match(message(await run(action({ url }))), /^could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
  });

  it('drops the request when the call is cancelled', async () => {
    answer = () => undefined;
    const controller = new AbortController();
    const running = run(action(), { signal: controller.signal });
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    assert.match(message(await running), /cancelled/);
  });

  it('refuses to send a header a variable made invalid, without quoting the value', async () => {
    const a = action({ headers: { Authorization: 'Bearer $HOOK_TOKEN' }, allowedEnvVars: ['HOOK_TOKEN'] });
    const execution = await run(a, { env: { HOOK_TOKEN: 'tok\r\nX-Injected: secret-value' } });
    assert.equal(message(execution), "has a header 'Authorization' that is not valid HTTP once its variables are filled in");
    assert.equal(received.length, 0);
  });

  it('refuses URLs that are not http(s)', async () => {
    assert.match(message(await run(action({ url: 'file:///etc/passwd' }))), /not http\(s\)/);
    assert.match(message(await run(action({ url: 'data:application/json,{"decision":"approve"}' }))), /not http\(s\)/);
  });

  it('interpolates $NAME and ${NAME}, leaving other dollars alone', () => {
    assert.equal(interpolateHeader('$A-${A}-$B-${B}-$-$1-cost: 5$', { A: 'a', B: 'b' }, ['A']), 'a-a---$-$1-cost: 5$');
  });
});
