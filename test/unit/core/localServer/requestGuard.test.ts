import { strict as assert } from 'node:assert';
import { bearerMatches, checkHost, checkJsonContentType, checkOrigin, guardRequest, newBearerToken, tokenDigest, type HttpGuardPolicy } from '../../../../src/core/localServer/requestGuard';
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
});
