import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import type { BridgeRequest } from '../../../../src/core/agents/common/nativeCall';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { createHarness, type Harness } from '../../../support/governorHarness';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const LOGIN = 'export function login() {\n  return false;\n}\n';
const EDITED = LOGIN.replace('return false;', 'return true;');
const LATER = () => Date.now() + 60_000;

/**
 * The pending record of an agent's native change, in one process (the extension's in-memory stash, a headless
 * governor started after the editor closed): what the pre phase leaves on disk, how the post completes it, and how
 * reconciliation records it exactly once.
 */
describe('pending native changes (pre → post, or reconciled)', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  const session = 'vscode:s1';
  const agent = { name: 'vscode-agent' };
  const editLogin = (phase: 'pre' | 'post', key = 'vscode:s1:call_1'): BridgeRequest => ({
    phase,
    session_id: session,
    agent,
    key,
    intent_id: 'auth-refactor',
    calls: [{ tool: 'edit_file', input: { path: join(h.root, 'src/auth/login.ts') }, edits: [{ search: 'return false;', replace: 'return true;', all: false }] }],
    native: { dialect: 'vscode', event: phase === 'pre' ? 'PreToolUse' : 'PostToolUse', session_id: 's1', cwd: h.root, tool_name: 'replace_string_in_file', tool_input: {}, fields: {} },
  });
  const writeLogin = (phase: 'pre' | 'post', key: string, content: string): BridgeRequest => ({ ...editLogin(phase, key), calls: [{ tool: 'write_file', input: { path: join(h.root, 'src/auth/login.ts'), content } }] });
  const bridge = (resident = true) => new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false, resident });
  const pendingNames = async () => (await readdir(join(h.root, '.orchestration', 'pending')).catch(() => [] as string[])).filter((n) => n.startsWith('native.'));
  const waiting = async () => (await pendingNames()).filter((n) => n.endsWith('.json') || n.includes('.claimed.'));

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
  });

  it('the pre phase of an allowed edit leaves its entry on disk: invocation, session, agent, intent, tool, files with before hashes and contents', async () => {
    const answer = await bridge().handle(editLogin('pre'));
    assert.equal(answer.decision, 'allow', answer.reason);
    const names = await pendingNames();
    assert.equal(names.length, 2, names.join());
    const dir = join(h.root, '.orchestration', 'pending');
    const entry = JSON.parse(await readFile(join(dir, names.find((n) => n.endsWith('.json')) as string), 'utf8'));
    assert.equal(entry.key, 'vscode:s1:call_1');
    assert.equal(entry.session_id, session);
    assert.deepEqual(entry.agent, agent);
    assert.equal(entry.intent_id, 'auth-refactor');
    assert.deepEqual(entry.intent_scope, ['src/auth/**', 'test/auth/**']);
    assert.equal(entry.native_tool, 'replace_string_in_file');
    assert.deepEqual(
      entry.files.map((f: Record<string, unknown>) => [f.index, f.tool, f.path, f.before_hash]),
      [[0, 'edit_file', 'src/auth/login.ts', sha(LOGIN)]],
    );
    assert.equal(entry.resident, true);
    assert.equal(entry.pid, process.pid);
    const before = JSON.parse(await readFile(join(dir, names.find((n) => n.endsWith('.before')) as string), 'utf8'));
    assert.deepEqual(before, { 'src/auth/login.ts': LOGIN });
    assert.equal(await readFile(join(dir, '.gitignore'), 'utf8'), '*\n');
  });

  it('reads, commands and refused changes leave no entry', async () => {
    const b = bridge();
    const read = await b.handle({ ...editLogin('pre', 'k-read'), calls: [{ tool: 'read_file', input: { path: join(h.root, 'src/auth/login.ts') } }] });
    assert.equal(read.decision, 'allow', read.reason);
    const command = await b.handle({ ...editLogin('pre', 'k-cmd'), calls: [{ tool: 'run_command', input: { command: 'ls', cwd: h.root } }] });
    assert.equal(command.decision, 'allow', command.reason);
    const refused = await b.handle({ ...editLogin('pre', 'k-out'), calls: [{ tool: 'write_file', input: { path: join(h.root, 'src/billing/x.ts'), content: 'x' } }] });
    assert.equal(refused.decision, 'deny');
    assert.deepEqual(await pendingNames(), []);
  });

  it('a post handled by another governor (the editor closed in between) records with the before-content the entry kept, unmarked', async () => {
    await bridge().handle(editLogin('pre'));
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    await bridge(false).handle(editLogin('post')); // a fresh stash: only the pending entry knows the before
    assert.equal(h.trace.mutations.length, 1);
    const [event] = h.trace.mutations;
    assert.equal(event.reconciled, undefined);
    assert.deepEqual(event.files.map((f) => [f.path, f.before, f.after]), [['src/auth/login.ts', LOGIN, EDITED]]);
    assert.deepEqual(await pendingNames(), []);
  });

  it('reconciles a changed file once it is past its grace period, under the intent of its pre phase', async () => {
    const b = bridge();
    await b.handle(editLogin('pre'));
    h.governor.services.sessions.bindIntent(session, 'docs'); // the session moved on: the change belongs to the pre phase's intent
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    assert.deepEqual(await b.reconcilePending(), { recorded: 0, dropped: 0, waiting: 1 }); // its post may still come
    assert.deepEqual(await b.reconcilePending({ now: LATER() }), { recorded: 1, dropped: 0, waiting: 0 });
    const [event] = h.trace.mutations;
    assert.equal(event.reconciled, 'post event never came');
    assert.equal(event.intent_id, 'auth-refactor');
    assert.deepEqual(event.intent_scope, ['src/auth/**', 'test/auth/**']);
    assert.equal(event.invocation_id, 'vscode:s1:call_1#0');
    assert.deepEqual(event.files.map((f) => [f.path, f.before, f.after]), [['src/auth/login.ts', LOGIN, EDITED]]);
    assert.deepEqual(await waiting(), []);
  });

  it("a post that comes before the file holds the change (VS Code's agent saves after its PostToolUse) keeps the entry: the change is recorded once it lands, saying so", async () => {
    const b = bridge();
    const created = join(h.root, 'src/auth/token.ts');
    const createToken = (phase: 'pre' | 'post'): BridgeRequest => ({ ...editLogin(phase, 'vscode:s1:call_2'), calls: [{ tool: 'write_file', input: { path: created, content: 'export const token = 1;\n' } }] });
    assert.equal((await b.handle(editLogin('pre'))).decision, 'allow');
    await b.handle(editLogin('post')); // the edit is not saved yet
    assert.equal((await b.handle(createToken('pre'))).decision, 'allow');
    await writeFile(created, ''); // created empty; its text comes with the save
    await b.handle(createToken('post'));
    assert.equal(h.trace.mutations.length, 0, 'recorded before the files held the changes');
    assert.equal((await waiting()).length, 2, 'the entries were let go: the saves would land unrecorded');
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    await writeFile(created, 'export const token = 1;\n');
    assert.deepEqual(await b.reconcilePending({ now: LATER() }), { recorded: 2, dropped: 0, waiting: 0 });
    assert.deepEqual(
      h.trace.mutations.map((m) => [m.files[0].path, m.files[0].after, m.reconciled]).sort(),
      [
        ['src/auth/login.ts', EDITED, 'its post event came before the file held the change'],
        ['src/auth/token.ts', 'export const token = 1;\n', 'its post event came before the file held the change'],
      ],
    );
    assert.deepEqual(await waiting(), []);
    // Their posts came already: no `done` marker waits an hour for a post, and nothing else is left.
    assert.deepEqual(await pendingNames(), []);
  });

  it('a resident records a change whose post came early within seconds of its save, not at its next 30 s pass', async function () {
    this.timeout(20_000);
    const b = bridge();
    const timer = b.startReconciling(); // every 30 s: the test is over long before its first pass
    try {
      assert.equal((await b.handle(editLogin('pre'))).decision, 'allow');
      await b.handle(editLogin('post')); // not saved yet
      await new Promise((resolve) => setTimeout(resolve, 300));
      const saved = Date.now();
      await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
      while (h.trace.mutations.length === 0 && Date.now() - saved < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
      const after = Date.now() - saved;
      assert.equal(h.trace.mutations.length, 1, 'not recorded within 10 s of the save');
      assert.ok(after < 5_000, `recorded ${after} ms after the save`);
      assert.equal(h.trace.mutations[0].reconciled, 'its post event came before the file held the change');
      assert.deepEqual(h.trace.mutations[0].files.map((f) => [f.path, f.after]), [['src/auth/login.ts', EDITED]]);
      assert.deepEqual(await pendingNames(), []);
    } finally {
      timer.dispose();
    }
  });

  it('the timer pass of a quiet governor records a change however many entries wait for a person beside it', async function () {
    this.timeout(60_000);
    const b = bridge();
    // 300 allowed edits whose files never changed (each kept up to an hour for a person's answer), then one that landed.
    const others = Array.from({ length: 300 }, (_, i) => `src/auth/kept${i}.ts`);
    for (const rel of others) await writeFile(join(h.root, rel), LOGIN);
    for (const [i, rel] of others.entries()) {
      await b.handle({ ...editLogin('pre', `vscode:s1:kept_${i}`), calls: [{ tool: 'edit_file', input: { path: join(h.root, rel) }, edits: [{ search: 'return false;', replace: 'return true;', all: false }] }] });
    }
    await b.handle(editLogin('pre', 'vscode:s1:landed'));
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    // All of it past the grace period, as if the agent had gone quiet a minute ago.
    const past = new Date(Date.now() - 60_000);
    const pendingDir = join(h.root, '.orchestration', 'pending');
    for (const name of await pendingNames()) await utimes(join(pendingDir, name), past, past);
    await utimes(join(h.root, 'src/auth/login.ts'), past, past);
    // Passes are at least a second apart: in 1.5 s the timer makes one or two.
    const timer = b.startReconciling(100);
    try {
      const deadline = Date.now() + 1_500;
      while (h.trace.mutations.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      timer.dispose();
    }
    assert.deepEqual(h.trace.mutations.map((m) => m.invocation_id), ['vscode:s1:landed#0'], 'recorded by a timer pass');
  });

  it('a late post records nothing for the content already reconciled, but does record a change made after it', async () => {
    const b = bridge();
    await b.handle(editLogin('pre'));
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    await b.reconcilePending({ now: LATER() });
    await b.handle(editLogin('post'));
    assert.equal(h.trace.mutations.length, 1);

    const more = `${EDITED}// more\n`;
    assert.equal((await b.handle(writeLogin('pre', 'vscode:s1:call_2', more))).decision, 'allow');
    await writeFile(join(h.root, 'src/auth/login.ts'), more);
    await b.reconcilePending({ now: LATER() });
    await writeFile(join(h.root, 'src/auth/login.ts'), `${EDITED}// more, and more\n`); // changed again before the post came
    await b.handle(writeLogin('post', 'vscode:s1:call_2', more));
    assert.deepEqual(
      h.trace.mutations.map((m) => [m.invocation_id, m.reconciled !== undefined, m.files[0].after]),
      [
        ['vscode:s1:call_1#0', true, EDITED],
        ['vscode:s1:call_2#0', true, `${EDITED}// more\n`],
        ['vscode:s1:call_2#0', false, `${EDITED}// more, and more\n`],
      ],
    );
  });

  it('reconcilers and the post racing for one change write exactly one record', async () => {
    for (let round = 0; round < 20; round++) {
      const key = `vscode:s1:race-${round}`;
      await bridge().handle(editLogin('pre', key));
      await writeFile(join(h.root, 'src/auth/login.ts'), `${LOGIN}// round ${round}\n`);
      const now = LATER();
      await Promise.all([bridge().reconcilePending({ now }), bridge().handle(editLogin('post', key)), bridge(false).reconcilePending({ now })]);
      assert.equal(h.trace.mutations.filter((m) => m.invocation_id === `${key}#0`).length, 1, `round ${round}`);
    }
    assert.deepEqual(await waiting(), []);
  });

  it('takes over the claim of a process that died holding it, without writing a record the trace already has', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number; // a pid that is gone
    const dir = join(h.root, '.orchestration', 'pending');
    const b = bridge();
    // Two changes whose post process died after taking the entry: one before writing its record, one after.
    for (const key of ['vscode:s1:died-before', 'vscode:s1:died-after']) {
      await b.handle(editLogin('pre', key));
      const entry = (await pendingNames()).find((n) => n.endsWith('.json')) as string;
      await rename(join(dir, entry), join(dir, entry.replace(/\.json$/, `.claimed.${dead}.0`)));
    }
    await writeFile(join(h.root, 'src/auth/login.ts'), EDITED);
    const recorded = { metadata: { kind: 'mutation', invocation_id: 'vscode:s1:died-after#0', files: [{ path: 'src/auth/login.ts', after_hash: sha(EDITED) }] } };
    await writeFile(join(h.root, '.orchestration', 'agent_trace.jsonl'), `${JSON.stringify(recorded)}\n`);

    await b.reconcilePending();
    assert.deepEqual(
      h.trace.mutations.map((m) => [m.invocation_id, m.reconciled]),
      [['vscode:s1:died-before#0', 'the process recording it stopped before it was recorded']],
    );
    assert.deepEqual(await waiting(), []);
  });

  it('sweeps what a writer that died mid-way left: before-contents without their entry, half-written temp files', async () => {
    const dir = join(h.root, '.orchestration', 'pending');
    await mkdir(dir, { recursive: true });
    const left = ['native.0123456789abcdef0123456789abcdef.before', 'native.0123456789abcdef0123456789abcdef.json.1a2b3c4d.tmp'];
    const fresh = 'native.fedcba9876543210fedcba9876543210.before'; // its entry may be being written right now
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    for (const name of [...left, fresh]) await writeFile(join(dir, name), '{}');
    for (const name of left) await utimes(join(dir, name), hourAgo, hourAgo);
    await bridge().reconcilePending();
    assert.deepEqual(await pendingNames(), [fresh]);
  });

  it('refuses the change when its pending entry cannot be written (it would land unrecorded if the post never came)', async () => {
    await rm(join(h.root, '.orchestration', 'pending'), { recursive: true, force: true });
    await writeFile(join(h.root, '.orchestration', 'pending'), 'not a folder');
    const answer = await bridge().handle(editLogin('pre'));
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason ?? '', /could not write the pending record of this change/);
  });
});
