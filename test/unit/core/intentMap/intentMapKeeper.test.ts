import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IntentMapKeeper } from '../../../../src/core/intentMap/intentMapKeeper';
import { INTENT_MAP_FILE } from '../../../../src/core/intentMap/intentMapMarkdown';
import { hashContent } from '../../../../src/core/trace/ranges';
import { blameFile } from '../../../../src/core/trace/traceBlame';
import { traceFilePath } from '../../../../src/core/trace/traceFiles';
import { mapWorkspace, parseIntentMap, type MapSection, type MapWorkspace } from '../../../support/intentMapWorkspace';

const LOGIN = ['export function login(user) {', '  const token = issue(user);', '  audit(user);', '  return token;', '}'];
const PAY = ['export function pay(amount) {', '  return charge(amount);', '}'];
const text = (lines: string[]) => `${lines.join('\n')}\n`;

function ok(result: { ok: boolean; error?: { message: string } }): void {
  assert.ok(result.ok, result.ok ? '' : result.error?.message);
}

function refused(result: { ok: boolean; error?: { code: string } }, code: string): void {
  assert.equal(result.ok ? 'ok' : result.error?.code, code);
}

/** What `governor blame` says about a file, grouped the way the map shows it for one intent. */
async function blamedRow(ws: MapWorkspace, intent: string | undefined, path: string): Promise<{ lines: string; records: string }> {
  const blame = await blameFile(traceFilePath(ws.root), path, await ws.read(path));
  const ranges = (lines: number[]) => {
    const out: string[] = [];
    for (let i = 0; i < lines.length; i += 1) {
      let j = i;
      while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) j += 1;
      out.push(lines[i] === lines[j] ? String(lines[i]) : `${lines[i]}-${lines[j]}`);
      i = j;
    }
    return out.join(', ');
  };
  const mine = blame.filter((l) => l.recordId && l.intentId === intent);
  const byRecord = new Map<string, number[]>();
  for (const l of mine) byRecord.set(l.recordId!, [...(byRecord.get(l.recordId!) ?? []), l.line]);
  const records = [...byRecord].sort((a, b) => a[1][0] - b[1][0]).map(([id, lines]) => `\`${id}\` ${ranges(lines)}`);
  return { lines: mine.length ? ranges(mine.map((l) => l.line)) : '(none: rewritten since)', records: records.join('; ') };
}

/** Every file row of every section agrees with blame, and each section lists exactly the files its records touched. */
async function assertMatchesTrace(ws: MapWorkspace, sections: Map<string, MapSection>, touched: Record<string, string[]>): Promise<void> {
  for (const [intent, paths] of Object.entries(touched)) {
    const section = sections.get(intent);
    assert.ok(section, `no section for ${intent}`);
    assert.deepEqual(section.files.map((f) => f.path), paths, `files of ${intent}`);
    for (const row of section.files) {
      if (row.lines.startsWith('(no such file')) continue;
      const expected = await blamedRow(ws, intent === '(none)' ? undefined : intent, row.path);
      assert.deepEqual({ lines: row.lines, records: row.records }, expected, `${intent} ${row.path}`);
    }
  }
}

