import { strict as assert } from 'node:assert';
import { bearerMatches, checkAuth, checkHost, checkJsonContentType, checkOrigin, guardRequest, newBearerToken, tokenDigest, type HttpGuardPolicy } from '../../../../src/core/localServer/requestGuard';
import { RouteTable } from '../../../../src/core/localServer/routeTable';

describe('HTTP request guard', () => {
  const token = newBearerToken();
  const policy: HttpGuardPolicy = { port: 4100, tokenDigest: tokenDigest(token), allowedOrigins: ['https://trusted.example'] };

  it('mints distinct 256-bit URL-safe tokens', () => {
    const other = newBearerToken();
    assert.notEqual(token, other);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
  });

  it('matches only the exact token under the Bearer scheme (any case)', () => {
    const digest = tokenDigest(token);
    assert.equal(bearerMatches(`Bearer ${token}`, digest), true);
    assert.equal(bearerMatches(`bearer ${token}`, digest), true);
    for (const wrong of [undefined, '', 'Bearer', `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, token, `Bearer ${token} extra`]) {
      assert.equal(bearerMatches(wrong, digest), false, String(wrong));
    }
    // An empty token must never be the expected one, but if it were, a missing header still would not match.
    assert.equal(bearerMatches(undefined, tokenDigest('')), false);
  });

  it('takes spaces or tabs between the scheme and the token, and after it, and nothing else around it', () => {
    const digest = tokenDigest(token);
    for (const good of [`Bearer\t${token}`, `Bearer   ${token}`, `Bearer ${token} `, `Bearer ${token}\t`, `BEARER \t ${token}`]) assert.equal(bearerMatches(good, digest), true, JSON.stringify(good));
    for (const wrong of [`xBearer ${token}`, ` Bearer ${token}`, `Bearer${token}`, `Bearer ${token}\n`, `Bearer ${token} x`, `Bearer \n${token}`]) assert.equal(bearerMatches(wrong, digest), false, JSON.stringify(wrong));
  });

  it('refuses a missing or wrong token with 401, a Bearer challenge and where to find the token, never echoing it', () => {
    const digest = tokenDigest(token);
    assert.equal(checkAuth(`Bearer ${token}`, digest), undefined);
    const refusal = checkAuth('Bearer not-the-token', digest);
    assert.equal(refusal?.status, 401);
    assert.deepEqual(refusal?.headers, { 'WWW-Authenticate': 'Bearer realm="intent-governor"' });
    assert.equal(
      refusal?.error,
      'Missing or wrong bearer token. Send "Authorization: Bearer <token>" with the token from the file named for the workspace folder in ~/.intent-governor/servers/ (<folder>-<hash>.json; or the extension\'s "Connect an agent" command).',
    );
    assert.ok(!refusal?.error.includes('not-the-token'));
    assert.equal(checkAuth(undefined, digest)?.status, 401);
  });

  it('says which Host it wants, which Origin it refuses and which content type it takes', () => {
    assert.equal(checkHost('evil.example', 4100)?.error, 'Host header must be one of 127.0.0.1:4100, localhost:4100; connect to the URL in the discovery file.');
    assert.equal(checkOrigin('https://evil.example', [])?.error, 'Requests from web pages are refused: this server is for local MCP clients, which send no Origin header.');
    assert.equal(checkJsonContentType('text/plain')?.error, 'POST bodies must be JSON-RPC sent as Content-Type: application/json.');
    for (const refusal of [checkHost(undefined, 4100), checkOrigin('null', []), checkJsonContentType(undefined)]) assert.equal(refusal?.headers, undefined);
  });

  it('compares origins without regard to case, and reads a content type with spaces around it', () => {
    assert.equal(checkOrigin('HTTPS://Trusted.Example', ['https://trusted.example']), undefined);
    assert.equal(checkOrigin('https://trusted.example', ['HTTPS://TRUSTED.EXAMPLE']), undefined);
    assert.equal(checkOrigin('https://trusted.example.evil', ['https://trusted.example'])?.status, 403);
    assert.equal(checkJsonContentType('  application/json ; charset=utf-8'), undefined);
    assert.equal(checkJsonContentType('charset=utf-8; application/json')?.status, 415);
  });

  it('accepts our loopback authority only', () => {
    assert.equal(checkHost('127.0.0.1:4100', 4100), undefined);
    assert.equal(checkHost('LOCALHOST:4100', 4100), undefined);
    for (const host of [undefined, '127.0.0.1', '127.0.0.1:4101', 'evil.example:4100', '[::1]:4100', '0.0.0.0:4100']) assert.equal(checkHost(host, 4100)?.status, 403, String(host));
  });

  it('lets non-browser clients (no Origin) and listed origins through, nothing else', () => {
    assert.equal(checkOrigin(undefined, []), undefined);
    assert.equal(checkOrigin('https://trusted.example', ['https://trusted.example']), undefined);
    assert.equal(checkOrigin('null', ['null'])?.status, 403, 'an opaque origin can never be allowlisted');
    assert.equal(checkOrigin('https://evil.example', ['https://trusted.example'])?.status, 403);
  });

  it('wants application/json, parameters allowed', () => {
    assert.equal(checkJsonContentType('application/json'), undefined);
    assert.equal(checkJsonContentType('Application/JSON; charset=utf-8'), undefined);
    for (const type of [undefined, '', 'text/plain', 'application/jsonp', 'multipart/form-data']) assert.equal(checkJsonContentType(type)?.status, 415, String(type));
  });

  it('checks where a request comes from before who sends it, and who before what', () => {
    const ok = { host: '127.0.0.1:4100', authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const table = new RouteTable();
    table.register({ path: '/mcp', methods: ['POST', 'GET', 'DELETE'], handle: () => undefined });
    const guard = (headers: Record<string, string | undefined>, method = 'POST', path = '/mcp') =>
      guardRequest({ method, path, headers: { ...ok, ...headers } }, policy, table.lookup(method, path, '/mcp').verdict)?.status;
    assert.equal(guard({}), undefined);
    assert.equal(guard({ host: 'evil.example', authorization: undefined, 'content-type': 'text/plain' }), 403);
    assert.equal(guard({ origin: 'null', authorization: undefined }), 403);
    assert.equal(guard({ authorization: undefined, 'content-type': 'text/plain' }), 401);
    assert.equal(guard({ authorization: undefined }, 'POST', '/other'), 404);
    assert.equal(guard({ 'content-type': 'text/plain' }), 415);
    assert.equal(guard({ 'content-type': undefined }, 'GET'), undefined, 'GET carries no body to type');
    assert.equal(guard({}, 'PATCH'), 405);
  });

  it('answers the first check a request fails: Host, Origin, path, token, method, content type', () => {
    const ok = { host: '127.0.0.1:4100', authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const table = new RouteTable();
    table.register({ path: '/mcp', methods: ['POST'], handle: () => undefined });
    const refusal = (headers: Record<string, string | undefined>, method = 'POST', path = '/mcp') => {
      const r = guardRequest({ method, path, headers: { ...ok, ...headers } }, policy, table.lookup(method, path, '/mcp').verdict);
      return r && `${r.status} ${r.error.split(' ').slice(0, 2).join(' ')}`;
    };
    assert.equal(refusal({ host: 'evil.example', origin: 'https://evil.example' }), '403 Host header');
    assert.equal(refusal({ origin: 'https://evil.example', authorization: undefined }, 'POST', '/other'), '403 Requests from');
    assert.equal(refusal({ authorization: undefined }, 'PATCH'), '401 Missing or');
    assert.equal(refusal({ 'content-type': 'text/plain' }, 'PATCH'), refusal({}, 'PATCH'), 'a wrong method is refused before its body type is looked at');
    assert.equal(refusal({ origin: 'https://trusted.example' }), undefined, 'a listed page with the token gets through');
  });
});
