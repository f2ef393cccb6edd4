import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_PATH } from '../../../../src/core/agents/common/nativeCall';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import { agentHookRoute } from '../../../../src/core/bridge/agentHookRoute';
import { writeResidentEndpoint } from '../../../../src/core/bridge/residentEndpoint';
import { ensureHookLauncher, hookLauncherPath } from '../../../../src/core/agents/common/hookLauncher';
import { sameFolder } from '../../../../src/core/paths/sameFolder';
import { bundledScript } from '../../../support/bundledScript';
import { finished } from '../../../support/childProcesses';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { writeDiscoveryFile } from '../../../../src/core/mcp/discoveryFile';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { hookFixture, runHook } from '../../../support/runHook';
import { detectSandbox } from '../../../../src/core/sandbox/sandboxDetection';
import { connectGovernorMcp, resultText } from '../../../support/stdioMcpClient';
import { removeTree } from '../../../support/removeTree';

const LOGIN = 'export function login() {\n  return false;\n}\n';

/** The bridge process talking to a running governor (the extension's HTTP server, started in-process here). */
/**
 * Claude's answer once the human approved `rm -rf src/auth`: silence where no sandbox starts; where one does, an
 * allow whose updatedInput runs the same command confined (Claude runs that one, not the original).
 */
function assertApproved(stdout: string, sandboxed: boolean, message: string): void {
  const text = stdout.trim();
  if (!sandboxed) return assert.ok(text === '' || text === '{}', `${message}: ${stdout}`);
  const answer = JSON.parse(text).hookSpecificOutput;
  assert.equal(answer.permissionDecision, 'allow', `${message}: ${stdout}`);
  assert.match(answer.updatedInput.command, /^TMPDIR=.*bwrap .* -- \/bin\/sh -c 'rm -rf src\/auth'$/u, stdout);
  assert.equal(answer.updatedInput.description, 'Remove the auth module', 'the rest of the input is kept');
}

