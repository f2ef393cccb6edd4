import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/core/nodeWorkspace';
import { toolError } from '../../../src/core/toolError';
import type { Workspace } from '../../../src/core/workspace';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('nodeWorkspace', () => {
  let base: string;
  let root: string;
  let ws: Workspace;

  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ig-ws-')));
    root = path.join(base, 'root');
    await fs.mkdir(root);
    ws = await createNodeWorkspace(root);
  });
  afterEach(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  const write = async (rel: string, text: string): Promise<void> => {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  };

  it('resolves the root through symlinks', async () => {
    const link = path.join(base, 'link');
    await fs.symlink(root, link);
    assert.equal((await createNodeWorkspace(link)).root, root);
  });

  describe('readFile and entryInfo', () => {
    it('returns the bytes of a file and undefined when nothing is there', async () => {
      await write('a.txt', 'hello');
      await write('file', 'x');
      assert.equal(Buffer.from((await ws.readFile(path.join(root, 'a.txt')))!).toString(), 'hello');
      assert.equal(await ws.readFile(path.join(root, 'missing.txt')), undefined);
      assert.equal(await ws.readFile(path.join(root, 'file', 'below')), undefined); // ENOTDIR
    });

    it('refuses a FIFO, a device and a link that replaced the file, without blocking or reading them', async () => {
      execFileSync('mkfifo', [path.join(root, 'pipe.ts')]);
      await assert.rejects(ws.readFile(path.join(root, 'pipe.ts')), { code: 'EFTYPE', message: 'pipe.ts is a FIFO (named pipe), not a regular file: refused' });
      await assert.rejects(ws.readFile('/dev/zero'), { code: 'EFTYPE', message: '/dev/zero is a character device, not a regular file: refused' });
      await fs.symlink('/dev/zero', path.join(root, 'zero.ts'));
      await assert.rejects(ws.readFile(path.join(root, 'zero.ts')), { code: 'ELOOP' });
    });

    it('describes entries without following a final symlink', async () => {
      await write('dir/a.txt', 'abc');
      await fs.symlink(path.join(root, 'dir'), path.join(root, 'link'));
      const file = await ws.entryInfo(path.join(root, 'dir/a.txt'));
      assert.equal(file?.kind, 'file');
      assert.equal(file?.size, 3);
      assert.equal((await ws.entryInfo(path.join(root, 'dir')))?.kind, 'directory');
      assert.equal((await ws.entryInfo(path.join(root, 'link')))?.kind, 'symlink');
      assert.equal(await ws.entryInfo(path.join(root, 'nope')), undefined);
    });
  });

  describe('replaceFile', () => {
    it('creates missing parent directories and leaves no temp file behind', async () => {
      const target = path.join(root, 'src/deep/new.ts');
      assert.equal(await ws.replaceFile(target, bytes('export {};\n')), undefined);
      assert.equal(await fs.readFile(target, 'utf8'), 'export {};\n');
      assert.deepEqual(await fs.readdir(path.dirname(target)), ['new.ts']);
    });

    it('replaces an existing file, keeping its permissions', async () => {
      await write('run.sh', 'old');
      await fs.chmod(path.join(root, 'run.sh'), 0o751);
      assert.equal(await ws.replaceFile(path.join(root, 'run.sh'), bytes('new')), undefined);
      assert.equal(await fs.readFile(path.join(root, 'run.sh'), 'utf8'), 'new');
      assert.equal((await fs.stat(path.join(root, 'run.sh'))).mode & 0o777, 0o751);
      assert.deepEqual(await fs.readdir(root), ['run.sh']);
    });

    it('gives a new file the permissions the umask allows', async () => {
      await ws.replaceFile(path.join(root, 'n.txt'), bytes('x'));
      const umask = process.umask();
      assert.equal((await fs.stat(path.join(root, 'n.txt'))).mode & 0o777, 0o666 & ~umask);
    });

    it('runs beforeReplace once the new bytes are on disk, and its refusal leaves the file untouched', async () => {
      await write('a.txt', 'original');
      let sawTemp = false;
      const refusal = toolError('STALE_FILE', 'changed meanwhile');
      const error = await ws.replaceFile(path.join(root, 'a.txt'), bytes('agent'), {
        beforeReplace: async () => {
          const temps = (await fs.readdir(root)).filter((name) => name.endsWith('.ig-tmp'));
          sawTemp = temps.length === 1 && (await fs.readFile(path.join(root, temps[0]!), 'utf8')) === 'agent';
          return refusal;
        },
      });
      assert.deepEqual(error, refusal);
      assert.equal(sawTemp, true);
      assert.equal(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), 'original');
      assert.deepEqual(await fs.readdir(root), ['a.txt']);
    });

    it('fails closed when beforeReplace throws', async () => {
      await write('a.txt', 'original');
      const error = await ws.replaceFile(path.join(root, 'a.txt'), bytes('agent'), {
        beforeReplace: async () => {
          throw new Error('boom');
        },
      });
      assert.equal(error?.code, 'HOOK_ERROR');
      assert.match(error!.message, /boom/);
      assert.equal(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), 'original');
      assert.deepEqual(await fs.readdir(root), ['a.txt']);
    });

    it('reports a file system failure as HOOK_ERROR naming the errno and the path', async () => {
      await write('plain', 'a file, not a directory');
      const underFile = await ws.replaceFile(path.join(root, 'plain/child.txt'), bytes('x'));
      assert.equal(underFile?.code, 'HOOK_ERROR');
      assert.deepEqual([underFile?.meta?.errno, underFile?.meta?.path], ['ENOTDIR', 'plain/child.txt']);

      await fs.mkdir(path.join(root, 'adir'));
      const overDirectory = await ws.replaceFile(path.join(root, 'adir'), bytes('x'));
      assert.deepEqual([overDirectory?.code, overDirectory?.meta?.errno], ['HOOK_ERROR', 'EISDIR']);
      assert.deepEqual((await fs.readdir(root)).sort(), ['adir', 'plain']);
    });

    it('refuses to replace a read-only file', async function () {
      if (process.getuid?.() === 0) this.skip(); // root may write anything
      await write('ro.txt', 'keep');
      await fs.chmod(path.join(root, 'ro.txt'), 0o444);
      const error = await ws.replaceFile(path.join(root, 'ro.txt'), bytes('x'));
      assert.deepEqual([error?.code, error?.meta?.errno], ['HOOK_ERROR', 'EACCES']);
      assert.equal(await fs.readFile(path.join(root, 'ro.txt'), 'utf8'), 'keep');
    });

    it('never writes or creates directories outside the root', async () => {
      const outside = path.join(base, 'outside');
      await fs.mkdir(outside);
      const direct = await ws.replaceFile(path.join(outside, 'x.txt'), bytes('x'));
      assert.equal(direct?.code, 'PATH_OUTSIDE_WORKSPACE');

      await fs.symlink(outside, path.join(root, 'escape'));
      const viaLink = await ws.replaceFile(path.join(root, 'escape/new/x.txt'), bytes('x'));
      assert.equal(viaLink?.code, 'PATH_OUTSIDE_WORKSPACE');
      assert.deepEqual(await fs.readdir(outside), []);
    });
  });

  describe('deleteFile', () => {
    it('deletes after beforeReplace allows it, and keeps the file when it refuses', async () => {
      await write('a.txt', 'x');
      const refusal = toolError('STALE_FILE', 'no');
      assert.deepEqual(await ws.deleteFile(path.join(root, 'a.txt'), { beforeReplace: async () => refusal }), refusal);
      assert.equal(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), 'x');
      assert.equal(await ws.deleteFile(path.join(root, 'a.txt'), { beforeReplace: async () => undefined }), undefined);
      assert.deepEqual(await fs.readdir(root), []);
    });

    it('reports a missing file as a file system error', async () => {
      const error = await ws.deleteFile(path.join(root, 'gone.txt'));
      assert.deepEqual([error?.code, error?.meta?.errno, error?.meta?.path], ['HOOK_ERROR', 'ENOENT', 'gone.txt']);
    });
  });

  describe('listFiles', () => {
    beforeEach(async () => {
      for (const rel of ['a.txt', 'a-b.txt', 'a/b.txt', 'src/z.ts', 'src/lib/y.ts', '.git/HEAD', 'node_modules/m/index.js', 'src/node_modules/n.js']) {
        await write(rel, rel);
      }
    });

    it('lists regular files recursively as sorted POSIX paths, skipping .git and node_modules', async () => {
      const result = await ws.listFiles(root, { recursive: true, limit: 100 });
      assert.deepEqual(result, { files: ['a-b.txt', 'a.txt', 'a/b.txt', 'src/lib/y.ts', 'src/z.ts'], truncated: false });
    });

    it('lists only the directory itself when not recursive, relative to the root', async () => {
      assert.deepEqual(await ws.listFiles(path.join(root, 'src'), { recursive: false, limit: 100 }), {
        files: ['src/z.ts'],
        truncated: false,
      });
    });

    it('stops at the limit and says the list was cut', async () => {
      assert.deepEqual(await ws.listFiles(root, { recursive: true, limit: 3 }), {
        files: ['a-b.txt', 'a.txt', 'a/b.txt'],
        truncated: true,
      });
      assert.equal((await ws.listFiles(root, { recursive: true, limit: 5 })).truncated, false);
    });

    it('does not follow symlinks, so a link loop or a link out of the workspace lists nothing', async () => {
      const outside = path.join(base, 'outside');
      await fs.mkdir(outside);
      await fs.writeFile(path.join(outside, 'secret.txt'), 's');
      await fs.symlink(outside, path.join(root, 'out'));
      await fs.symlink(root, path.join(root, 'src/loop'));
      await fs.symlink(path.join(root, 'a.txt'), path.join(root, 'alias.txt'));
      const result = await ws.listFiles(root, { recursive: true, limit: 100 });
      assert.deepEqual(result.files, ['a-b.txt', 'a.txt', 'a/b.txt', 'src/lib/y.ts', 'src/z.ts']);
    });

    it('hides temp files of a replace in progress and lists a missing directory as empty', async () => {
      await fs.writeFile(path.join(root, '.a.txt.0123456789ab.ig-tmp'), 'half');
      assert.equal((await ws.listFiles(root, { recursive: false, limit: 100 })).files.includes('.a.txt.0123456789ab.ig-tmp'), false);
      assert.deepEqual(await ws.listFiles(path.join(root, 'nope'), { recursive: true, limit: 10 }), { files: [], truncated: false });
    });
  });
});