describe('intent map kept by the post-hook', () => {
  let ws: MapWorkspace;
  beforeEach(async () => {
    ws = await mapWorkspace();
  });
  afterEach(() => ws.dispose());

  it('after a sequence of governed writes, edits, a delete and refusals, every intent lists the files, current lines and records the trace gives', async () => {
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: text(LOGIN) }));
    ok(await ws.as('auth-refactor', 'edit_file', { path: 'src/auth/login.ts', edits: [{ search: '  audit(user);', replace: "  audit(user, 'login');\n  metrics.count('login');" }] }));
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: text(PAY) }));
    ok(await ws.as('billing', 'write_file', { path: 'src/shared/util.ts', content: 'export const one = 1;\nexport const two = 2;\n' }));
    refused(await ws.as('auth-refactor', 'write_file', { path: 'src/billing/x.ts', content: 'x' }), 'SCOPE_VIOLATION');
    refused(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: 'stale', expected_content_hash: hashContent('something else') }), 'STALE_FILE');
    refused(await ws.as('billing', 'edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'token', replace: 'tok' }] }), 'SCOPE_VIOLATION');
    ok(await ws.as('billing', 'delete_file', { path: 'src/shared/util.ts' }));
    // An agent's native tool with no intent bound: recorded, and mapped under "No intent bound".
    await ws.file('notes.txt', 'remember the milk\n');
    await ws.governor.run({ tool: 'write_file', input: { path: 'notes.txt', content: '' }, session_id: 'native', agent: { name: 'claude-code' } }, { mode: 'record', output: { data: {}, changes: [{ path: 'notes.txt', after: 'remember the milk\n' }] } });

    const map = await ws.map();
    const sections = parseIntentMap(map);
    assert.deepEqual([...sections.keys()], ['auth-refactor', 'billing', 'docs', '(none)'], 'intents sorted by id, no-intent last');
    await assertMatchesTrace(ws, sections, {
      'auth-refactor': ['src/auth/login.ts'],
      billing: ['src/billing/pay.ts', 'src/shared/util.ts'],
      docs: [],
      '(none)': ['notes.txt'],
    });

    const auth = sections.get('auth-refactor')!;
    assert.equal(auth.heading, 'auth-refactor: Refactor authentication');
    assert.deepEqual(auth.bullets.slice(0, 2), ['Status: IN_PROGRESS', 'Owned scope: `src/auth/**`']);
    assert.match(auth.bullets[2], /^Changes: 2, last \S+ by test-agent \(`[0-9a-f-]{36}`\)$/);
    assert.equal(auth.bullets[3], 'Refusals: 2');
    // The edit replaced line 3 of the first write: its lines 3-4 are the edit's, the first write keeps its unchanged lines.
    assert.equal(auth.files[0].lines, '1-4');
    assert.equal(auth.files[0].changes, 2);
    assert.match(auth.files[0].last, /, modified$/);
    assert.deepEqual(auth.refusals.map((r) => [r.code, r.count]), [['SCOPE_VIOLATION', 1], ['STALE_FILE', 1]]);
    assert.match(auth.refusals[0].last, /write_file `src\/billing\/x.ts`/);

    const billing = sections.get('billing')!;
    assert.equal(billing.files[0].lines, '1-3');
    assert.equal(billing.files[1].lines, '(no such file now)');
    assert.match(billing.files[1].last, /, deleted$/);
    assert.deepEqual(billing.refusals.map((r) => [r.code, r.count]), [['SCOPE_VIOLATION', 1]]);
    assert.deepEqual(sections.get('docs')!.bullets, ['Status: PLANNED', 'Owned scope: `docs/**`', 'Changes: 0', 'Refusals: 0']);
    assert.match(map, /From 6 trace records and 3 governance records\./);
  });

  it('follows lines that a later governed edit moved, and lines a human moved once the next change is recorded', async () => {
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: text(LOGIN) }));
    ok(await ws.as('auth-refactor', 'edit_file', { path: 'src/auth/login.ts', edits: [{ search: '  audit(user);', replace: "  audit(user, 'login');\n  metrics.count('login');" }] }));
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: text(PAY) }));
    assert.equal(parseIntentMap(await ws.map()).get('billing')!.files[0].lines, '1-3');

    // A governed edit puts two lines above the earlier edit's lines: they move from 3-4 to 5-6.
    ok(await ws.as('auth-refactor', 'edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'export function login(user) {', replace: "import { issue } from './issue';\n\nexport function login(user) {" }] }));
    // A human adds a comment above pay(): nothing is recorded yet, so the map waits for the next change.
    await ws.file('src/billing/pay.ts', `// reviewed\n${text(PAY)}`);
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/refund.ts', content: 'export function refund() {}\n' }));

    const sections = parseIntentMap(await ws.map());
    const login = sections.get('auth-refactor')!.files[0];
    // The first write's unchanged lines, the import the second edit put above and the first edit's lines, moved: all of it.
    assert.equal(login.lines, '1-6');
    assert.equal(login.records.split('; ').length, 3);
    assert.equal(sections.get('billing')!.files[0].lines, '2-4');
    await assertMatchesTrace(ws, sections, { 'auth-refactor': ['src/auth/login.ts'], billing: ['src/billing/pay.ts', 'src/billing/refund.ts'] });
  });

  it("follows an approved scope expansion: the intent's owned scope in the map is the plan's new one", async () => {
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: text(LOGIN) }));
    assert.equal(parseIntentMap(await ws.map()).get('auth-refactor')!.bullets[1], 'Owned scope: `src/auth/**`');
    ok(await ws.as('auth-refactor', 'request_scope_expansion', { globs: ['test/auth/**'], reason: 'the tests of the new login' }));
    assert.equal(parseIntentMap(await ws.map()).get('auth-refactor')!.bullets[1], 'Owned scope: `src/auth/**`, `test/auth/**`');
  });

  it('is deterministic: another workspace with the same logs and files, built later and elsewhere, writes the same bytes', async () => {
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: text(PAY) }));
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: text(LOGIN) }));
    refused(await ws.as('auth-refactor', 'write_file', { path: 'docs/x.md', content: 'x' }), 'SCOPE_VIOLATION');
    const map = await ws.map();

    const again = await ws.keeper.refresh();
    assert.ok(again.ok);
    assert.equal(again.value.written, false, 'a rebuild with nothing new leaves the file alone');

    const copy = join(ws.base, 'copy');
    await cp(ws.root, copy, { recursive: true });
    await rm(join(copy, INTENT_MAP_FILE));
    const elsewhere = await new IntentMapKeeper({ workspaceRoot: copy }).refresh();
    assert.ok(elsewhere.ok);
    assert.equal(await readFile(join(copy, INTENT_MAP_FILE), 'utf8'), map);
    assert.ok(!map.includes(ws.base), 'no absolute path');
  });

  it('replaces the map whole (a new file by rename), never appends to it', async () => {
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: text(PAY) }));
    await ws.map();
    const before = await stat(join(ws.root, INTENT_MAP_FILE));
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/refund.ts', content: 'r\n' }));
    const map = await ws.map();
    const after = await stat(join(ws.root, INTENT_MAP_FILE));
    assert.notEqual(after.ino, before.ino);
    assert.equal(map.match(/^# Intent map$/gm)?.length, 1);
    assert.equal(map.match(/^## billing/gm)?.length, 1);
  });

  it('refuses an agent that writes, edits, deletes or redirects into the map, and counts the refusals', async () => {
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: text(LOGIN) }));
    const original = await ws.map();
    refused(await ws.as('auth-refactor', 'write_file', { path: '.orchestration/intent_map.md', content: '# forged\n' }), 'PROTECTED_PATH');
    refused(await ws.as('auth-refactor', 'write_file', { path: '.Orchestration/Intent_Map.md', content: '# forged\n' }), 'PROTECTED_PATH');
    refused(await ws.as('auth-refactor', 'edit_file', { path: '.orchestration/intent_map.md', edits: [{ search: '# Intent map', replace: '# forged' }] }), 'PROTECTED_PATH');
    refused(await ws.as('auth-refactor', 'delete_file', { path: '.orchestration/intent_map.md' }), 'PROTECTED_PATH');
    refused(await ws.as('auth-refactor', 'run_command', { command: 'echo forged > .orchestration/intent_map.md' }), 'PROTECTED_PATH');
    const map = await ws.map();
    assert.ok(!map.includes('forged'));
    assert.equal(map.split('\n')[0], original.split('\n')[0]);
    const auth = parseIntentMap(map).get('auth-refactor')!;
    assert.equal(auth.refusals.find((r) => r.code === 'PROTECTED_PATH')?.count, 5);
  });

  it('does not hang on a FIFO, a device link or a path outside the workspace that the logs name, and says why those were not read', async function () {
    if (process.platform === 'win32') this.skip();
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/fifo.ts', content: 'a\n' }));
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/zero.ts', content: 'b\n' }));
    await rm(join(ws.root, 'src/auth/fifo.ts'));
    execFileSync('mkfifo', [join(ws.root, 'src/auth/fifo.ts')]);
    await rm(join(ws.root, 'src/auth/zero.ts'));
    await symlink('/dev/zero', join(ws.root, 'src/auth/zero.ts'));
    // A hand-edited log naming a path outside the workspace is listed, never read.
    const line = (await ws.read('.orchestration/agent_trace.jsonl')).trimEnd().split('\n')[0];
    await writeFile(traceFilePath(ws.root), `${line.replaceAll('src/auth/fifo.ts', '../../etc/passwd')}\n`, { flag: 'a' });
    ok(await ws.as('auth-refactor', 'write_file', { path: 'src/auth/ok.ts', content: 'c\n' }));

    const files = parseIntentMap(await ws.map()).get('auth-refactor')!.files;
    const byPath = new Map(files.map((f) => [f.path, f.lines]));
    assert.equal(byPath.get('src/auth/fifo.ts'), '(not read: not a regular file)');
    assert.equal(byPath.get('src/auth/zero.ts'), '(not read: outside the workspace)');
    assert.equal(byPath.get('../../etc/passwd'), '(not read: outside the workspace)');
    assert.equal(byPath.get('src/auth/ok.ts'), '1');
  });

  it('drops a record whose change did not land (a void governance record), and rereads logs that git rewrote', async () => {
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: text(PAY) }));
    ok(await ws.as('billing', 'write_file', { path: 'src/billing/gone.ts', content: 'never landed\n' }));
    const trace = (await ws.read('.orchestration/agent_trace.jsonl')).trimEnd().split('\n');
    const gone = JSON.parse(trace[1]) as { id: string };
    await ws.sink.recordGovernance({
      timestamp: new Date().toISOString(), invocation_id: 'void-1', session_id: 's', agent: { name: 'test-agent' }, intent_id: 'billing',
      tool: 'write_file', decision: 'void', code: 'HOOK_ERROR', message: 'did not land', paths: ['src/billing/gone.ts'], record_id: gone.id,
    });
    ws.keeper.changed();
    let billing = parseIntentMap(await ws.map()).get('billing')!;
    assert.deepEqual(billing.files.map((f) => f.path), ['src/billing/pay.ts']);
    assert.equal(billing.bullets[2].split(',')[0], 'Changes: 1');

    // A checkout that drops the last record (the log is shorter and different): read again from the start.
    await writeFile(traceFilePath(ws.root), `${trace[0]}\n`);
    await rm(join(ws.root, 'src/billing/gone.ts'), { force: true });
    ws.keeper.changed();
    billing = parseIntentMap(await ws.map()).get('billing')!;
    assert.deepEqual(billing.files.map((f) => f.path), ['src/billing/pay.ts']);
    assert.match(await ws.map(), /From 1 trace record and 1 governance record\./);
  });
});
