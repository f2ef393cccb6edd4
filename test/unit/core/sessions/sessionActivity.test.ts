import { strict as assert } from 'node:assert';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import type { ApprovalDecision } from '../../../../src/core/approval/approver';
import { writeDiscoveryFile } from '../../../../src/core/mcp/discoveryFile';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import type { LiveSession } from '../../../../src/core/sessions/sessionActivity';
import { SessionRegistry } from '../../../../src/core/sessions/sessionRegistry';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { hookFixture, runHook } from '../../../support/runHook';
import { removeTree } from '../../../support/removeTree';

const MINUTE = 60_000;

function errorCode(result: unknown): string {
  const r = result as CallToolResult;
  if (!r.isError) return 'ok';
  const first = r.content[0];
  return (JSON.parse(first?.type === 'text' ? first.text : '{}') as { code: string }).code;
}

/** Two agents from two doors against one governor, as the extension hosts them: an MCP client and Claude Code's hooks. */
describe('session activity: what each live agent session is and did', () => {
  let h: Harness;
  let home: string;
  let server: HttpMcpServer;
  let env: NodeJS.ProcessEnv;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    h.governor.services.sessions.setDefaultIntent('auth-refactor'); // the human's pick in the status bar
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: [hookRoute(bridge)] });
    await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [h.root], url: server.url }, join(home, 'servers'));
    env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
    client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
    await client.connect(transport);
  });
  afterEach(async () => {
    await client.close().catch(() => undefined);
    await server.close();
    await h.dispose();
    await removeTree(home);
  });

  const activity = () => h.governor.services.sessions.activity;
  const byDoor = (kind: string): LiveSession => {
    const found = activity().list().find((s) => s.door.kind === kind);
    assert.ok(found, `a live ${kind} session in ${JSON.stringify(activity().list())}`);
    return found;
  };

  it('lists an MCP session and a hook-bridge session with agent, door, bound intent (own or the human’s), last call and decision', async () => {
    assert.equal(errorCode(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
    assert.equal(errorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/new.ts', content: 'x\n' } })), 'ok');
    assert.equal(errorCode(await client.callTool({ name: 'write_file', arguments: { path: 'README.md', content: 'x\n' } })), 'SCOPE_VIOLATION');
    const run = await runHook('claude', hookFixture('claude', 'pre-write-in-scope', h.root), [], env);
    assert.equal(run.code, 0, run.stderr);

    const sessions = activity().list();
    assert.equal(sessions.length, 2);
    const mcp = byDoor('mcp');
    assert.equal(mcp.agent, 'sdk-agent');
    assert.equal(mcp.door.label, 'MCP');
    assert.deepEqual(mcp.intent, { kind: 'own', intentId: 'auth-refactor' });
    assert.equal(mcp.calls, 3);
    assert.deepEqual({ ...mcp.lastCall, at: undefined }, { tool: 'write_file', target: 'README.md', decision: 'denied', code: 'SCOPE_VIOLATION', at: undefined });
    assert.deepEqual(mcp.recent.map((c) => c.decision), ['allowed', 'allowed', 'denied']);

    const claude = byDoor('hook-bridge');
    assert.equal(claude.id, 'claude:abc123');
    assert.equal(claude.agent, 'claude-code');
    assert.equal(claude.door.label, 'hook bridge (Claude Code)');
    assert.deepEqual(claude.intent, { kind: 'default', intentId: 'auth-refactor' }, 'works under the human’s pick, and says so');
    assert.equal(claude.lastCall?.tool, 'write_file');
    assert.equal(claude.lastCall?.decision, 'allowed');
  });

  it('lists an MCP client from its handshake, before its first call', async () => {
    await waitFor(() => activity().list().some((s) => s.door.kind === 'mcp'));
    const mcp = byDoor('mcp');
    assert.equal(mcp.agent, 'sdk-agent');
    assert.equal(mcp.calls, 0);
    assert.equal(mcp.lastCall, undefined);
  });

  it('lists an agent behind the hook bridge from its SessionStart, before its first tool call', async () => {
    const run = await runHook('claude', hookFixture('claude', 'session-start', h.root), [], env);
    assert.equal(run.code, 0, run.stderr);
    const claude = byDoor('hook-bridge');
    assert.equal(claude.id, 'claude:abc123');
    assert.equal(claude.calls, 0);
  });

  it('Unbind Intent: the session’s next write is NO_ACTIVE_INTENT, with no fallback to the human’s intent, until it selects one again', async () => {
    assert.equal(errorCode(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
    const id = byDoor('mcp').id;
    let changes = 0;
    const stop = activity().onDidChange(() => changes++);
    h.governor.services.sessions.unbind(id);
    stop();
    assert.ok(changes > 0, 'views hear of the unbinding');
    assert.deepEqual(byDoor('mcp').intent, { kind: 'unbound' });
    assert.equal(errorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/new.ts', content: 'x\n' } })), 'NO_ACTIVE_INTENT');
    assert.equal(byDoor('mcp').lastCall?.code, 'NO_ACTIVE_INTENT');
    // Another session still works under the human's pick.
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/other.ts', content: 'y\n' }, 'cli-session')), 'ok');
    assert.equal(errorCode(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
    assert.equal(errorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/new.ts', content: 'x\n' } })), 'ok');
  });

  it('an unbound session stays unbound after it idles past the sweep (it is never handed the human’s intent)', async () => {
    let now = 0;
    const sessions = new SessionRegistry({ idleMs: 30 * MINUTE, now: () => now });
    sessions.setDefaultIntent('auth-refactor');
    sessions.unbind('mcp-http:a');
    now += 31 * MINUTE;
    sessions.get('other'); // any use sweeps
    assert.equal(sessions.boundIntentId('mcp-http:a'), undefined);
  });

  it('sessions end when their door ends them: MCP close, the agent’s SessionEnd hook, End Session', async () => {
    assert.equal(errorCode(await client.callTool({ name: 'list_intents', arguments: {} })), 'ok');
    const run = await runHook('claude', hookFixture('claude', 'pre-write-in-scope', h.root), [], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(activity().list().length, 2);

    await transport.terminateSession(); // what a client that quits sends (DELETE)
    await client.close();
    await waitFor(() => activity().list().every((s) => s.door.kind !== 'mcp'));
    const ended = await runHook('claude', hookFixture('claude', 'session-end', h.root), [], env);
    assert.equal(ended.code, 0, ended.stderr);
    assert.deepEqual(activity().list(), []);

    // End Session from the view: the ledger goes too, so the next change needs a fresh read.
    assert.equal(codeOf(await h.bound('read_file', { path: 'src/auth/login.ts' }, 'auth-refactor', 'cli-session')), 'ok');
    assert.equal(codeOf(await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'login', replace: 'signIn' }] }, 'cli-session')), 'ok');
    h.governor.services.sessions.end('cli-session');
    assert.equal(activity().list().length, 0);
    assert.equal(codeOf(await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'signIn', replace: 'login' }] }, 'cli-session')), 'PRECONDITION_REQUIRED');
  });

  it('shows approvals the session waits for while a human decides', async () => {
    let answer: (decision: ApprovalDecision) => void = () => undefined;
    h.governor.services.approver = { interactive: true, approve: () => new Promise<ApprovalDecision>((resolve) => (answer = resolve)) };
    assert.equal(errorCode(await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } })), 'ok');
    const pending = client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
    await waitFor(() => activity().list()[0]?.pendingApprovals === 1);
    answer({ approved: false, approver: 'test-human' });
    assert.equal(errorCode(await pending), 'HITL_REJECT');
    assert.equal(byDoor('mcp').pendingApprovals, 0);
    assert.equal(byDoor('mcp').lastCall?.code, 'HITL_REJECT');
  });
});

