import { strict as assert } from 'node:assert';
import { StandingApprovals } from '../../../../src/core/approval/standingApprovals';
import { RelayClient } from '../../../../src/core/approvalRelay/relayClient';
import { RELAY_INTENT_PATH, RELAY_KEY_HEADER, RELAY_SESSION_PATH } from '../../../../src/core/approvalRelay/relayProtocol';
import { relayRoutes } from '../../../../src/core/approvalRelay/relayRoutes';
import { broadcastSessions } from '../../../../src/core/approvalRelay/sessionsBroadcast';
import { WindowApprovalRouter } from '../../../../src/core/approvalRelay/windowApprovalRouter';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { SessionRegistry } from '../../../../src/core/sessions/sessionRegistry';
import { WorkspaceSessions } from '../../../../src/core/sessions/workspaceSessions';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { eventually } from '../../../support/lateApprover';

const RELAY_KEY = 'relay-key-'.padEnd(43, 'k');
const MCP = 'mcp-http:0b9f';
const CLAUDE = 'claude:5e1c';

/**
 * Agent Sessions in a window that does not serve the folder: the serving window holds the MCP and hook-bridge
 * sessions and sends them over the relay (a real loopback server); the other window shows them beside its own
 * and sends a person's actions on them back.
 */
describe('approval relay: the serving window’s agent sessions in the other windows', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  let serving: WorkspaceSessions;
  let stopBroadcast: () => void;
  let attached: WorkspaceSessions;
  let attachedRegistry: SessionRegistry;
  let client: RelayClient | undefined;

  const ids = () => attached.list().map((session) => session.id).sort();
  const attach = async () => {
    const relay: RelayClient = new RelayClient({
      origin: `http://127.0.0.1:${server.port}`,
      token: server.token,
      relayKey: RELAY_KEY,
      windowId: 'tab2',
      focused: true,
      approver: h.approver,
      notice: () => undefined,
      sessions: (snapshot) => attached.mirror(snapshot, relay),
      logger: h.logger,
    });
    client = relay;
    await relay.ready;
  };
  const post = (body: unknown, key = RELAY_KEY, path = RELAY_SESSION_PATH) =>
    fetch(`http://127.0.0.1:${server.port}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, [RELAY_KEY_HEADER]: key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeEach(async () => {
    h = await createHarness();
    const { sessions, standingApprovals } = h.governor.services;
    serving = new WorkspaceSessions(sessions, standingApprovals);
    const router = new WindowApprovalRouter({ id: 'serving', approver: h.approver, notice: () => undefined }, h.logger);
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: relayRoutes(router, RELAY_KEY, h.logger, serving) });
    stopBroadcast = broadcastSessions(serving, () => router, () => true, 10);
    attachedRegistry = new SessionRegistry();
    attached = new WorkspaceSessions(attachedRegistry, new StandingApprovals());
    sessions.activity.opened(MCP, 'claude-code');
  });
  afterEach(async () => {
    client?.dispose();
    client = undefined;
    stopBroadcast();
    await server.close();
    await h.dispose();
  });

  it('shows the sessions the serving window had before this window attached, then each new one, beside its own', async () => {
    attachedRegistry.activity.opened('vscode-lm', 'copilot');
    await attach();
    await eventually(() => (ids().includes(MCP) ? true : undefined), 'the MCP session to show');
    h.governor.services.sessions.activity.opened(CLAUDE, 'claude-code');
    await eventually(() => (ids().length === 3 ? true : undefined), 'the hook-bridge session to follow');
    assert.deepEqual(ids(), [CLAUDE, MCP, 'vscode-lm'].sort());
    assert.equal(attached.get(CLAUDE)?.door.label, 'hook bridge (Claude Code)');
  });

  it('End Session in this window ends the session where it lives; it leaves the view, and a second End finds nothing', async () => {
    await attach();
    await eventually(() => attached.get(MCP), 'the MCP session to show');
    assert.equal(await attached.act({ action: 'end', session: MCP }), true);
    assert.equal(h.governor.services.sessions.activity.get(MCP), undefined, 'the serving window ended it');
    await eventually(() => (attached.get(MCP) === undefined ? true : undefined), 'the ended session to leave the view');
    assert.equal(await attached.act({ action: 'end', session: MCP }), false);
  });

  it('Unbind Intent in this window unbinds the session in the serving window and ends its standing approval', async () => {
    const { sessions, standingApprovals } = h.governor.services;
    sessions.bindIntent(MCP, 'auth-refactor');
    standingApprovals.grant(MCP, 'auth-refactor', 'alice');
    await attach();
    await eventually(() => (attached.standing().length === 1 ? true : undefined), 'the standing approval to show');
    assert.equal(await attached.act({ action: 'unbind', session: MCP }), true);
    assert.deepEqual(sessions.binding(MCP), { kind: 'unbound' });
    assert.deepEqual(standingApprovals.list(), []);
    await eventually(() => (attached.standing().length === 0 ? true : undefined), 'the standing approval to leave the view');
  });

  it('Revoke in this window ends the standing approval in the serving window; the session stays', async () => {
    const { standingApprovals } = h.governor.services;
    standingApprovals.grant(MCP, 'auth-refactor', 'alice');
    await attach();
    await eventually(() => attached.standing()[0], 'the standing approval to show');
    assert.equal(await attached.act({ action: 'revoke', session: MCP, intent: 'auth-refactor' }), true);
    assert.deepEqual(standingApprovals.list(), []);
    assert.ok(h.governor.services.sessions.activity.get(MCP));
  });

  it('when the relay ends, the serving window’s sessions leave the view and this window’s own stay', async () => {
    attachedRegistry.activity.opened('vscode-lm', 'copilot');
    await attach();
    await eventually(() => (ids().length === 2 ? true : undefined), 'both sessions to show');
    await server.close();
    await eventually(() => (ids().length === 1 ? true : undefined), 'the mirrored session to leave');
    assert.deepEqual(ids(), ['vscode-lm']);
    assert.equal(await attached.act({ action: 'end', session: MCP }), false, 'nothing to act on once the relay is gone');
  });

  it("takes the workspace's pick on attach, and follows the serving window's later picks", async () => {
    serving.pickHere('auth-refactor');
    let told = 0;
    attached.onDidChangePick(() => told++);
    await attach();
    await eventually(() => attached.defaultIntent(), 'the pick to arrive');
    assert.equal(attached.defaultIntent(), 'auth-refactor');
    serving.pickHere(undefined);
    await eventually(() => (attached.defaultIntent() === undefined ? true : undefined), 'the cleared pick to arrive');
    assert.equal(told, 2, 'the status bar was told of each change');
  });

  it("a pick made in this window becomes the serving window's, so the agents it serves work under it", async () => {
    await attach();
    assert.equal(await attached.pick('auth-refactor'), true);
    assert.equal(h.governor.services.sessions.getDefaultIntent(), 'auth-refactor');
    assert.equal(h.governor.services.sessions.boundIntentId(MCP), 'auth-refactor', 'the MCP agent without a selection of its own');
    assert.equal(await attached.pick(undefined), true);
    assert.equal(h.governor.services.sessions.getDefaultIntent(), undefined);
    assert.equal((await post({ window: 'tab2', intent: 42 }, RELAY_KEY, RELAY_INTENT_PATH)).status, 400);
  });

  it('refuses an action without the relay key (403) or of an unknown kind (400), and changes nothing', async () => {
    assert.equal((await post({ window: 'tab2', action: 'end', session: MCP }, 'not-the-key'.padEnd(43, 'x'))).status, 403);
    assert.equal((await post({ window: 'tab2', action: 'delete', session: MCP })).status, 400);
    assert.equal((await post({ window: 'tab2', action: 'revoke', session: MCP })).status, 400, 'revoke names its intent');
    assert.equal((await post({ window: 'tab2', action: 'end', session: 'mcp-http:gone' })).status, 410);
    assert.ok(h.governor.services.sessions.activity.get(MCP), 'the session is still live');
  });
});
