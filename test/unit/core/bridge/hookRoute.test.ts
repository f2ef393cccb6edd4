import { strict as assert } from 'node:assert';
import { mkdtemp } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDiscoveryFile } from '../../../../src/core/mcp/discoveryFile';
import { HOOK_PATH } from '../../../../src/core/agents/common/nativeCall';
import type { HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import type { GovernanceEvent } from '../../../../src/core/trace/traceSink';
import type { Harness } from '../../../support/governorHarness';
import { hookFixture, runHook } from '../../../support/runHook';
import { destructiveBridgeRequest, eventually, startServerWithLateHuman, type LateApprover, type LateHumanServer } from '../../../support/lateApprover';
import { removeTree } from '../../../support/removeTree';

const DESTRUCTIVE = destructiveBridgeRequest('toolu_01');

describe('POST /hook: a hook that stops waiting cancels its call', function () {
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
      await removeTree(home);
    }
  });
});