describe('session activity: idle sessions', () => {
  it('a session with no call for the idle limit is no longer listed, unless an approval is pending', () => {
    let now = 0;
    const sessions = new SessionRegistry({ idleMs: 30 * MINUTE, now: () => now });
    const call = (session: string) => ({ tool: 'read_file', input: { path: 'a' }, session_id: session, agent: { name: 'agent' } });
    sessions.activity.recordOutcome(call('idle'), { status: 'success' });
    sessions.activity.recordOutcome(call('waiting'), { status: 'success' });
    const answered = sessions.activity.asking('waiting', 'agent');
    now += 31 * MINUTE;
    sessions.activity.recordOutcome(call('busy'), { status: 'success' });
    assert.deepEqual(sessions.activity.list().map((s) => s.id), ['waiting', 'busy']);
    answered();
    assert.deepEqual(sessions.activity.list().map((s) => s.id), ['waiting', 'busy'], 'the answer is activity');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'condition never held');
}

describe('session activity: bounded where nobody lists it', () => {
  it('drops idle sessions as new calls come in, without anyone listing them', () => {
    let now = 0;
    const sessions = new SessionRegistry({ idleMs: 30 * MINUTE, now: () => now });
    for (let i = 0; i < 100; i++) {
      sessions.activity.recordOutcome({ tool: 'read_file', input: {}, session_id: `s${i}`, agent: { name: 'agent' } }, { status: 'success' });
      now += MINUTE;
    }
    assert.ok(sessions.activity.size <= 32, `${sessions.activity.size} sessions kept, though only the last half hour's are live`);
  });
});
