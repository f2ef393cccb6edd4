import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileDerived } from '../../../../src/core/io/fileDerived';
import { removeTree } from '../../../support/removeTree';

describe('FileDerived: a value read from files again only when they change', () => {
  let dir: string;
  let file: string;
  let reads: number;
  const read = () => {
    reads++;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '(none)';
    }
  };
  /** As if written a minute ago: a file long written is trusted while its stat is the same. */
  const settle = () => utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ig-file-derived-'));
    file = join(dir, 'hooks.json');
    reads = 0;
  });
  afterEach(() => removeTree(dir));

  it('reads a settled file once while its stat is the same', () => {
    writeFileSync(file, 'one');
    settle();
    const derived = new FileDerived<string>();
    for (let i = 0; i < 5; i++) assert.equal(derived.get([file], read), 'one');
    assert.equal(reads, 1);
  });

  it('sees a file that appears, changes and goes', () => {
    const derived = new FileDerived<string>();
    assert.equal(derived.get([file], read), '(none)');
    assert.equal(derived.get([file], read), '(none)');
    assert.equal(reads, 1, 'a missing file is cached too');
    writeFileSync(file, 'one');
    assert.equal(derived.get([file], read), 'one');
    settle();
    writeFileSync(file, 'a longer text');
    assert.equal(derived.get([file], read), 'a longer text');
    rmSync(file);
    assert.equal(derived.get([file], read), '(none)');
  });

  it('reads a just-written file again on every call until it settles (a same-size rewrite in the same tick of a coarse clock would look unchanged)', () => {
    writeFileSync(file, 'one');
    const derived = new FileDerived<string>();
    for (let i = 0; i < 3; i++) assert.equal(derived.get([file], read), 'one');
    assert.equal(reads, 3);
    settle();
    for (let i = 0; i < 3; i++) derived.get([file], read);
    assert.equal(reads, 4);
  });

  it('keys on the list of files too', () => {
    writeFileSync(file, 'one');
    settle();
    const derived = new FileDerived<string>();
    derived.get([file], read);
    derived.get([file, join(dir, 'other.json')], read);
    assert.equal(reads, 2);
  });
});
