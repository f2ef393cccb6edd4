import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHookLauncher, hookLauncherPath } from '../../../src/core/agents/common/hookLauncher';
import { AGENT_HOOK_PATH, forwardedEnvHeader, readResidentEndpoint, RESIDENT_HEADERS } from '../../../src/core/agents/common/residentProtocol';
import { HOOK_PATH } from '../../../src/core/agents/common/nativeCall';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { finished, type Finished } from '../../support/childProcesses';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture } from '../../support/runHook';
import { residentBundles, stopResident } from '../../support/residentDoors';

const TOKEN_FILE = 'src/auth/token.ts';
const AGENT_CONTENT = 'export const token = 1;\n';

/**
 * A process that reads the resident's endpoint file (port and token) can call its hook routes. What it sends gets no
 * more than the agent door would give: a post is recorded only as the post of a pre the same resident answered (same
 * call id, session, agent and intent, and once), so neither an invented post nor a replayed one lands in the trace.
 * A real resident on a temp workspace, a real pre and post through the installed hook launcher (Claude Code's door).
 */
describe('resident governor: a post is recorded only as the post of a pre it answered', function () {
  this.timeout(60_000);
  let w: HeadlessHookWorkspace;
  let env: NodeJS.ProcessEnv;
  let launcher: string;
  let cli: string;
  let hookJs: string;

  before(() => {
    ({ cli } = residentBundles());
  });

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN, '.vscode/settings.json': JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }) } });
    env = { ...process.env, ...w.env, INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '20000' };
    hookJs = residentBundles().hook;
    await ensureHookLauncher(env, hookJs);
    launcher = hookLauncherPath(env);
    // The first call is the Node hook's, which starts the resident; the calls after it reach the resident.
    assert.equal((await callHook(claude('session-start'))).code, 0);
    await residentUp();
  });

  afterEach(async () => {
    stopResident(w.home, w.h.root);
    await w.dispose();
  });

  const claude = (name: string) => hookFixture('claude', name, w.h.root);
  const readLog = () => (existsSync(join(w.home, 'run', 'resident.log')) ? readFileSync(join(w.home, 'run', 'resident.log'), 'utf8') : '(no log)');

  /** The agent's hook command as installed: the launcher, which reaches the resident over /dev/tcp. */
  function callHook(payload: string): Promise<Finished> {
    const child = spawn(launcher, ['hook', 'claude', '--timeout-ms', '20000'], { cwd: w.h.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    child.stdin.end(payload);
    return finished(child);
  }

  async function residentUp(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (residentEndpointPid(w.home, w.h.root) === undefined) {
      if (Date.now() > deadline) assert.fail(`no resident endpoint appeared; log:\n${readLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** What the token holder does: reads the endpoint file and calls a route itself, with headers of its choosing. */
  async function forge(path: string, body: unknown, headers: Record<string, string> = {}, status = 200): Promise<string> {
    const endpoint = readResidentEndpoint(w.home, w.h.root);
    assert.ok(endpoint, 'the endpoint file is there');
    const response = await fetch(`http://127.0.0.1:${endpoint.port}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${endpoint.token}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const text = await response.text();
    assert.equal(response.status, status, text);
    return text;
  }

  /** A Claude Code hook event sent to /agent-hook as the launcher would, under the intent the caller names. */
  const forgeAgentHook = (payload: Record<string, unknown>, intent: string) =>
    forge(AGENT_HOOK_PATH, payload, { [RESIDENT_HEADERS.agent]: 'claude', [RESIDENT_HEADERS.cwd]: w.h.root, [RESIDENT_HEADERS.timeoutMs]: '10000', [forwardedEnvHeader('INTENT_GOVERNOR_INTENT')]: intent });

  /** Schema-checked; none before the first record (the file is made by it). */
  const records = () => (existsSync(join(w.h.root, '.orchestration', 'agent_trace.jsonl')) ? w.traceRecords() : []);
  const recordsOf = (path: string) => records().filter((record) => record.files.some((file) => file.path === path));
  const afterHashes = (path: string) =>
    recordsOf(path).flatMap((record) => ((record.metadata as { files?: { path: string; after_hash?: string }[] }).files ?? []).filter((file) => file.path === path).map((file) => file.after_hash));
  const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
  const refusalsLogged = async () => (existsSync(join(w.h.root, '.orchestration', 'governance_log.jsonl')) ? await w.governanceLog() : []).filter((entry) => entry.code === 'UNMATCHED_POST');

  async function verify(): Promise<{ code: number | null; report: Record<string, unknown> }> {
    const run = await finished(spawn(process.execPath, [cli, 'trace', 'verify', '--json', '--workspace', w.h.root], { cwd: w.h.root, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    return { code: run.code, report: JSON.parse(run.stdout) as Record<string, unknown> };
  }

  /** The genuine call: its pre through the door, then (`between` done) the tool's write and its post through the door. */
  async function genuineWrite(between?: () => Promise<void>): Promise<void> {
    const pre = await callHook(claude('pre-write-in-scope'));
    assert.equal(pre.code, 0, `${pre.stdout}\n${pre.stderr}\n${readLog()}`);
    assert.doesNotMatch(pre.stdout, /"permissionDecision":"deny"/u);
    await between?.();
    writeFileSync(join(w.h.root, TOKEN_FILE), AGENT_CONTENT);
    const post = await callHook(claude('post-write-in-scope'));
    assert.equal(post.code, 0, post.stderr);
    assert.doesNotMatch(post.stdout, /UNMATCHED_POST/u, 'the genuine post is not refused');
  }

  /** Records are written just after an early answer: the next call of the session waits for them, a test polls. */
  async function eventually(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) if (await check()) return;
    assert.fail(`never: ${what}\n${readLog()}`);
  }

  it('the genuine pre and post record the change exactly once', async () => {
    await genuineWrite();
    await eventually('the change is recorded', () => recordsOf(TOKEN_FILE).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(recordsOf(TOKEN_FILE).length, 1);
    assert.deepEqual(afterHashes(TOKEN_FILE), [sha(AGENT_CONTENT)]);
    assert.deepEqual(await refusalsLogged(), []);
  });

  it("a post whose pre another governor answered (a Node hook on its own) is taken from the pending entry that pre left: recorded once, as an ordinary post", async () => {
    // The pre judged by a one-shot Node hook that starts no resident, as when the resident is not up yet.
    const child = spawn(process.execPath, [hookJs, 'hook', 'claude', '--timeout-ms', '20000'], { cwd: w.h.root, env: { ...env, INTENT_GOVERNOR_RESIDENT: 'off' }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(claude('pre-write-in-scope'));
    const pre = await finished(child);
    assert.equal(pre.code, 0, pre.stderr);
    assert.doesNotMatch(pre.stdout, /"permissionDecision":"deny"/u);
    writeFileSync(join(w.h.root, TOKEN_FILE), AGENT_CONTENT);
    const post = await callHook(claude('post-write-in-scope'));
    assert.doesNotMatch(post.stdout, /UNMATCHED_POST/u, `${post.stdout}\n${readLog()}`);
    await eventually('the change is recorded', () => recordsOf(TOKEN_FILE).length === 1);
    assert.deepEqual(afterHashes(TOKEN_FILE), [sha(AGENT_CONTENT)]);
    assert.deepEqual(await refusalsLogged(), []);
  });

  it('a forged post (invented agent, session, intent; or the genuine call under another intent) is refused: no record, the refusal logged, verify shows only the genuine record', async () => {
    const post = JSON.parse(claude('post-write-in-scope')) as Record<string, unknown>;
    // Between the genuine pre and post: the genuine call (its session and id) under another intent. It must not take
    // the genuine post's place, nor bind the session to that intent.
    let early = '';
    await genuineWrite(async () => {
      early = await forgeAgentHook(post, 'docs');
    });
    await eventually('the genuine change is recorded', () => recordsOf(TOKEN_FILE).length === 1);
    const genuine = records().length;

    // The token holder writes a file and has it recorded under an agent, session and intent it made up.
    writeFileSync(join(w.h.root, 'src/auth/forged.ts'), 'export const forged = true;\n');
    const forgedWrite = [{ tool: 'write_file', input: { path: join(w.h.root, 'src/auth/forged.ts'), content: 'export const forged = true;\n' } }];
    // An agent no door speaks for (and a model id no door sends) is turned away at the route, as a malformed request.
    const invented = await forge(HOOK_PATH, { phase: 'post', session_id: 'mallory:session-1', agent: { name: 'Invented Agent', model_id: 'made-up' }, key: 'mallory:session-1:toolu_invented', intent_id: 'docs', calls: forgedWrite }, {}, 400);
    const raw = await forge(HOOK_PATH, { phase: 'post', session_id: 'claude:invented-session', agent: { name: 'claude-code' }, key: 'claude:invented-session:toolu_invented', intent_id: 'docs', calls: forgedWrite });
    const viaDoor = await forgeAgentHook({ ...post, session_id: 'invented-session', tool_use_id: 'toolu_invented', tool_input: { file_path: join(w.h.root, 'src/auth/forged.ts'), content: 'export const forged = true;\n' } }, 'docs');

    // The session's next call waits for any recording still under way: after it, nothing more can land.
    assert.equal((await callHook(claude('pre-read'))).code, 0);
    assert.equal(records().length, genuine, JSON.stringify(records(), null, 1));
    assert.deepEqual(recordsOf('src/auth/forged.ts'), []);
    assert.ok(!JSON.stringify(records()).includes('Invented Agent'));
    assert.equal((recordsOf(TOKEN_FILE)[0].metadata as { intent_id?: string }).intent_id, 'auth-refactor', 'the forged intent bound nothing');
    // Each caller is told it was refused, and why; each refusal is in the governance log.
    assert.match(early, /"decision":"block".*UNMATCHED_POST.*its intent differs/u, early);
    assert.match(invented, /not one an agent door sends/u);
    assert.equal((JSON.parse(raw) as { decision: string }).decision, 'deny', raw);
    assert.match(raw, /UNMATCHED_POST.*answered no pre/u);
    assert.match(viaDoor, /"decision":"block".*UNMATCHED_POST/u, viaDoor);
    assert.equal((await refusalsLogged()).length, 3);
    const verified = await verify();
    assert.equal(verified.code, 0, JSON.stringify(verified.report));
    assert.equal(records().length, genuine);
  });

  it("a replayed post after a person edited the file is refused: the trace says nothing about the person's content", async () => {
    await genuineWrite();
    await eventually('the genuine change is recorded', () => recordsOf(TOKEN_FILE).length === 1);
    const personContent = 'export const token = 2; // a person typed this\n';
    writeFileSync(join(w.h.root, TOKEN_FILE), personContent);
    // Replayed through the door itself, and by a token holder straight to the route.
    const replay = await callHook(claude('post-write-in-scope'));
    const byToken = await forgeAgentHook(JSON.parse(claude('post-write-in-scope')) as Record<string, unknown>, 'auth-refactor');
    assert.equal((await callHook(claude('pre-read'))).code, 0);
    assert.equal(recordsOf(TOKEN_FILE).length, 1, JSON.stringify(recordsOf(TOKEN_FILE), null, 1));
    assert.deepEqual(afterHashes(TOKEN_FILE), [sha(AGENT_CONTENT)]);
    assert.ok(!JSON.stringify(records()).includes(sha(personContent)), "no record carries the person's content");
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout, /"decision":"block".*UNMATCHED_POST.*came already/u, replay.stdout);
    assert.match(byToken, /UNMATCHED_POST/u);
    assert.equal((await refusalsLogged()).length, 2);
    assert.equal((await verify()).code, 0);
  });
});
