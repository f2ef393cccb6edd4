import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHookLauncher, hookLauncherPath } from '../../../src/core/agents/common/hookLauncher';
import { residentEndpointPath } from '../../../src/core/agents/common/residentProtocol';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { residentStartMarker } from '../../../src/cli/residentStarter';
import { finished, type Finished } from '../../support/childProcesses';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture } from '../../support/runHook';
import { removeTree } from '../../support/removeTree';
import { residentBundles, stopResident } from '../../support/residentDoors';

/**
 * The workspace's resident governor, reached as installed hooks reach it: through the per-user launcher (sh), which
 * POSTs the hook input over bash's /dev/tcp to the resident that the first, Node-decided call started. A `node` first on PATH
 * that fails loudly proves a call started no JavaScript runtime.
 */
describe('resident governor (hook launcher → /dev/tcp → governor resident)', function () {
  this.timeout(60_000);
  let w: HeadlessHookWorkspace;
  let env: NodeJS.ProcessEnv;
  let noNode: string;
  let launcher: string;
  let cli: string;

  before(() => {
    ({ cli } = residentBundles());
  });

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN, 'docs/guide.md': '# Guide\n', '.vscode/settings.json': JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }) } });
    env = { ...process.env, ...w.env, INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '20000' };
    const { hook } = residentBundles();
    await ensureHookLauncher(env, hook);
    launcher = hookLauncherPath(env);
    noNode = mkdtempSync(join(tmpdir(), 'ig-nonode-'));
    writeFileSync(join(noNode, 'node'), '#!/bin/sh\necho "node was started" >&2\nexit 1\n');
    chmodSync(join(noNode, 'node'), 0o755);
  });

  afterEach(async () => {
    stopResident(w.home, w.h.root);
    await w.dispose();
    await removeTree(noNode);
  });

  function callHook(agent: string, payload: string, options: { node?: boolean; timeoutMs?: number } = {}): Promise<Finished> {
    const path = options.node === false ? `${noNode}:${process.env.PATH ?? ''}` : process.env.PATH;
    const child = spawn(launcher, ['hook', agent, '--timeout-ms', String(options.timeoutMs ?? 20_000)], { cwd: w.h.root, env: { ...env, PATH: path }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined); // a launcher that answers before reading stdin is fine
    child.stdin.end(payload);
    return finished(child);
  }

  async function residentUp(): Promise<number> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const pid = residentEndpointPid(w.home, w.h.root);
      if (pid !== undefined) return pid;
      if (Date.now() > deadline) assert.fail(`no resident endpoint appeared; log:\n${readLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const readLog = () => (existsSync(join(w.home, 'run', 'resident.log')) ? readFileSync(join(w.home, 'run', 'resident.log'), 'utf8') : '(no log)');
  const gemini = (name: string) => hookFixture('gemini', name, w.h.root);

  it('the first call starts the resident; later calls are decided there with no node started, in scope allowed and out of scope refused', async () => {
    const first = await callHook('gemini', gemini('before-read-file'));
    assert.equal(first.code, 0, first.stderr);
    await residentUp();
    const inScope = await callHook('gemini', gemini('before-write-file-in-scope'), { node: false });
    assert.equal(inScope.code, 0, `${inScope.stderr}\n${readLog()}`);
    assert.doesNotMatch(inScope.stderr, /node was started/u);
    const outOfScope = await callHook('gemini', gemini('before-write-file-out-of-scope'), { node: false });
    assert.equal(outOfScope.code, 0, outOfScope.stderr);
    assert.match(outOfScope.stdout, /"decision":"deny".*SCOPE_VIOLATION/u);
    assert.doesNotMatch(outOfScope.stderr, /node was started/u);
  });

  it('a resident that comes up on intents it cannot parse (it reads them ahead) serves on: calls are refused naming the file until it is fixed, then allowed', async () => {
    const intents = join(w.h.root, '.orchestration', 'active_intents.yaml');
    const good = readFileSync(intents, 'utf8');
    writeFileSync(intents, 'active_intents: [\n  - id: "unclosed\n');
    await callHook('gemini', gemini('before-read-file'));
    await residentUp();
    const refused = await callHook('gemini', gemini('before-write-file-in-scope'), { node: false });
    assert.equal(refused.code, 0, `${refused.stderr}\n${readLog()}`);
    assert.doesNotMatch(refused.stderr, /node was started/u);
    assert.match(refused.stdout, /"decision":"deny".*active_intents\.yaml/u);
    writeFileSync(intents, good);
    const allowed = await callHook('gemini', gemini('before-write-file-in-scope'), { node: false });
    assert.equal(allowed.code, 0, `${allowed.stderr}\n${readLog()}`);
    assert.doesNotMatch(allowed.stdout, /"decision":"deny"/u);
    assert.doesNotMatch(allowed.stderr, /node was started/u);
  });

  it('input and answer pass whole, counted in bytes (text beyond ASCII, trailing newlines); input that is not JSON is refused', async () => {
    await callHook('gemini', gemini('before-read-file'));
    await residentUp();
    // A path outside the scope in letters beyond ASCII, which the refusal names back: a length in characters would cut both.
    const outside = JSON.stringify({ ...JSON.parse(gemini('before-write-file-out-of-scope')), tool_input: { file_path: 'docs/naïve-€-😀.md', content: 'é\n\n' } });
    const refused = await callHook('gemini', `${outside}\n\n`, { node: false });
    assert.equal(refused.code, 0, refused.stderr);
    assert.doesNotMatch(refused.stderr, /node was started/u);
    assert.match(refused.stdout, /"decision":"deny".*SCOPE_VIOLATION.*docs\/naïve-€-😀\.md/u);
    // Input that is not JSON: the resident's server turns it away (400), so the Node hook refuses it in Gemini CLI's words.
    const unreadable = await callHook('gemini', '{"hook_event_name": "BeforeTool", "tool_name": ');
    assert.equal(unreadable.code, 2, unreadable.stdout);
    assert.match(unreadable.stderr, /Intent Governor/u);
  });

  it('the resident records the change at the post event, once', async () => {
    await callHook('gemini', gemini('before-read-file'));
    await residentUp();
    assert.equal((await callHook('gemini', gemini('before-write-file-in-scope'), { node: false })).code, 0);
    writeFileSync(join(w.h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    const post = await callHook('gemini', gemini('after-write-file'), { node: false });
    assert.equal(post.code, 0, post.stderr);
    // The post is answered at once and recorded right after: the session's next call on that file waits for that record.
    assert.equal((await callHook('gemini', gemini('before-write-file-in-scope'), { node: false })).code, 0);
    const records = w.traceRecords().filter((record) => JSON.stringify(record).includes('src/auth/token.ts'));
    assert.equal(records.length, 1, JSON.stringify(w.traceRecords(), null, 1));
  });

  it("a human's save between the agent's read and its edit is STALE_FILE", async () => {
    await callHook('gemini', gemini('session-start'));
    await residentUp();
    const read = await callHook('gemini', gemini('before-read-file'), { node: false });
    assert.equal(read.code, 0, read.stderr);
    const afterRead = { ...JSON.parse(gemini('before-read-file')), hook_event_name: 'AfterTool', tool_response: { llmContent: LOGIN } };
    assert.equal((await callHook('gemini', JSON.stringify(afterRead), { node: false })).code, 0);
    writeFileSync(join(w.h.root, 'src/auth/login.ts'), 'export function login() {\n  return true; // a human saved this\n}\n');
    const write = JSON.stringify({ ...JSON.parse(gemini('before-write-file-in-scope')), tool_input: { file_path: 'src/auth/login.ts', content: 'export const login = 2;\n' } });
    const refused = await callHook('gemini', write, { node: false });
    assert.match(refused.stdout, /"decision":"deny".*STALE_FILE/u, refused.stderr);
  });

  it('a killed resident: the next call is decided by the Node hook, which starts a new resident that serves the calls after it', async () => {
    await callHook('gemini', gemini('before-read-file'));
    const first = await residentUp();
    process.kill(first, 'SIGKILL');
    const afterKill = await callHook('gemini', gemini('before-write-file-out-of-scope'));
    assert.match(afterKill.stdout, /"decision":"deny".*SCOPE_VIOLATION/u, `${afterKill.code} ${afterKill.stderr}`);
    // The dead resident's endpoint is still there until the new one replaces it.
    const deadline = Date.now() + 20_000;
    while (residentEndpointPid(w.home, w.h.root) === first && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await callHook('gemini', gemini('before-read-file'));
    }
    assert.notEqual(residentEndpointPid(w.home, w.h.root), first, readLog());
    const thin = await callHook('gemini', gemini('before-write-file-in-scope'), { node: false });
    assert.equal(thin.code, 0, thin.stderr);
  });

  it('a start that lost the race with a serving resident leaves no start marker behind: when that resident is killed, the next Node-decided call starts a new one', async () => {
    await callHook('gemini', gemini('before-read-file'));
    const first = await residentUp();
    const marker = residentStartMarker(w.home, w.h.root);
    while (existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 50)); // the first one removes its own once it serves
    // A hook that fell back to Node while the first resident came up started another (the marker, then `governor resident`).
    writeFileSync(marker, '');
    const loser = await finished(spawn(process.execPath, [cli, 'resident', '--workspace', w.h.root], { cwd: w.h.root, env, stdio: 'ignore' }));
    assert.equal(loser.code, 0);
    assert.equal(residentEndpointPid(w.home, w.h.root), first, 'the serving resident keeps the workspace');
    process.kill(first, 'SIGKILL');
    const afterKill = await callHook('gemini', gemini('before-write-file-out-of-scope'));
    assert.match(afterKill.stdout, /"decision":"deny".*SCOPE_VIOLATION/u, `${afterKill.code} ${afterKill.stderr}`);
    // Only that one call after the kill: a marker left by the lost race would have kept it from starting a resident.
    const deadline = Date.now() + 15_000;
    while (residentEndpointPid(w.home, w.h.root) === first && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.notEqual(residentEndpointPid(w.home, w.h.root), first, readLog());
  });

  it('a resident that does not answer in time is a refusal with its reason, never an allow', async () => {
    await callHook('gemini', gemini('before-read-file'));
    const pid = await residentUp();
    process.kill(pid, 'SIGSTOP');
    try {
      const stalled = await callHook('gemini', gemini('before-write-file-in-scope'), { node: false, timeoutMs: 1_000 });
      assert.equal(stalled.code, 2);
      assert.match(stalled.stderr, /did not answer within/u);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('a change to the workspace settings hands the workspace to a fresh resident, so the new approval mode applies', async () => {
    await callHook('gemini', gemini('before-read-file'));
    const first = await residentUp();
    assert.equal((await callHook('gemini', gemini('before-write-file-in-scope'), { node: false })).code, 0);
    writeFileSync(join(w.h.root, '.vscode', 'settings.json'), JSON.stringify({ 'intentGovernor.approval': 'every-change' }));
    const deadline = Date.now() + 10_000;
    while (residentEndpointPid(w.home, w.h.root) === first && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.notEqual(residentEndpointPid(w.home, w.h.root), first, readLog());
    const asked = await callHook('gemini', gemini('before-write-file-in-scope'));
    assert.match(asked.stdout, /"decision":"deny".*every-change/u, asked.stderr);
  });

  it('two agents of different kinds share the one resident and one trace', async () => {
    await callHook('gemini', gemini('before-read-file'));
    const pid = await residentUp();
    const codexPre = hookFixture('codex', 'pre-apply-patch', w.h.root);
    const pre = await callHook('codex', codexPre, { node: false });
    assert.equal(pre.code, 0, `${pre.stdout}\n${pre.stderr}`);
    assert.equal(residentEndpointPid(w.home, w.h.root), pid);
    assert.ok(existsSync(residentEndpointPath(w.home, w.h.root)));
  });

  it("a change to a hooks file fires the person's ConfigChange hooks from the resident, once per change, with Claude Code's source and file_path", async () => {
    const marker = join(w.home, 'config-changes.jsonl');
    const own = { hooks: { ConfigChange: [{ matcher: 'project_settings|local_settings', hooks: [{ type: 'command', command: `cat >> '${marker}'; echo >> '${marker}'` }] }] } };
    writeFileSync(join(w.home, 'hooks.json'), JSON.stringify(own));
    await callHook('gemini', gemini('before-read-file'));
    await residentUp();
    const lines = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []);
    const until = async (count: number) => {
      const deadline = Date.now() + 15_000;
      while (lines().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    };
    writeFileSync(join(w.h.root, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: {} }));
    await until(1);
    mkdirSync(join(w.h.root, '.claude'), { recursive: true });
    writeFileSync(join(w.h.root, '.claude', 'settings.local.json'), '{}');
    await until(2);
    const fired = lines();
    // The second change fired after the first one's hooks had run: a repeat of the first would be among these.
    assert.deepEqual(
      fired.map((input) => [input.hook_event_name, input.source, input.file_path]),
      [
        ['ConfigChange', 'project_settings', join(w.h.root, '.orchestration', 'hooks.json')],
        ['ConfigChange', 'local_settings', join(w.h.root, '.claude', 'settings.local.json')],
      ],
      readLog(),
    );
  });
});
