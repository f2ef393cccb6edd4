import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PendingNativeChanges } from '../../../../src/core/bridge/pendingNativeChanges';
import { SpareFiles } from '../../../../src/core/io/spareFiles';
import { removeTree } from '../../../support/removeTree';

describe('SpareFiles: files made ahead of a hot path', () => {
  let dir: string;
  let spares: SpareFiles | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ig-spares-'))));
  afterEach(async () => {
    spares?.dispose();
    await removeTree(dir);
  });
  const names = () => readdirSync(dir).sort();
  let n = 0;
  const make = (size: number) => (spares = new SpareFiles(() => join(dir, `spare.${(n += 1)}.tmp`), size));

  it('publishes whole files, readable by the owner only, and is ready again after the caller’s turn', async () => {
    const files = make(2);
    await nextTurn();
    assert.equal(files.count, 2);
    assert.equal(files.publish(join(dir, 'a.json'), '{"a":1}'), true);
    assert.equal(files.publish(join(dir, 'b.json'), '{"b":2}'), true);
    assert.equal(files.publish(join(dir, 'c.json'), '{"c":3}'), false, 'none left: the caller writes as usual');
    assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), '{"a":1}');
    assert.equal(readFileSync(join(dir, 'b.json'), 'utf8'), '{"b":2}');
    if (process.platform !== 'win32') assert.equal(statSync(join(dir, 'a.json')).mode & 0o777, 0o600);
    await nextTurn();
    assert.equal(files.count, 2);
  });

  it('a spare swept from under it is no publish (false), and nothing is left half-written', async () => {
    const files = make(1);
    await nextTurn();
    for (const name of names()) unlinkSync(join(dir, name));
    assert.equal(files.publish(join(dir, 'a.json'), '{"a":1}'), false);
    assert.equal(existsSync(join(dir, 'a.json')), false);
  });

  it('dispose removes the spares and makes no more', async () => {
    const files = make(3);
    await nextTurn();
    assert.equal(names().length, 3);
    files.dispose();
    await nextTurn();
    assert.deepEqual(names(), []);
  });

  it('a folder that is not there yet makes no spare, and no error', async () => {
    spares = new SpareFiles(() => join(dir, 'missing', `spare.${(n += 1)}.tmp`), 2);
    await nextTurn();
    assert.equal(spares.count, 0);
    assert.equal(spares.publish(join(dir, 'missing', 'a.json'), 'x'), false);
  });
});

describe('a resident’s pending entries published through spare files', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ig-pending-spares-'));
    mkdirSync(join(root, '.orchestration', 'pending'), { recursive: true });
  });
  afterEach(async () => removeTree(root));
  const pending = () => readdirSync(join(root, '.orchestration', 'pending')).sort();
  const input = { key: 'k1', session_id: 's', agent: { name: 'gemini' }, tool: 'write_file', files: [] };

  it('an entry is the same file as without spares, and stopping leaves only the entries', async () => {
    const changes = new PendingNativeChanges(root, { resident: true });
    const keeping = changes.keepSpares();
    await nextTurn();
    assert.equal(pending().filter((name) => name.startsWith('spare.')).length, 3);
    changes.begin(input as never, { 'src/a.ts': 'old' });
    const id = changes.idOf('k1');
    assert.equal(JSON.parse(readFileSync(join(root, '.orchestration', 'pending', `native.${id}.before`), 'utf8'))['src/a.ts'], 'old');
    assert.equal(JSON.parse(readFileSync(join(root, '.orchestration', 'pending', `native.${id}.json`), 'utf8')).key, 'k1');
    keeping.stop();
    assert.deepEqual(pending(), [`native.${id}.before`, `native.${id}.json`]);
  });

  it('a dead resident’s spares are removed by the next listing; a live one’s are kept', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(root, '.orchestration', 'pending', `spare.${dead.stdout}.1.1.tmp`), '');
    const changes = new PendingNativeChanges(root, { resident: true });
    const keeping = changes.keepSpares();
    await nextTurn();
    changes.list();
    const left = pending();
    assert.equal(left.includes(`spare.${dead.stdout}.1.1.tmp`), false);
    assert.equal(left.filter((name) => name.startsWith('spare.')).length, 3);
    keeping.stop();
  });
});
