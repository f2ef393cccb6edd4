import { strict as assert } from 'node:assert';
import { askExtension } from '../../../../src/core/bridge/extensionClient';
import type { HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import type { Harness } from '../../../support/governorHarness';
import { destructiveBridgeRequest, startServerWithLateHuman, type LateApprover, type LateHumanServer } from '../../../support/lateApprover';

const DESTRUCTIVE = destructiveBridgeRequest('toolu_02');

describe('askExtension', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  let late: LateApprover;
  let world: LateHumanServer;

  beforeEach(async () => {
    world = await startServerWithLateHuman();
    ({ h, server, late } = world);
  });
  afterEach(async () => {
    await world.close();
  });

  const discovered = () => ({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [h.root], url: server.url, file: '' });

  it("drops the request at the hook's deadline, and the extension stops waiting for its human", async () => {
    const deadline = new AbortController();
    const answer = askExtension(discovered(), DESTRUCTIVE, 10_000, deadline.signal);
    await late.asked;
    deadline.abort();
    const result = await answer;
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /deadline/);
    for (let waited = 0; !h.trace.governance.some((e) => /cancelled: the agent stopped waiting/i.test(e.message)); waited += 20) {
      if (waited > 5000) assert.fail(`no cancelled refusal in the governance log: ${JSON.stringify(h.trace.governance)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('does not ask at all when the deadline has already passed', async () => {
    const result = await askExtension(discovered(), DESTRUCTIVE, 10_000, AbortSignal.abort());
    assert.equal(result.ok, false);
    assert.equal(late.requests.length, 0, 'the human was never asked');
  });
});
