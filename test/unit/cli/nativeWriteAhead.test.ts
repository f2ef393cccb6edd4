import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundledScript } from '../../support/bundledScript';
import { finished, waitForOutput } from '../../support/childProcesses';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';
import { runGovernor } from '../../support/runGovernor';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const TOKEN = 'export const token = 1;\n';
/** The invocation the claude fixtures' Write stands for: `<session>:<tool_use_id>#<call>`. */
const WRITE_INVOCATION = 'claude:abc123:toolu_01WriteInScope#0';

type Meta = { invocation_id?: string; reconciled?: string; intent_id?: string; agent?: string; files?: { path: string; change: string; before_hash?: string; after_hash?: string }[] };
type Ranges = { conversations: { ranges: { start_line: number; end_line: number }[] }[] };

/**
 * An agent's native change whose PostToolUse never comes (the editor closed, the agent was killed, the hook
 * timed out) is on the record all the same: the PreToolUse that allowed it left a pending entry, and the next
 * hook call or `governor check` records it once the file changed, or drops the entry when it did not.
 */
describe('native changes whose post event never came (real hook processes)', function () {
  this.timeout(120_000);
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  let home: string;
  beforeEach(async () => ({ h, home, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  const hook = (agent: string, fixture: string, args = ['--intent', 'auth-refactor']) => runHook(agent, hookFixture(agent, fixture, h.root), args, env);
  const check = () => runGovernor(['check', '--workspace', h.root], { anchorDir: join(home, 'anchors'), home, env: { INTENT_GOVERNOR_HOME: home } });
  const traced = () => existsSync(join(h.root, '.orchestration', 'agent_trace.jsonl'));
  const mutations = () => (traced() ? workspace.traceRecords() : []).filter((r) => r.metadata.kind === 'mutation') as unknown as ({ files: ({ path: string } & Ranges)[]; metadata: Meta })[];
  const recordsOf = (path: string) => mutations().filter((r) => r.files.some((f) => f.path === path));
  /** The agents' native changes still waiting in .orchestration/pending/ (entries and claims; not the `done` markers). */
  const pendingNative = async () => (await readdir(join(h.root, '.orchestration', 'pending')).catch(() => [] as string[])).filter((n) => n.startsWith('native.') && (n.endsWith('.json') || n.includes('.claimed.')));
  /** Time passes: the pending entries and `files` were written a minute ago (past the grace a post gets to arrive). */
  const aMinuteLater = async (...files: string[]) => {
    const past = new Date(Date.now() - 60_000);
    const dir = join(h.root, '.orchestration', 'pending');
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const path of [...names.map((n) => join(dir, n)), ...files.map((f) => join(h.root, f))]) await utimes(path, past, past);
  };

  it('records an in-scope Write whose PostToolUse never came, with its hash, on the next hook call', async () => {
    const pre = await hook('claude', 'pre-write-in-scope');
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, ''); // allowed
    await writeFile(join(h.root, 'src/auth/token.ts'), TOKEN); // the agent's Write runs; its PostToolUse never comes
    await aMinuteLater('src/auth/token.ts');

    const next = await hook('claude', 'pre-read');
    assert.equal(next.code, 0, next.stderr);
    const [record, ...more] = recordsOf('src/auth/token.ts');
    assert.ok(record, 'the change has no trace record');
    assert.equal(more.length, 0);
    assert.equal(record.metadata.invocation_id, WRITE_INVOCATION);
    assert.equal(record.metadata.reconciled, 'post event never came');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.agent, 'claude-code');
    assert.deepEqual(record.metadata.files, [{ path: 'src/auth/token.ts', change: 'created', after_hash: sha(TOKEN) }]);
    assert.deepEqual(await pendingNative(), []);
  });

  it("a Gemini CLI write whose AfterTool the install leaves out, allowed by a one-shot hook (no resident), is recorded by a detached worker once the file holds it, as its post would have", async () => {
    const pre = await runHook('gemini', hookFixture('gemini', 'before-write-file-in-scope', h.root), ['--intent', 'auth-refactor'], { ...env, INTENT_GOVERNOR_UNPOSTED: 'write_file,replace' });
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(recordsOf('src/auth/token.ts').length, 0, 'nothing to record before the tool ran');
    await writeFile(join(h.root, 'src/auth/token.ts'), TOKEN); // the tool runs; Gemini CLI sends no AfterTool
    for (let i = 0; i < 200 && recordsOf('src/auth/token.ts').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const [record, ...more] = recordsOf('src/auth/token.ts');
    assert.ok(record, 'the worker recorded the change');
    assert.equal(more.length, 0);
    assert.equal(record.metadata.reconciled, undefined);
    assert.equal(record.metadata.agent, 'gemini-cli');
    assert.deepEqual(record.metadata.files, [{ path: 'src/auth/token.ts', change: 'created', after_hash: sha(TOKEN) }]);
    for (let i = 0; i < 100 && (await pendingNative()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(await pendingNative(), []);
  });

  it('`governor check` records it too, and the check passes with the change inside its intent scope', async () => {
    await hook('claude', 'pre-edit');
    const edited = LOGIN.replace('return false;', 'return true;');
    await writeFile(join(h.root, 'src/auth/login.ts'), edited);
    await aMinuteLater('src/auth/login.ts');

    const run = await check();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}pending: 1 native change\(s\) recorded whose post event never came, 0 dropped/m);
    assert.match(run.stdout, /^ok {4}scope: 1 traced change\(s\) checked/m);
    const [record] = recordsOf('src/auth/login.ts');
    assert.equal(record.metadata.reconciled, 'post event never came');
    // The before-content was kept with the pending entry: the record names the changed line, not the whole file.
    assert.deepEqual(record.files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
    assert.deepEqual(record.metadata.files, [{ path: 'src/auth/login.ts', change: 'modified', before_hash: sha(LOGIN), after_hash: sha(edited) }]);
    assert.deepEqual(await pendingNative(), []);
  });

  it('a PostToolUse that comes after the reconciliation adds no second record', async () => {
    await hook('claude', 'pre-write-in-scope');
    await writeFile(join(h.root, 'src/auth/token.ts'), TOKEN);
    await aMinuteLater('src/auth/token.ts');
    await hook('claude', 'pre-read'); // reconciles
    assert.equal(recordsOf('src/auth/token.ts').length, 1);

    const post = await hook('claude', 'post-write-in-scope');
    assert.equal(post.code, 0, post.stderr);
    assert.equal(recordsOf('src/auth/token.ts').length, 1);
    assert.deepEqual(await pendingNative(), []);
  });

  it('a PostToolUse that comes in time records the change once, unmarked, and leaves nothing pending', async () => {
    await hook('claude', 'pre-write-in-scope');
    assert.equal((await pendingNative()).length, 1, 'the pre phase left no pending entry');
    await writeFile(join(h.root, 'src/auth/token.ts'), TOKEN);
    await hook('claude', 'post-write-in-scope');
    await aMinuteLater('src/auth/token.ts');
    await hook('claude', 'pre-read');
    const records = recordsOf('src/auth/token.ts');
    assert.equal(records.length, 1);
    assert.equal(records[0].metadata.reconciled, undefined);
    assert.deepEqual(await readdir(join(h.root, '.orchestration', 'pending')).then((names) => names.filter((n) => n.startsWith('native.'))), []);
  });

  it('a Write the agent never carried out leaves no record and no pending entry (governor check)', async () => {
    await hook('claude', 'pre-write-in-scope'); // allowed, but the tool failed or the person said no: nothing written
    await aMinuteLater();
    const run = await check();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}pending: 0 native change\(s\) recorded whose post event never came, 1 dropped \(files unchanged\)/m);
    assert.deepEqual(await pendingNative(), []);
    assert.deepEqual(mutations(), []);
  });

  it('an unchanged file stays pending while its post may still come, and goes when the session ends', async () => {
    await hook('claude', 'pre-edit'); // the agent's own permission prompt may still be open
    await aMinuteLater();
    await hook('claude', 'pre-read');
    assert.equal((await pendingNative()).length, 1);
    const end = await hook('claude', 'session-end');
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(await pendingNative(), []);
    assert.deepEqual(mutations(), []);
  });

  it('a resident governor killed between pre and post: the next hook call records the change at once, with the ranges of its edit', async () => {
    const child = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', 'support', 'residentBridgeChild.ts')), h.root], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = finished(child);
    try {
      await waitForOutput(child, 'ready');
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const path = join(h.root, 'src/auth/login.ts');
      const edit = { search: 'return false;', replace: 'return true;', all: false };
      child.stdin.write(`${JSON.stringify({ phase: 'pre', session_id: 'vscode:s1', agent: { name: 'vscode-agent' }, key: 'vscode:s1:call_1', intent_id: 'auth-refactor', calls: [{ tool: 'edit_file', input: { path }, edits: [edit] }] })}\n`);
      const answer = JSON.parse(String((await lines.next()).value)) as { decision: string; reason?: string };
      assert.equal(answer.decision, 'allow', answer.reason);
      await writeFile(path, LOGIN.replace('return false;', 'return true;')); // the agent's edit lands

      // While the governor that allowed it runs, the change is left for its post event.
      await hook('claude', 'pre-read');
      assert.deepEqual(recordsOf('src/auth/login.ts'), []);

      child.kill('SIGKILL'); // the editor closes before the post event
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
    await hook('claude', 'pre-read');
    const [record, ...more] = recordsOf('src/auth/login.ts');
    assert.ok(record, 'the change has no trace record');
    assert.equal(more.length, 0);
    assert.equal(record.metadata.reconciled, 'the governor that allowed it stopped before recording it');
    assert.equal(record.metadata.agent, 'vscode-agent');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.invocation_id, 'vscode:s1:call_1#0');
    assert.deepEqual(record.files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
    assert.deepEqual(await pendingNative(), []);
  });
});
