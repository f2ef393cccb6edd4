import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IntentsSnapshot } from '../../../../src/core/intents/intent';
import { FileIntentSource, INTENTS_FILE_RELATIVE } from '../../../../src/core/intents/fileIntentSource';

const yaml = (...lines: string[]) => lines.join('\n') + '\n';
const PLAN = yaml(
  '# the plan',
  'active_intents:',
  '  - id: auth  # main work',
  '    name: Auth',
  '    status: IN_PROGRESS',
  '    owned_scope:',
  '      - src/auth/**',
  '    x-extra: kept',
);

function intentsOf(snapshot: IntentsSnapshot) {
  assert.ok(snapshot.valid, JSON.stringify(snapshot));
  return snapshot.intents;
}

describe('FileIntentSource', () => {
  let root: string;
  let file: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'intents-'));
    file = join(root, INTENTS_FILE_RELATIVE);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const writePlan = async (text: string) => {
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(file, text);
  };

  it('treats a missing file as valid with no intents', async () => {
    const source = new FileIntentSource(root);
    assert.deepEqual(await source.load(), { valid: true, file: INTENTS_FILE_RELATIVE, exists: false, intents: [] });
  });

  it('returns the same snapshot while the file is unchanged', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    const first = await source.load();
    assert.equal(intentsOf(first)[0].id, 'auth');
    assert.equal(await source.load(), first);
  });

  it('reloads after the file changes, and after invalidate()', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    await source.load();
    await writeFile(file, PLAN.replace('status: IN_PROGRESS', 'status: BLOCKED'));
    const changed = await source.load();
    assert.equal(intentsOf(changed)[0].status, 'BLOCKED');
    source.invalidate();
    const reread = await source.load();
    assert.notEqual(reread, changed);
    assert.deepEqual(reread, changed);
  });

  it('reports an invalid file with its problems, and one that is not a file at 1:1', async () => {
    await writePlan(PLAN.replace('IN_PROGRESS', 'WIP'));
    const invalid = await new FileIntentSource(root).load();
    assert.ok(!invalid.valid);
    assert.equal(invalid.problems[0].line, 5);

    await rm(file);
    await mkdir(file);
    const directory = await new FileIntentSource(root).load();
    assert.ok(!directory.valid);
    assert.deepEqual([directory.problems[0].line, directory.problems[0].column], [1, 1]);
    assert.match(directory.problems[0].message, /not a regular file/);
  });

  it('answers at once when the file is a FIFO: invalid at 1:1, naming what it is, and an approval cannot write through it', async () => {
    await mkdir(join(root, '.orchestration'), { recursive: true });
    execFileSync('mkfifo', [file]);
    const source = new FileIntentSource(root);
    const snapshot = await source.load();
    assert.ok(!snapshot.valid);
    assert.equal(snapshot.problems[0].message, '.orchestration/active_intents.yaml is a FIFO (named pipe), not a regular file: refused; replace it with a YAML file');
    const added = await source.addScope('auth', ['test/**']);
    assert.equal(added.ok ? 'ok' : added.error.code, 'INTENTS_FILE_INVALID');
  });

  it('writes added scope back, keeping comments and unknown keys, and returns the new snapshot', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    await source.load();
    const result = await source.addScope('auth', ['test/auth/**']);
    assert.ok(result.ok);
    assert.deepEqual(intentsOf(result.value)[0].owned_scope, ['src/auth/**', 'test/auth/**']);
    assert.equal(await readFile(file, 'utf8'), PLAN.replace('      - src/auth/**\n', '      - src/auth/**\n      - test/auth/**\n'));
    assert.deepEqual(intentsOf(await source.load())[0].owned_scope, ['src/auth/**', 'test/auth/**']);
    assert.deepEqual(await readdir(join(root, '.orchestration')), ['active_intents.yaml']);
  });

  it('loses neither glob when two scope expansions are approved at once', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    const [a, b] = await Promise.all([source.addScope('auth', ['lib/a/**']), source.addScope('auth', ['lib/b/**'])]);
    assert.ok(a.ok && b.ok);
    const scope = intentsOf(await new FileIntentSource(root).load())[0].owned_scope;
    assert.deepEqual([...scope].sort(), ['lib/a/**', 'lib/b/**', 'src/auth/**']);
  });

  it('sets the status in the file', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    const result = await source.setStatus('auth', 'DONE');
    assert.ok(result.ok);
    assert.equal(intentsOf(result.value)[0].status, 'DONE');
    assert.equal(await readFile(file, 'utf8'), PLAN.replace('status: IN_PROGRESS', 'status: DONE'));
  });

  it('returns refusals as values and leaves the file untouched', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    const unknown = await source.addScope('billing', ['src/**']);
    assert.ok(!unknown.ok && unknown.error.code === 'INTENT_NOT_FOUND');
    const badGlob = await source.addScope('auth', ['/etc/**']);
    assert.ok(!badGlob.ok && badGlob.error.code === 'INVALID_INPUT');
    assert.equal(await readFile(file, 'utf8'), PLAN);

    await writeFile(file, PLAN.replace('IN_PROGRESS', 'WIP'));
    const invalid = await source.setStatus('auth', 'DONE');
    assert.ok(!invalid.ok && invalid.error.code === 'INTENTS_FILE_INVALID');
    assert.match(invalid.error.message, /active_intents\.yaml:5:13: intent 'auth': status 'WIP'/);
  });

  it('refuses write-back when there is no intents file', async () => {
    const result = await new FileIntentSource(root).addScope('auth', ['src/**']);
    assert.ok(!result.ok && result.error.code === 'INTENT_NOT_FOUND');
  });

  it('adds a new intent and replaces a scope on disk, keeping comments; a refused intent writes nothing', async () => {
    await writePlan(PLAN);
    const source = new FileIntentSource(root);
    const draft = { id: 'INT-001', name: 'Billing', status: 'PLANNED' as const, owned_scope: ['src/billing/**'], constraints: [], acceptance_criteria: [] };
    const added = await source.addIntent(draft);
    assert.ok(added.ok, JSON.stringify(!added.ok && added.error));
    assert.deepEqual(intentsOf(added.value).map((i) => i.id), ['auth', 'INT-001']);
    const scoped = await source.setScope('auth', ['src/auth/**', 'test/auth/**']);
    assert.ok(scoped.ok);
    const text = await readFile(file, 'utf8');
    assert.ok(text.startsWith('# the plan\nactive_intents:\n  - id: auth  # main work\n'), text);
    assert.match(text, /x-extra: kept/);
    assert.deepEqual(intentsOf(await source.load())[0].owned_scope, ['src/auth/**', 'test/auth/**']);

    const duplicate = await source.addIntent({ ...draft, name: 'Again' });
    assert.ok(!duplicate.ok && duplicate.error.code === 'INVALID_INPUT');
    assert.match(duplicate.error.message, /id 'INT-001' is already used/);
    assert.equal(await readFile(file, 'utf8'), text);
  });
});
