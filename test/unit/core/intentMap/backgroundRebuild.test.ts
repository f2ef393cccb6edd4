import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildFiles, requestRebuild, serveRebuilds, type RebuildFiles } from '../../../../src/core/intentMap/backgroundRebuild';

/** The pid of a process that has exited: a worker that died before it took the lock. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

describe('background intent-map rebuild: asks and workers across processes', () => {
  let home: string;
  let files: RebuildFiles;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'ig-rebuild-'));
    files = rebuildFiles(home, '/workspace/project');
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('a burst of parallel asks starts one worker, and that worker serves every ask', async () => {
    let started = 0;
    // Six hook processes ask one after another before the first worker is up (node takes a while to start);
    // the started worker is alive (this process) and has not taken the lock yet.
    for (let i = 0; i < 6; i++) await requestRebuild(files, () => (started++, process.pid));
    assert.equal(started, 1);
    let rebuilds = 0;
    await serveRebuilds(files, async () => (rebuilds++, true), { delayMs: 0 });
    assert.equal(rebuilds, 1, 'one rebuild covers the burst');
    assert.equal(readFileSync(files.built, 'utf8'), readFileSync(files.requested, 'utf8'));
    assert.equal(existsSync(files.starting), false, 'the worker cleared its start marker');
  });

  it('an ask after the worker took the lock starts no other worker, and is served before the worker exits', async () => {
    await requestRebuild(files, () => process.pid);
    let asked = false;
    let started = 0;
    await serveRebuilds(files, async () => {
      if (!asked) {
        asked = true;
        await requestRebuild(files, () => (started++, process.pid)); // lands while this worker rebuilds
      }
      return true;
    }, { delayMs: 0 });
    assert.equal(started, 0);
    assert.equal(readFileSync(files.built, 'utf8'), readFileSync(files.requested, 'utf8'));
  });

  it('a worker that died before taking the lock does not swallow later asks: the next ask starts another', async () => {
    await requestRebuild(files, () => deadPid());
    let started = 0;
    await requestRebuild(files, () => (started++, process.pid));
    assert.equal(started, 1);
  });

  it('an asker that died between claiming and starting is taken over once its claim is old', async () => {
    mkdirSync(join(files.requested, '..'), { recursive: true });
    writeFileSync(files.starting, JSON.stringify({ at: Date.now() }));
    let started = 0;
    await requestRebuild(files, () => (started++, process.pid));
    assert.equal(started, 0, 'a fresh claim without a pid is an asker about to start one');
    writeFileSync(files.starting, JSON.stringify({ at: Date.now() - 11_000 }));
    await requestRebuild(files, () => (started++, process.pid));
    assert.equal(started, 1);
  });

  it('a failed rebuild stops the worker, and the next ask starts one again', async () => {
    await requestRebuild(files, () => process.pid);
    await serveRebuilds(files, async () => false, { delayMs: 0 });
    assert.equal(existsSync(files.built), false, 'nothing is marked built');
    let started = 0;
    await requestRebuild(files, () => (started++, process.pid));
    assert.equal(started, 1);
  });
});
