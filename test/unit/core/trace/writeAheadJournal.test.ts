import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from '../../../../src/core/contentHash';
import { MemoryAnchorStore } from '../../../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { pendingDir, WriteAheadJournal } from '../../../../src/core/trace/writeAheadJournal';

/** A pid that certainly belongs to no running process: a child that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

describe('write-ahead journal', () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-journal-')));
    await mkdir(join(root, '.orchestration'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** A journal entry as a writer that died right after its record leaves it. */
  async function orphan(recordId: string, path: string, before: string | undefined, after: string, writer = { pid: deadPid(), pid_start: 0 }, staged?: string): Promise<void> {
    await mkdir(pendingDir(root), { recursive: true });
    const entry = {
      record_id: recordId,
      invocation_id: `inv-${recordId}`,
      session_id: 's1',
      agent: { name: 'agent' },
      intent_id: 'auth-refactor',
      tool: 'write_file',
      files: [{ path, before_hash: before === undefined ? undefined : contentHash(before), after_hash: contentHash(after), staged }],
      ...writer,
      host: (await import('node:os')).hostname(),
      started: new Date().toISOString(),
    };
    await writeFile(join(pendingDir(root), `${recordId}.json`), JSON.stringify(entry));
  }

  it('keeps the entries of live writers and reports those of dead ones', async () => {
    const journal = new WriteAheadJournal(root);
    const live = journal.begin({ record_id: 'r-live', invocation_id: 'i', session_id: 's', agent: { name: 'a' }, tool: 'write_file', files: [] });
    await orphan('r-dead', 'a.ts', undefined, 'x');
    assert.deepEqual(journal.orphans().map((o) => o.entry.record_id), ['r-dead']);
    journal.end(live);
    assert.deepEqual((await readdir(pendingDir(root))).filter((n) => n.endsWith('.json')), ['r-dead.json']);
  });

  it('takes an entry whose pid now belongs to another process (a reused pid) for an orphan', async function () {
    if (process.platform !== 'linux') this.skip();
    await orphan('r-reused', 'a.ts', undefined, 'x', { pid: process.pid, pid_start: 1 });
    assert.deepEqual(new WriteAheadJournal(root).orphans().map((o) => o.entry.record_id), ['r-reused']);
  });

  it('tells from the staged temp file whether the rename happened, whatever the file holds now', async () => {
    const journal = new WriteAheadJournal(root);
    // Died before the rename: the temp file is still there (and is cleaned up), the file still holds the old bytes.
    await writeFile(join(root, 'a.ts'), 'before\n');
    await writeFile(join(root, '.a.ts.0123456789ab.ig-tmp'), 'after\n');
    await orphan('r-staged', 'a.ts', 'before\n', 'after\n', undefined, '.a.ts.0123456789ab.ig-tmp');
    // Died just after the rename, and a human reverted the file since: it landed, so it is not "did not land".
    await writeFile(join(root, 'b.ts'), 'before\n');
    await orphan('r-renamed', 'b.ts', 'before\n', 'after\n', undefined, '.b.ts.ba9876543210.ig-tmp');
    const outcomes = Object.fromEntries(journal.orphans().map((o) => [o.entry.record_id, journal.reconcile(o.entry)]));
    assert.deepEqual(outcomes, { 'r-renamed': 'unknown', 'r-staged': 'not_landed' });
    assert.deepEqual((await readdir(root)).filter((n) => n.endsWith('.ig-tmp')), []);
  });

  it('never removes anything but its own temp files, whatever a journal entry names', async () => {
    await writeFile(join(root, 'precious.txt'), 'keep\n');
    await orphan('r-evil', 'a.ts', 'before\n', 'after\n', undefined, '../precious.txt');
    await orphan('r-evil2', 'a.ts', 'before\n', 'after\n', undefined, 'precious.txt');
    const journal = new WriteAheadJournal(root);
    for (const o of journal.orphans()) journal.reconcile(o.entry);
    assert.equal(await readFile(join(root, 'precious.txt'), 'utf8'), 'keep\n');
  });

  it('reconciles on the next open: landed changes stand, changes that never landed and unknowable ones are voided', async () => {
    await writeFile(join(root, 'landed.ts'), 'after\n');
    await writeFile(join(root, 'kept.ts'), 'before\n');
    await writeFile(join(root, 'moved-on.ts'), 'someone else since\n');
    await orphan('r-landed', 'landed.ts', 'before\n', 'after\n');
    await orphan('r-not-landed', 'kept.ts', 'before\n', 'after\n');
    await orphan('r-never-created', 'missing.ts', undefined, 'new\n');
    await orphan('r-unknown', 'moved-on.ts', 'before\n', 'after\n');
    const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'test', anchors: new MemoryAnchorStore() });
    await sink.open();
    await sink.close();
    const voids = (await readFile(join(root, '.orchestration/governance_log.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((r) => r.decision === 'void');
    const byRecord = Object.fromEntries(voids.map((r) => [r.record_id, r.message]));
    assert.deepEqual(Object.keys(byRecord).sort(), ['r-never-created', 'r-not-landed', 'r-unknown']);
    assert.match(byRecord['r-not-landed'], /did not land/);
    assert.match(byRecord['r-unknown'], /unknown/);
    assert.deepEqual((await readdir(pendingDir(root))).filter((n) => n.endsWith('.json')), []);
  });
});
