import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHookRunLog } from '../../../../src/core/userHooks/fileHookRunLog';

describe('the hook run log (last result of each hook, per workspace)', () => {
  let home: string;
  let dir: string;
  const root = '/work/some-project';
  const fileOf = (workspace: string) => join(dir, `${createHash('sha256').update(workspace).digest('hex')}.json`);

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'ig-runlog-'));
    dir = join(home, 'hook-runs');
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('keeps the last run of each hook, readable by a new reader, in a 0600 file inside a 0700 folder', async () => {
    const log = new FileHookRunLog(dir);
    await log.record(root, 'a#PreToolUse[0].hooks[0]', { result: 'allow', durationMs: 12, at: '2025-01-01T00:00:00.000Z' });
    await log.record(root, 'a#PreToolUse[0].hooks[0]', { result: 'deny', durationMs: 30, at: '2025-01-01T00:00:01.000Z' });
    await log.record(root, 'a#PostToolUse[0].hooks[0]', { result: 'failed: timed out after 60000 ms', durationMs: 60000, at: '2025-01-01T00:00:02.000Z' });
    const runs = await new FileHookRunLog(dir).read(root);
    assert.deepEqual(runs, {
      'a#PreToolUse[0].hooks[0]': { result: 'deny', durationMs: 30, at: '2025-01-01T00:00:01.000Z' },
      'a#PostToolUse[0].hooks[0]': { result: 'failed: timed out after 60000 ms', durationMs: 60000, at: '2025-01-01T00:00:02.000Z' },
    });
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal((await stat(fileOf(root))).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir), [`${createHash('sha256').update(root).digest('hex')}.json`], 'no temp file is left behind');
  });

  it('keeps workspaces apart, and a workspace never run reads as empty', async () => {
    const log = new FileHookRunLog(dir);
    await log.record(root, 'h', { result: 'allow', durationMs: 1, at: '2025-01-01T00:00:00.000Z' });
    assert.deepEqual(await log.read('/work/other'), {});
    assert.equal(Object.keys(await log.read(root)).length, 1);
  });

  it('loses none of many records made at once by one process (async hooks finish together)', async () => {
    const log = new FileHookRunLog(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => log.record(root, `hook-${i}`, { result: 'none', durationMs: i, at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString() })));
    assert.equal(Object.keys(await log.read(root)).length, 20);
  });

  it('reads a FIFO, /dev/zero, a folder or garbage at its path as "never run", at once, and writes over garbage', async () => {
    await mkdir(dir, { recursive: true });
    const log = new FileHookRunLog(dir);
    execFileSync('mkfifo', [fileOf(root)]);
    assert.deepEqual(await log.read(root), {}); // a FIFO with no writer would block a plain read forever
    await rm(fileOf(root));
    await symlink('/dev/zero', fileOf(root));
    assert.deepEqual(await log.read(root), {});
    await rm(fileOf(root));
    await mkdir(fileOf(root));
    assert.deepEqual(await log.read(root), {});
    await rm(fileOf(root), { recursive: true });
    await writeFile(fileOf(root), '{"runs": {"h": {"result": 5}}, trailing garbage');
    assert.deepEqual(await log.read(root), {});
    await writeFile(fileOf(root), JSON.stringify({ runs: { good: { result: 'allow', durationMs: 2, at: '2025-01-01T00:00:00.000Z' }, bad: { result: 'allow' } } }));
    assert.deepEqual(Object.keys(await log.read(root)), ['good'], 'a malformed entry is dropped, the rest kept');
    await log.record(root, 'h', { result: 'ask', durationMs: 3, at: '2025-01-01T00:00:05.000Z' });
    assert.deepEqual(Object.keys(await log.read(root)).sort(), ['good', 'h']);
  });

  it('drops the oldest entries past 500 hooks (ids change as hooks files are edited)', async () => {
    const runs = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`old-${i}`, { result: 'allow', durationMs: 1, at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString() }]));
    await mkdir(dir, { recursive: true });
    await writeFile(fileOf(root), JSON.stringify({ workspace: root, runs }));
    const log = new FileHookRunLog(dir);
    await log.record(root, 'new', { result: 'deny', durationMs: 1, at: '2025-01-01T00:00:00.000Z' });
    const kept = await log.read(root);
    assert.equal(Object.keys(kept).length, 500);
    assert.ok(kept.new);
    assert.equal(kept['old-0'], undefined, 'the oldest run was dropped');
  });
});
