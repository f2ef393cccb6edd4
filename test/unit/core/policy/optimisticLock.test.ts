import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { contentHash } from '../../../../src/core/contentHash';
import { createNodeWorkspace } from '../../../../src/core/nodeWorkspace';
import { cancelledError, checkBasis, replaceIfUnchanged, staleFileError, type ReadBasis } from '../../../../src/core/policy/optimisticLock';
import { WriteLocks } from '../../../../src/core/policy/writeLocks';
import type { WriteAhead } from '../../../../src/core/trace/traceSink';
import type { ToolError } from '../../../../src/core/toolError';
import type { Workspace } from '../../../../src/core/workspace';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const readBasis = (text: string): ReadBasis => ({ hash: contentHash(text), text });

describe('optimisticLock', () => {
  let root: string;
  let ws: Workspace;
  let locks: WriteLocks;
  const settled: WriteAhead = { landed: async () => {}, abandoned: async () => {} };
  /** A guarded write as a file tool makes it: the change computed from what is on disk when the call is decided. */
  const replace = async (
    on: Workspace,
    to: { abs: string; rel: string },
    basis: ReadBasis | undefined,
    next: Uint8Array | null,
    extra: Partial<Parameters<typeof replaceIfUnchanged>[2]> = {},
  ) => replaceIfUnchanged(on, locks, { target: to, basis, computedFrom: await on.readFile(to.abs).catch(() => undefined), next, record: async () => settled, ...extra });
  /** What a test put in the root, without the governor's own .orchestration folder (write locks live there). */
  const listRoot = async () => (await fs.readdir(root)).filter((name) => name !== '.orchestration');
  const target = (rel: string) => ({ abs: path.join(root, rel), rel });
  const onDisk = (rel: string) => fs.readFile(path.join(root, rel), 'utf8');
  const put = (rel: string, text: string) => fs.writeFile(path.join(root, rel), text);
  const errorOf = (result: { ok: boolean; error?: ToolError }): ToolError | undefined => (result.ok ? undefined : result.error);

  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ig-lock-')));
    ws = await createNodeWorkspace(root);
    locks = new WriteLocks(root, false);
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('refuses to overwrite an existing file the agent never read (PRECONDITION_REQUIRED)', async () => {
    await put('a.ts', 'human\n');
    const result = await replace(ws, target('a.ts'), undefined, bytes('agent\n'));
    const error = errorOf(result);
    assert.equal(error?.code, 'PRECONDITION_REQUIRED');
    assert.match(error!.message, /read_file it first.*expected_content_hash/);
    assert.deepEqual(error?.meta, { path: 'a.ts', current_content_hash: contentHash('human\n') });
    assert.equal(await onDisk('a.ts'), 'human\n');
  });

  it('writes when the file is still what the agent read, and reports hashes for the trace', async () => {
    await put('a.ts', 'v1\n');
    const result = await replace(ws, target('a.ts'), readBasis('v1\n'), bytes('v2\n'));
    assert.ok(result.ok);
    assert.equal(Buffer.from(result.value.before!).toString(), 'v1\n');
    assert.equal(result.value.beforeHash, contentHash('v1\n'));
    assert.equal(result.value.afterHash, contentHash('v2\n'));
    assert.equal(await onDisk('a.ts'), 'v2\n');
  });

  it('accepts a hash copied without its prefix or in upper case', async () => {
    await put('a.ts', 'v1\n');
    const bare = contentHash('v1\n').slice('sha256:'.length).toUpperCase();
    assert.ok((await replace(ws, target('a.ts'), { hash: bare }, bytes('v2\n'))).ok);
  });

  it('refuses a write based on an old read after a human saved, showing the human\'s line in the diff', async () => {
    await put('a.ts', 'line 1\nline 2\n');
    const basis = readBasis('line 1\nline 2\n');
    await put('a.ts', 'line 1\nthe human added this\nline 2\n');
    const error = errorOf(await replace(ws, target('a.ts'), basis, bytes('agent\n')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.equal(error?.meta?.reason, 'changed');
    assert.equal(error?.meta?.expected_content_hash, basis.hash);
    assert.equal(error?.meta?.current_content_hash, contentHash('line 1\nthe human added this\nline 2\n'));
    const diff = String(error?.meta?.diff);
    assert.match(diff, /^--- a\/a\.ts \(your read\)/m);
    assert.match(diff, /^\+\+\+ b\/a\.ts \(now\)/m);
    assert.match(diff, /^\+the human added this$/m);
    assert.equal(await onDisk('a.ts'), 'line 1\nthe human added this\nline 2\n');
  });

  it('says the agent\'s view is unknown when the ledger kept no text', async () => {
    await put('a.ts', 'now\n');
    const error = errorOf(await replace(ws, target('a.ts'), { hash: contentHash('then\n') }, bytes('x')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.match(error!.message, /unknown.*read_file it again/);
    assert.doesNotMatch(String(error?.meta?.diff), /^\+now/m);
  });

  it('caps a large diff and marks what was left out', async () => {
    const lines = (prefix: string) => Array.from({ length: 600 }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';
    await put('big.txt', lines('new'));
    const error = errorOf(await replace(ws, target('big.txt'), readBasis(lines('old')), bytes('x')));
    const diff = String(error?.meta?.diff);
    assert.ok(diff.split('\n').length <= 202, `diff has ${diff.split('\n').length} lines`);
    assert.ok(Buffer.byteLength(diff) <= 16 * 1024 + 100);
    assert.match(diff, /… \d+ more lines\n$/);
  });

  it('does not try to diff binary content', async () => {
    await fs.writeFile(path.join(root, 'img.bin'), Buffer.from([0x89, 0x50, 0x00, 0xff]));
    const error = errorOf(await replace(ws, target('img.bin'), readBasis('text before'), bytes('x')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.match(String(error?.meta?.diff), /binary/);
  });

  it('refuses a write to a file deleted since the agent read it', async () => {
    const error = errorOf(await replace(ws, target('gone.ts'), readBasis('was here\n'), bytes('x')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.equal(error?.meta?.reason, 'deleted');
    assert.match(error!.message, /deleted since you read it/);
    assert.deepEqual(await listRoot(), []);
  });

  it('creates a new file without any prior read', async () => {
    const result = await replace(ws, target('new/file.ts'), undefined, bytes('fresh\n'));
    assert.ok(result.ok);
    assert.equal(result.value.before, undefined);
    assert.equal(result.value.beforeHash, undefined);
    assert.equal(result.value.afterHash, contentHash('fresh\n'));
    assert.equal(await onDisk('new/file.ts'), 'fresh\n');
  });

  it('does not clobber a file someone created while the agent thought it was new', async () => {
    // Someone created it before the check...
    await put('race.ts', 'theirs\n');
    const early = errorOf(await replace(ws, target('race.ts'), undefined, bytes('mine\n')));
    assert.equal(early?.code, 'PRECONDITION_REQUIRED');
    await fs.rm(path.join(root, 'race.ts'));

    // ...or between the check and the rename.
    const racing: Workspace = {
      ...ws,
      replaceFile: async (abs, data, options) => {
        await fs.writeFile(abs, 'theirs\n');
        return ws.replaceFile(abs, data, options);
      },
    };
    const late = errorOf(await replace(racing, target('race.ts'), undefined, bytes('mine\n')));
    assert.equal(late?.code, 'PRECONDITION_REQUIRED');
    assert.equal(await onDisk('race.ts'), 'theirs\n');
  });

  it('refuses while a human has unsaved edits in an editor', async () => {
    await put('a.ts', 'v1\n');
    const editing: Workspace = { ...ws, hasUnsavedChanges: async (abs) => abs === path.join(root, 'a.ts') };
    const error = errorOf(await replace(editing, target('a.ts'), readBasis('v1\n'), bytes('agent\n')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.equal(error?.meta?.reason, 'unsaved_editor');
    assert.match(error!.message, /save or discard/);
    assert.equal(await onDisk('a.ts'), 'v1\n');
  });

  it('re-checks right before the rename and catches a save made after the first check', async () => {
    await put('a.ts', 'v1\n');
    const humanSavesMidWrite: Workspace = {
      ...ws,
      replaceFile: async (abs, data, options) => {
        await fs.writeFile(abs, 'human v2\n');
        return ws.replaceFile(abs, data, options);
      },
    };
    const error = errorOf(await replace(humanSavesMidWrite, target('a.ts'), readBasis('v1\n'), bytes('agent\n')));
    assert.equal(error?.code, 'STALE_FILE');
    assert.match(String(error?.meta?.diff), /^\+human v2$/m);
    assert.equal(await onDisk('a.ts'), 'human v2\n');
    assert.deepEqual(await listRoot(), ['a.ts']);
  });

  it('lets exactly one of eight agents writing from the same read win', async () => {
    await put('shared.ts', 'base\n');
    const basis = readBasis('base\n');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => replace(ws, target('shared.ts'), basis, bytes(`agent ${i}\n`))),
    );
    const winners = results.flatMap((result, i) => (result.ok ? [i] : []));
    assert.equal(winners.length, 1);
    assert.deepEqual(
      results.filter((result) => !result.ok).map((result) => errorOf(result)?.code),
      Array(7).fill('STALE_FILE'),
    );
    assert.equal(await onDisk('shared.ts'), `agent ${winners[0]}\n`);
    assert.equal(locks.size, 0);
  });

  it('refuses when the file no longer holds what the change was computed from, even if the basis now matches it', async () => {
    // The session read v1, the change was computed from v1; a human saved v2 and the session read again.
    await put('a.ts', 'v2\n');
    const error = errorOf(
      await replace(ws, target('a.ts'), readBasis('v2\n'), bytes('edit of v1\n'), { computedFrom: bytes('v1\n') }),
    );
    assert.equal(error?.code, 'STALE_FILE');
    assert.match(String(error?.meta?.diff), /^\+v2$/m);
    assert.equal(await onDisk('a.ts'), 'v2\n');
  });

  it('refuses when a folder on the path became a symbolic link after the check, writing nothing outside', async () => {
    const outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ig-outside-')));
    try {
      await fs.mkdir(path.join(root, 'src', 'auth'), { recursive: true });
      await put('src/auth/a.ts', 'v1\n');
      const swapped: Workspace = {
        ...ws,
        replaceFile: async (abs, data, options) => {
          // While the human looked at the approval: src/auth moved away and replaced by a link outside.
          await fs.rename(path.join(root, 'src', 'auth'), path.join(root, 'src', 'auth-old'));
          await fs.symlink(outside, path.join(root, 'src', 'auth'));
          return ws.replaceFile(abs, data, options);
        },
      };
      const error = errorOf(await replace(swapped, target('src/auth/new.ts'), undefined, bytes('x\n'), { computedFrom: undefined }));
      assert.equal(error?.code, 'PATH_OUTSIDE_WORKSPACE');
      assert.equal(error?.meta?.reason, 'path_changed');
      assert.deepEqual(await fs.readdir(outside), []);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('writes nothing when the trace record cannot be written, and says so', async () => {
    await put('a.ts', 'v1\n');
    const error = errorOf(
      await replace(ws, target('a.ts'), readBasis('v1\n'), bytes('v2\n'), {
        record: async () => {
          throw new Error('ENOSPC: no space left on device');
        },
      }),
    );
    assert.equal(error?.code, 'HOOK_ERROR');
    assert.equal(error?.meta?.reason, 'trace_unavailable');
    assert.match(error!.message, /ENOSPC.*not changed/);
    assert.equal(await onDisk('a.ts'), 'v1\n');
    assert.deepEqual(await listRoot(), ['a.ts']);
  });

  it('appends the record before the rename, and voids it when the rename fails', async () => {
    await put('a.ts', 'v1\n');
    const events: string[] = [];
    const failingRename: Workspace = {
      ...ws,
      replaceFile: async (_abs, _data, options) => {
        const veto = await options?.beforeReplace?.();
        if (veto) return veto;
        events.push('rename failed');
        return { type: 'tool_error', code: 'HOOK_ERROR', message: 'EIO while renaming' };
      },
    };
    const record = async () => {
      events.push(`recorded while disk held ${await onDisk('a.ts')}`.trim());
      return { landed: async () => void events.push('landed'), abandoned: async () => void events.push('abandoned') };
    };
    assert.equal(errorOf(await replace(failingRename, target('a.ts'), readBasis('v1\n'), bytes('v2\n'), { record }))?.code, 'HOOK_ERROR');
    assert.deepEqual(events, ['recorded while disk held v1', 'rename failed', 'abandoned']);
    events.length = 0;
    assert.ok((await replace(ws, target('a.ts'), readBasis('v1\n'), bytes('v2\n'), { record })).ok);
    assert.deepEqual(events, ['recorded while disk held v1', 'landed']);
  });

  it('checks once more after appending the record: a save made while the record was written stops the rename, and the record is voided', async () => {
    await put('a.ts', 'v1\n');
    const events: string[] = [];
    const record = async () => {
      await put('a.ts', 'human saved while the trace lock was busy\n');
      return { landed: async () => void events.push('landed'), abandoned: async () => void events.push('abandoned') };
    };
    const error = errorOf(await replace(ws, target('a.ts'), readBasis('v1\n'), bytes('agent\n'), { record }));
    assert.equal(error?.code, 'STALE_FILE');
    assert.deepEqual(events, ['abandoned']);
    assert.equal(await onDisk('a.ts'), 'human saved while the trace lock was busy\n');
  });

  it('never writes for a call whose agent stopped waiting', async () => {
    await put('a.ts', 'v1\n');
    const controller = new AbortController();
    controller.abort();
    const error = errorOf(await replace(ws, target('a.ts'), readBasis('v1\n'), bytes('v2\n'), { signal: controller.signal }));
    assert.equal(error?.meta?.reason, 'cancelled');
    assert.equal(await onDisk('a.ts'), 'v1\n');
  });

  describe('deleting', () => {
    it('deletes a file that is still what the agent read', async () => {
      await put('a.ts', 'v1\n');
      const result = await replace(ws, target('a.ts'), readBasis('v1\n'), null);
      assert.ok(result.ok);
      assert.equal(result.value.beforeHash, contentHash('v1\n'));
      assert.equal(result.value.afterHash, undefined);
      assert.deepEqual(await listRoot(), []);
    });

    it('keeps a file that changed since the read, and refuses to delete what is not there', async () => {
      await put('a.ts', 'v2\n');
      const stale = errorOf(await replace(ws, target('a.ts'), readBasis('v1\n'), null));
      assert.equal(stale?.code, 'STALE_FILE');
      assert.equal(await onDisk('a.ts'), 'v2\n');
      const missing = errorOf(await replace(ws, target('nope.ts'), undefined, null));
      assert.equal(missing?.code, 'INVALID_INPUT');
    });
  });

  it('reports an unreadable target as an error value, not a crash', async () => {
    await fs.mkdir(path.join(root, 'dir.ts'));
    const error = errorOf(await replace(ws, target('dir.ts'), undefined, bytes('x')));
    assert.deepEqual([error?.code, error?.meta?.errno, error?.meta?.path], ['HOOK_ERROR', 'EISDIR', 'dir.ts']);
  });

  it('tells the agent what to do in each refusal, naming the file', async () => {
    assert.equal(
      checkBasis('a.ts', undefined, bytes('x'))?.message,
      'a.ts already exists and your call did not say which version it is based on. read_file it first and pass its content_hash as expected_content_hash.',
    );
    const deleted = checkBasis('a.ts', readBasis('x'), undefined);
    assert.equal(deleted?.message, 'a.ts was deleted since you read it; your change was not applied. Do not recreate it blindly: check with the human whether it should still exist, then create it without expected_content_hash.');
    assert.deepEqual(deleted?.meta, { path: 'a.ts', expected_content_hash: contentHash('x'), current_content_hash: null, reason: 'deleted' });
    assert.equal(
      checkBasis('a.ts', readBasis('x\n'), bytes('y\n'))?.message,
      'a.ts changed since you read it (someone else saved it); your change was not applied. meta.diff shows what changed since your read: read_file it again, redo your change on the current content and pass the new content_hash.',
    );
    const unknown = staleFileError('a.ts', { hash: contentHash('x') }, bytes('y'));
    assert.equal(unknown.message, 'a.ts changed since you read it (someone else saved it); your change was not applied. The content you based your change on is unknown to the governor, so no diff can be shown: read_file it again, redo your change on the current content and pass the new content_hash.');
    assert.equal(unknown.meta?.diff, '(unknown: the governor did not keep the content you read; read_file again to see the current content)');
    const cancelled = cancelledError('a.ts');
    assert.deepEqual([cancelled.code, cancelled.message, cancelled.meta], ['HITL_REJECT', 'The call was cancelled (the agent stopped waiting for it), so a.ts was not changed. Call again if the change is still wanted.', { path: 'a.ts', reason: 'cancelled' }]);
    const missing = errorOf(await replace(ws, target('nope.ts'), undefined, null));
    assert.equal(missing?.message, 'nope.ts does not exist, so there is nothing to delete (it may have been deleted since you read it). Use list_files to see what is there.');
    assert.deepEqual(missing?.meta, { path: 'nope.ts' });
  });

  it('shows the whole diff since the read when it is small, ending in one newline', () => {
    const stale = checkBasis('a.ts', readBasis('one\ntwo\n'), bytes('one\nTWO\n'));
    assert.equal(stale?.meta?.diff, ['===================================================================', '--- a/a.ts (your read)', '+++ b/a.ts (now)', '@@ -1,2 +1,2 @@', ' one', '-two', '+TWO', ''].join('\n'));
  });

  it('reads a hash with spaces around it as the hash, and refuses one with anything more', () => {
    const hex = contentHash('x').slice('sha256:'.length);
    assert.equal(checkBasis('a.ts', { hash: `  ${hex.toUpperCase()}\n` }, bytes('x')), undefined);
    assert.equal(checkBasis('a.ts', { hash: ` ${contentHash('x').toUpperCase()} ` }, bytes('x')), undefined);
    assert.equal(checkBasis('a.ts', { hash: `${hex}00` }, bytes('x'))?.code, 'STALE_FILE');
    assert.equal(checkBasis('a.ts', { hash: `0${hex}` }, bytes('x'))?.code, 'STALE_FILE');
  });

  it('shows no text diff for a file that is not valid UTF-8 now', () => {
    const stale = checkBasis('a.bin', readBasis('text\n'), new Uint8Array([0x74, 0xff, 0xfe, 0x0a]));
    assert.equal(stale?.meta?.diff, '(binary content: no text diff; read_file again)');
  });

  it('checkBasis alone tells the same story without writing', () => {
    assert.equal(checkBasis('n.ts', undefined, undefined), undefined);
    assert.equal(checkBasis('a.ts', readBasis('x'), bytes('x')), undefined);
    assert.equal(checkBasis('a.ts', undefined, bytes('x'))?.code, 'PRECONDITION_REQUIRED');
    assert.equal(checkBasis('a.ts', readBasis('x'), bytes('y'))?.code, 'STALE_FILE');
    assert.equal(checkBasis('a.ts', readBasis('x'), undefined)?.meta?.reason, 'deleted');
  });
});
