import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import type { BridgeRequest } from '../../../../src/core/bridge/nativeCall';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { writeDiscoveryFile } from '../../../../src/core/mcp/discoveryFile';
import { HOOK_PATH, startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import type { GovernanceEvent } from '../../../../src/core/trace/traceSink';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { hookFixture, runHook } from '../../../support/runHook';
import { eventually, LateApprover } from '../../../support/lateApprover';



const DESTRUCTIVE: BridgeRequest = {
  phase: 'pre',
  session_id: 'claude:abc123',
  agent: { name: 'claude-code' },
  key: 'claude:abc123:toolu_01',
  calls: [{ tool: 'run_command', input: { command: 'rm -rf src/auth' } }],
};

describe('POST /hook: a hook that stops waiting cancels its call', function () {
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
    assert.deepEqual(h.logger.lines.filter((l) => l.startsWith('error')), [], 'a cancellation is no crash');
  });

  const cancelled = (): Promise<GovernanceEvent> =>
    eventually(() => h.trace.governance.find((e) => e.tool === 'run_command' && /cancelled: the agent stopped waiting/i.test(e.message)), 'a cancelled run_command in the governance log');

  it('a client that disconnects while the human is asked: the approval is dropped and the refusal logged', async () => {
    const body = JSON.stringify(DESTRUCTIVE);
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: HOOK_PATH,
      agent: false,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    });
    req.on('error', () => undefined); // we hang up on purpose
    req.end(body);
    await late.asked;
    req.destroy();
    const record = await cancelled();
    late.approveNow();
    assert.equal(record.code, 'HITL_REJECT');
    assert.equal(record.agent.name, 'claude-code');
    assert.equal(late.requests.length, 1);
  });

  it('the hook command past its --timeout-ms blocks the call, and the extension cancels it too', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    try {
      await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [h.root], url: server.url }, join(home, 'servers'));
      const env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
      const run = await runHook('claude', hookFixture('claude', 'pre-bash-destructive', h.root), ['--timeout-ms', '1500'], env);
      // Blocked either way: exit 2, or a deny in Claude's JSON.
      if (run.code !== 2) assert.equal(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, 'deny', run.stdout + run.stderr);
      const record = await cancelled();
      late.approveNow();
      assert.equal(record.code, 'HITL_REJECT');
      assert.equal(late.requests.length, 1, 'the human was asked once; the late answer is not used');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
