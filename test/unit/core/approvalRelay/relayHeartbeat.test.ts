import { strict as assert } from 'node:assert';
import { RelayClient } from '../../../../src/core/approvalRelay/relayClient';
import { RELAY_EVENTS_PATH, RELAY_KEY_HEADER } from '../../../../src/core/approvalRelay/relayProtocol';
import { relayRoutes } from '../../../../src/core/approvalRelay/relayRoutes';
import { WindowApprovalRouter } from '../../../../src/core/approvalRelay/windowApprovalRouter';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';

const RELAY_KEY = 'relay-key-'.padEnd(43, 'k');

/**
 * A window may show a question for minutes while nothing else happens; Node's fetch gives up on a response body
 * silent for 5 minutes, which would withdraw the question from the window the human is reading. The serving
 * window therefore writes a heartbeat line on every idle stream (here every 20 ms instead of 30 s).
 */
describe('approval relay: an idle stream stays open', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  let router: WindowApprovalRouter;

  beforeEach(async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    router = new WindowApprovalRouter({ id: 'serving', approver: h.approver, notice: () => undefined }, h.logger);
    h.governor.services.approver = router;
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: relayRoutes(router, RELAY_KEY, h.logger, undefined, 20) });
  });
  afterEach(async () => {
    await server.close();
    await h.dispose();
  });

  it('carries heartbeat lines while nothing happens', async () => {
    const stop = new AbortController();
    const response = await fetch(`http://127.0.0.1:${server.port}${RELAY_EVENTS_PATH}?window=tab2&focused=0`, { headers: { Authorization: `Bearer ${server.token}`, [RELAY_KEY_HEADER]: RELAY_KEY }, signal: stop.signal });
    const lines: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      lines.push(...decoder.decode(chunk).split('\n').filter(Boolean));
      if (lines.filter((line) => line === '{"type":"heartbeat"}').length >= 3) break;
    }
    stop.abort();
    assert.equal(lines[0], '{"type":"ready"}');
    assert.ok(lines.slice(1).every((line) => line === '{"type":"heartbeat"}'), lines.join('\n'));
  });

  it('a window reading heartbeats still answers the question it is shown', async () => {
    let asked = 0;
    const client = new RelayClient({
      origin: `http://127.0.0.1:${server.port}`,
      token: server.token,
      relayKey: RELAY_KEY,
      windowId: 'tab2',
      focused: true,
      approver: { interactive: true, approve: async () => (asked++, await new Promise((r) => setTimeout(r, 200)), { approved: true, approver: 'alice' }) },
      notice: () => undefined,
      logger: h.logger,
    });
    try {
      await client.ready;
      const result = await h.bound('write_file', { path: 'src/auth/login.ts', content: 'answered after heartbeats\n', expected_content_hash: undefined });
      assert.equal(codeOf(result), 'ok');
      assert.equal(asked, 1);
    } finally {
      client.dispose();
    }
  });
});
