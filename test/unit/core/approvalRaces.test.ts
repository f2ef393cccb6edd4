import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../src/core/approval/approver';
import { codeOf, createHarness, type Harness } from '../../support/governorHarness';

/**
 * What can happen while a human looks at an approval dialog: the file changes, the same session reads it
 * again, a folder is swapped for a link. The approved call must be judged on what it was decided on.
 */
describe('approval races', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  /** Runs `meanwhile` while the dialog is open, then approves. */
  function approveAfter(meanwhile: () => Promise<void>): void {
    h.governor.services.approver = {
      async approve(_request: ApprovalRequest): Promise<ApprovalDecision> {
        await meanwhile();
        return { approved: true, approver: 'test-human' };
      },
    };
  }

  it("an edit computed on the old text never overwrites a line the human saved while the dialog was open, even after the session re-read", async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'line 1\nline 2\n' }, policy: { approval: 'every-change' } });
    assert.equal(codeOf(await h.bound('read_file', { path: 'src/auth/login.ts' })), 'ok');
    approveAfter(async () => {
      await h.file('src/auth/login.ts', 'line 1\nthe human saved this\nline 2\n');
      // The same session reads the file again in a parallel call: its ledger now holds the human's version.
      assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'ok');
    });
    const edit = await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'line 2', replace: 'line two' }] });
    assert.equal(codeOf(edit), 'STALE_FILE');
    assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), 'line 1\nthe human saved this\nline 2\n');
    assert.equal(h.trace.mutations.length, 0);
  });

  it('an approved write never lands outside the workspace when a folder became a link while the dialog was open', async () => {
    h = await createHarness({ files: { 'src/auth/keep.ts': 'x\n' }, policy: { approval: 'every-change' } });
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'ig-outside-')));
    try {
      approveAfter(async () => {
        await rename(join(h.root, 'src/auth'), join(h.root, 'src/auth-moved'));
        await symlink(outside, join(h.root, 'src/auth'));
      });
      const write = await h.bound('write_file', { path: 'src/auth/new.ts', content: 'agent\n' });
      assert.equal(codeOf(write), 'PATH_OUTSIDE_WORKSPACE');
      assert.deepEqual(await readdir(outside), []);
      assert.equal(h.trace.mutations.length, 0);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('an approved write to a missing folder never follows a link put there while the dialog was open', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'ig-outside-')));
    try {
      await writeFile(join(h.root, 'placeholder'), '');
      approveAfter(async () => {
        await symlink(outside, join(h.root, 'src'));
      });
      const write = await h.bound('write_file', { path: 'src/auth/deep/new.ts', content: 'agent\n' });
      assert.equal(codeOf(write), 'PATH_OUTSIDE_WORKSPACE');
      assert.deepEqual(await readdir(outside), []);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
