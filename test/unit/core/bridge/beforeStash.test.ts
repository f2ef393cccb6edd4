import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBeforeStash } from '../../../../src/core/bridge/beforeStash';

const entryName = (key: string) => `${createHash('sha256').update(key).digest('hex')}.json`;

describe('FileBeforeStash (headless pre → post hand-over)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-stash-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('hands an entry from pre to post once', async () => {
    const stash = new FileBeforeStash(dir);
    await stash.put('k', { before: { '/ws/a.ts': 'old' }, invocationId: 'k' });
    assert.deepEqual(await stash.take('k'), { before: { '/ws/a.ts': 'old' }, invocationId: 'k' });
    assert.equal(await stash.take('k'), undefined);
  });

  it('takes nothing, at once, from a FIFO or a device link put where an entry would be', async () => {
    await mkdir(dir, { recursive: true });
    execFileSync('mkfifo', [join(dir, entryName('fifo'))]);
    await symlink('/dev/zero', join(dir, entryName('zero')));
    const stash = new FileBeforeStash(dir);
    assert.equal(await stash.take('fifo'), undefined);
    assert.equal(await stash.take('zero'), undefined);
  });
});
