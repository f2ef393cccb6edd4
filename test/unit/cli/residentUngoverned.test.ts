import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHookLauncher, hookLauncherPath } from '../../../src/core/agents/common/hookLauncher';
import { contentHash } from '../../../src/core/contentHash';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { finished, runNode, type Finished } from '../../support/childProcesses';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture } from '../../support/runHook';
import { residentBundles, stopResident } from '../../support/residentDoors';

/**
 * No change on disk without a record, even when no hook fired: while a governed call is open (a Task, whose subagent's
 * own calls may send no hooks), the resident watches the workspace; a file changed there behind the governor's back by
 * another process is an ungoverned record, and governor check fails on it until a person accepts it or reverts it.
 * The calls go through the installed hook launcher to a real resident; the changes are real files.
 */
describe('resident governor: ungoverned changes (a call open, a file changed behind its back)', function () {
  this.timeout(60_000);
  let w: HeadlessHookWorkspace;
  let env: NodeJS.ProcessEnv;
  let cli: string;
  let launcher: string;

  before(() => {
    ({ cli } = residentBundles());
  });

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN, 'docs/guide.md': '# Guide\n', '.vscode/settings.json': JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }) } });
    env = { ...process.env, ...w.env, INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '30000', INTENT_GOVERNOR_WATCH_SETTLE_MS: '100', INTENT_GOVERNOR_WATCH: 'on' };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: w.h.root, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Ada Reviewer');
    git('config', 'user.email', 'ada@example.com');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const { hook } = residentBundles();
    await ensureHookLauncher(env, hook);
    launcher = hookLauncherPath(env);
  });

  afterEach(async () => {
    stopResident(w.home, w.h.root);
    await w.dispose();
  });

  function callHook(payload: object | string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Finished> {
    const child = spawn(launcher, ['hook', 'claude', '--timeout-ms', '20000'], { cwd: w.h.root, env: { ...env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    child.stdin.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    return finished(child);
  }

  const readLog = () => (existsSync(join(w.home, 'run', 'resident.log')) ? readFileSync(join(w.home, 'run', 'resident.log'), 'utf8') : '(no log)');
  const governor = (args: string[]) => runNode(cli, [...args, '--workspace', w.h.root], env, w.h.root);
  const task = (event: 'PreToolUse' | 'PostToolUse', id = 'toolu_01Task') => ({
    session_id: 'abc123',
    transcript_path: '/home/user/.claude/projects/demo/abc123.jsonl',
    cwd: w.h.root,
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: 'Task',
    tool_use_id: id,
    tool_input: { description: 'Refactor auth', prompt: 'Refactor the auth module', subagent_type: 'general-purpose' },
    ...(event === 'PostToolUse' ? { tool_response: { content: [{ type: 'text', text: 'done' }] } } : {}),
  });

  /** The resident, started by a first call (decided by the Node hook, which starts it) and serving the next. */
  async function residentServing(extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
    assert.equal((await callHook(hookFixture('claude', 'session-start', w.h.root), extraEnv)).code, 0);
    const deadline = Date.now() + 15_000;
    while (residentEndpointPid(w.home, w.h.root) === undefined) {
      if (Date.now() > deadline) assert.fail(`no resident endpoint appeared; log:\n${readLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  type Rec = { id: string; metadata: Record<string, unknown> & { files?: Array<{ path: string; before_hash?: string; after_hash?: string; change: string }> } };
  const traced = (): Rec[] => (existsSync(join(w.h.root, '.orchestration', 'agent_trace.jsonl')) ? (w.traceRecords() as unknown as Rec[]) : []);
  const ungovernedRecords = (): Rec[] => traced().filter((r) => r.metadata.kind === 'ungoverned');

  async function ungovernedWithin2s(path: string): Promise<Rec> {
    const deadline = Date.now() + 2_000;
    for (;;) {
      const found = ungovernedRecords().find((r) => r.metadata.files?.some((f) => f.path === path));
      if (found) return found;
      if (Date.now() > deadline) assert.fail(`no ungoverned record of ${path} within 2 s; trace:\n${JSON.stringify(traced(), null, 1)}\nlog:\n${readLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Long enough for any event to settle and be judged (the settle delay is 100 ms here). */
  const quiet = () => new Promise((resolve) => setTimeout(resolve, 1_000));

  it('a file written by another process while a Task is open is on the record within 2 s, fails governor check naming it, and passes once accepted', async () => {
    await residentServing();
    assert.equal((await governor(['check'])).code, 0, 'the workspace passes before');
    const pre = await callHook(task('PreToolUse'));
    assert.equal(pre.code, 0, pre.stderr);
    assert.doesNotMatch(pre.stdout, /"permissionDecision":"deny"/u);
    // Behind the governor's back: another process (the subagent whose tools send no hooks) writes a tracked file and a new one.
    execFileSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(join(w.h.root, 'src/auth/login.ts'))}, 'export const login = () => true;\\n'); require('fs').writeFileSync(${JSON.stringify(join(w.h.root, 'docs/new.md'))}, 'new\\n')`]);
    assert.equal((await callHook(task('PostToolUse'))).code, 0);

    const changed = await ungovernedWithin2s('src/auth/login.ts');
    assert.match(String(changed.metadata.session_id), /abc123/u);
    assert.deepEqual(changed.metadata.ungoverned, { call: { tool: 'Task', call_id: 'toolu_01Task' }, before_from: 'git' });
    const file = changed.metadata.files?.find((f) => f.path === 'src/auth/login.ts');
    assert.equal(file?.before_hash, contentHash(LOGIN), 'before: what git HEAD holds');
    assert.equal(file?.after_hash, contentHash('export const login = () => true;\n'));
    const created = await ungovernedWithin2s('docs/new.md');
    assert.equal(created.metadata.files?.[0].change, 'created');
    assert.match(readLog(), /ungoverned change: src\/auth\/login\.ts changed during Task \(toolu_01Task\)/u);

    const failed = await governor(['check']);
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(failed.stdout, /FAIL  ungoverned: 2 change/u);
    assert.match(failed.stdout, new RegExp(`record ${changed.id}\\): src/auth/login\\.ts changed during Task \\(toolu_01Task\\) of session \\S*abc123`, 'u'));

    // One accepted by id, the other reverted (a new file removed: back to no file): the check passes.
    const accepted = await governor(['accept', changed.id]);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /accepted: .*src\/auth\/login\.ts/u);
    const stillOne = await governor(['check']);
    assert.match(stillOne.stdout, /FAIL  ungoverned: 1 change.*\n.*docs\/new\.md/u);
    execFileSync('rm', [join(w.h.root, 'docs/new.md')]);
    const passed = await governor(['check']);
    assert.equal(passed.code, 0, passed.stdout);
    assert.match(passed.stdout, /ok    ungoverned: 2 ungoverned change\(s\), each accepted or reverted/u);
    const acceptance = (await w.governanceLog()).find((r) => r.code === 'UNGOVERNED_ACCEPTED');
    assert.equal(acceptance?.record_id, changed.id);
    assert.equal(acceptance?.approver, 'Ada Reviewer <ada@example.com>');
  });

  it("with no call open, a person's edit and a git checkout of another branch raise nothing", async () => {
    execFileSync('git', ['checkout', '-q', '-b', 'other'], { cwd: w.h.root });
    writeFileSync(join(w.h.root, 'docs/guide.md'), '# Guide, other branch\n');
    execFileSync('git', ['commit', '-qam', 'other'], { cwd: w.h.root });
    execFileSync('git', ['checkout', '-q', 'main'], { cwd: w.h.root });
    await residentServing();
    // A call opened and closed before: the watcher stops with it.
    await callHook(task('PreToolUse'));
    await callHook(task('PostToolUse'));
    await quiet();
    writeFileSync(join(w.h.root, 'src/auth/login.ts'), 'export function login() {\n  return true; // a person saved this\n}\n');
    execFileSync('git', ['checkout', '-q', 'other'], { cwd: w.h.root });
    await quiet();
    assert.deepEqual(ungovernedRecords(), [], readLog());
    const check = await governor(['check']);
    assert.equal(check.code, 0, check.stdout);
    assert.doesNotMatch(check.stdout, /ungoverned/u);
    // The same resident does see a change once a call is open again: only that one is on the record.
    await callHook(task('PreToolUse', 'toolu_02Task'));
    writeFileSync(join(w.h.root, 'docs/behind.md'), 'behind\n');
    await callHook(task('PostToolUse', 'toolu_02Task'));
    await ungovernedWithin2s('docs/behind.md');
    assert.deepEqual(ungovernedRecords().flatMap((r) => r.metadata.files?.map((f) => f.path)), ['docs/behind.md']);
  });

  it('a governed Write inside the Task window is its own record, never an ungoverned one; a file beside it no call names is', async () => {
    await residentServing();
    assert.equal((await callHook(task('PreToolUse'))).code, 0);
    const pre = await callHook(hookFixture('claude', 'pre-write-in-scope', w.h.root));
    assert.equal(pre.code, 0, pre.stderr);
    assert.doesNotMatch(pre.stdout, /"permissionDecision":"deny"/u, pre.stdout);
    writeFileSync(join(w.h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    // In the same window, beside the governed write, a file no call names.
    writeFileSync(join(w.h.root, 'src/auth/beside.ts'), 'export const beside = 1;\n');
    assert.equal((await callHook(hookFixture('claude', 'post-write-in-scope', w.h.root))).code, 0);
    await quiet();
    assert.equal((await callHook(task('PostToolUse'))).code, 0);
    await ungovernedWithin2s('src/auth/beside.ts');
    await quiet();
    const records = traced();
    assert.ok(records.some((r) => r.metadata.kind === 'mutation' && r.metadata.files?.some((f) => f.path === 'src/auth/token.ts')), JSON.stringify(records, null, 1));
    assert.deepEqual(ungovernedRecords().flatMap((r) => r.metadata.files?.map((f) => f.path)), ['src/auth/beside.ts'], readLog());
    const check = await governor(['check']);
    assert.equal(check.code, 1);
    assert.doesNotMatch(check.stdout, /token\.ts/u);
  });

  it('a watcher that cannot start for an open call is said in the log and fails governor check (fail closed)', async () => {
    env = { ...env, INTENT_GOVERNOR_WATCH: 'fail' };
    await residentServing();
    assert.equal((await callHook(task('PreToolUse'))).code, 0);
    assert.equal((await callHook(task('PostToolUse'))).code, 0);
    const deadline = Date.now() + 2_000;
    while (ungovernedRecords().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const [unwatched] = ungovernedRecords();
    assert.match(String((unwatched?.metadata.ungoverned as { unwatched?: string } | undefined)?.unwatched), /INTENT_GOVERNOR_WATCH=fail/u, readLog());
    assert.match(readLog(), /cannot watch .* during Task \(toolu_01Task\)/u);
    const check = await governor(['check']);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /the workspace went unwatched during Task \(toolu_01Task\)/u);
  });
});
