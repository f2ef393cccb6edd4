import { strict as assert } from 'node:assert';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { askExtension } from '../../../../src/core/bridge/extensionClient';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import type { BridgeRequest } from '../../../../src/core/bridge/nativeCall';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { LateApprover } from '../../../support/lateApprover';


const DESTRUCTIVE: BridgeRequest = {
  phase: 'pre',
  session_id: 'claude:abc123',
  agent: { name: 'claude-code' },
  key: 'claude:abc123:toolu_02',
  calls: [{ tool: 'run_command', input: { command: 'rm -rf src/auth' } }],
};

describe('askExtension', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  let late: LateApprover;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export const login = 1;\n' } });
    h.governor.services.sessions.setDefaultIntent('auth-refactor');
    late = new LateApprover();
    h.governor.services.approver = late;
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, hookHandler: hookRoute(bridge, h.logger) });
  });
  afterEach(async () => {
    late.approveNow();
    await server.close();
    await h.dispose();
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