describe('governor hook with a running extension', () => {
  let sandboxed = false;
  before(async () => {
    sandboxed = (await detectSandbox()).kind !== 'unavailable';
  });
  let h: Harness;
  let home: string;
  let server: HttpMcpServer;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    h.governor.services.sessions.setDefaultIntent('auth-refactor'); // the human's pick in the status bar
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
    // As extension.ts wires them: the Node hook's route and the launcher's, with the human's pick (no env intent).
    const launcherRoute = agentHookRoute({ decide: (request, signal) => bridge.handle(request, signal), governs: (root) => sameFolder(root, h.root), env: process.env, intentFromEnv: false });
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: [hookRoute(bridge), launcherRoute] });
    await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [h.root], url: server.url }, join(home, 'servers'));
    // No --intent and no INTENT_GOVERNOR_INTENT: headless would refuse every write, so an allow proves the extension decided.
    env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
  });
  afterEach(async () => {
    await server.close();
    await h.dispose();
    await removeTree(home);
  });

  const hook = (agent: string, fixture: string) => runHook(agent, hookFixture(agent, fixture, h.root), [], env);

  it("the resident governor (governor mcp --agent claude) asks the running extension too: its human approves in VS Code's dialog", async () => {
    const client = await connectGovernorMcp(h.root, join(home, 'anchors'), ['--agent', 'claude'], 'claude-code', { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_INTENT: '' });
    try {
      const payload = JSON.parse(hookFixture('claude', 'pre-bash-destructive', h.root)) as Record<string, unknown>;
      const args = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      h.approver.script(true);
      assertApproved(resultText(await client.callTool({ name: 'agent_hook', arguments: args })), sandboxed, 'approved by the human in VS Code');
      assert.equal(h.approver.requests.length, 1, "the extension's dialog was asked");
      h.approver.script(false);
      assert.match(resultText(await client.callTool({ name: 'agent_hook', arguments: { ...args, tool_use_id: 'again' } })), /"permissionDecision":"deny".*HITL_REJECT/);
    } finally {
      await client.close();
    }
  });

  it('the hook launcher reaches the running extension over /dev/tcp with no process per call: its human is asked, out of scope is refused', async () => {
    writeResidentEndpoint(home, h.root, { port: server.port, token: server.token, pid: process.pid });
    await ensureHookLauncher(env, bundledScript(join(__dirname, '..', '..', '..', '..', 'src', 'cli', 'hookMain.ts'), 'hook.js'));
    const noNode = await mkdtemp(join(tmpdir(), 'ig-nonode-'));
    await writeFile(join(noNode, 'node'), '#!/bin/sh\necho "node was started" >&2\nexit 1\n', { mode: 0o755 });
    try {
      const launch = (agent: string, fixture: string) => {
        const child = spawn(hookLauncherPath(env), ['hook', agent, '--timeout-ms', '20000'], { cwd: h.root, env: { ...process.env, ...env, INTENT_GOVERNOR_RESIDENT: 'on', PATH: `${noNode}:${process.env.PATH ?? ''}` } });
        child.stdin.on('error', () => undefined);
        child.stdin.end(hookFixture(agent, fixture, h.root));
        return finished(child);
      };
      h.approver.script(true);
      const approved = await launch('claude', 'pre-bash-destructive');
      assert.equal(approved.code, 0, approved.stderr);
      assert.doesNotMatch(approved.stdout, /"permissionDecision":"(deny|ask)"/u);
      assert.equal(h.approver.requests.length, 1, "the extension's dialog was asked");
      const refused = await launch('vscode', 'pre-create-file-out-of-scope');
      assert.match(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecisionReason, /^\[SCOPE_VIOLATION\]/u, refused.stderr);
      assert.doesNotMatch(approved.stderr + refused.stderr, /node was started/u);
    } finally {
      await rm(noNode, { recursive: true, force: true });
    }
  });

  it('lets the extension decide: the human’s intent applies and an in-scope write is allowed', async () => {
    const run = await hook('claude', 'pre-write-in-scope');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
  });

  it('denies out of scope with the reason, and the refusal lands in the extension’s governance log', async () => {
    const run = await hook('vscode', 'pre-create-file-out-of-scope');
    const answer = JSON.parse(run.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny');
    assert.match(answer.permissionDecisionReason, /^\[SCOPE_VIOLATION\]/);
    assert.equal(h.trace.governance.at(-1)?.code, 'SCOPE_VIOLATION');
    assert.equal(h.trace.governance.at(-1)?.agent.name, 'vscode-agent');
  });

  it('asks the extension’s human for a destructive command: approved is allowed, rejected is denied', async () => {
    h.approver.script(true, false);
    const approved = await hook('claude', 'pre-bash-destructive');
    assertApproved(approved.stdout, sandboxed, approved.stderr);
    const rejected = await hook('claude', 'pre-bash-destructive');
    const answer = JSON.parse(rejected.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny');
    assert.match(answer.permissionDecisionReason, /^\[HITL_REJECT\]/);
    assert.equal(h.approver.requests.length, 2);
    assert.match(h.approver.requests[0].command ?? h.approver.requests[0].reasons.join(' '), /rm -rf src\/auth/);
  });

  it('records the native edit in the extension’s trace, with the lines it changed', async () => {
    assert.equal((await hook('claude', 'pre-edit')).stdout, '');
    await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;'));
    const post = await hook('claude', 'post-edit');
    assert.equal(post.code, 0, post.stderr);
    const mutation = h.trace.mutations.at(-1);
    assert.equal(mutation?.agent.name, 'claude-code');
    assert.equal(mutation?.intent_id, 'auth-refactor');
    assert.deepEqual(mutation?.files, [{ path: 'src/auth/login.ts', before: LOGIN, after: LOGIN.replace('return false;', 'return true;') }]);
  });

  it('answers the handshake with the human’s intent', async () => {
    const run = await hook('claude', 'session-start');
    assert.match(JSON.parse(run.stdout).hookSpecificOutput.additionalContext, /# Active intent: `auth-refactor`/);
  });

  /** A Claude Code payload from a fixture, with changes to its top level and to its tool_input. */
  const claude = (fixture: string, top: Record<string, unknown>, toolInput: Record<string, unknown> = {}) => {
    const payload = JSON.parse(hookFixture('claude', fixture, h.root)) as Record<string, unknown> & { tool_input?: Record<string, unknown> };
    return JSON.stringify({ ...payload, ...top, ...(payload.tool_input ? { tool_input: { ...payload.tool_input, ...toolInput } } : {}) });
  };
  const denial = (stdout: string) => JSON.parse(stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };

  it('denies a Write to /dev/zero or to a FIFO in the workspace without the extension reading it (its event loop stays free)', async () => {
    const zero = await runHook('claude', claude('pre-write-in-scope', {}, { file_path: '/dev/zero' }), [], env);
    assert.equal(denial(zero.stdout).permissionDecision, 'deny');
    assert.match(denial(zero.stdout).permissionDecisionReason, /^\[PATH_OUTSIDE_WORKSPACE\]/);
    execFileSync('mkfifo', [join(h.root, 'src', 'auth', 'pipe.ts')]);
    const fifo = await runHook('claude', claude('pre-write-in-scope', {}, { file_path: join(h.root, 'src', 'auth', 'pipe.ts') }), [], env);
    assert.equal(denial(fifo.stdout).permissionDecision, 'deny');
    assert.match(denial(fifo.stdout).permissionDecisionReason, /src\/auth\/pipe\.ts.*not a regular file/);
  });

  it('judges a relative path and a Bash command where Claude Code runs them: the payload cwd', async () => {
    await mkdir(join(h.root, 'src', 'billing'), { recursive: true });
    const nested = await runHook('claude', claude('pre-write-in-scope', { cwd: join(h.root, 'src', 'billing') }, { file_path: 'src/auth/token.ts' }), [], env);
    assert.match(denial(nested.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/src\/auth\/token\.ts"/);
    const inScope = await runHook('claude', claude('pre-write-in-scope', { cwd: join(h.root, 'src') }, { file_path: 'auth/token.ts' }), [], env);
    assert.deepEqual([inScope.code, inScope.stdout], [0, ''], inScope.stderr);
    const bash = await runHook('claude', claude('pre-bash-safe', { cwd: join(h.root, 'src', 'billing') }, { command: 'echo x > invoice.ts' }), [], env);
    assert.match(denial(bash.stdout).permissionDecisionReason, /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
  });

  it('frees the conversation’s read ledger when Claude Code ends the session', async () => {
    const sessions = h.governor.services.sessions;
    assert.equal((await hook('claude', 'pre-read')).stdout, '');
    const post = await runHook('claude', claude('pre-read', { hook_event_name: 'PostToolUse', tool_response: {} }), [], env);
    assert.equal(post.code, 0, post.stderr);
    assert.equal(sessions.lastRead('claude:abc123', 'src/auth/login.ts')?.text, LOGIN);
    const end = await hook('claude', 'session-end');
    assert.deepEqual([end.code, end.stdout], [0, ''], end.stderr);
    assert.equal(sessions.lastRead('claude:abc123', 'src/auth/login.ts'), undefined);
    assert.equal(sessions.stats().textBytes, 0);
  });

  it('keeps the route behind the bearer token', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}${HOOK_PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 401);
    const bad = await fetch(`http://127.0.0.1:${server.port}${HOOK_PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, body: '{"phase":"pre"}' });
    assert.equal(bad.status, 400);
  });
});
