import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRecordedPath } from '../../../../src/core/paths/recordedPath';

describe('resolveRecordedPath (the inspector opening a path a trace record names)', () => {
  let base: string;
  let root: string;
  const resolve = (recorded: string) => resolveRecordedPath(root, recorded, { caseInsensitive: false });

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-recorded-')));
    root = join(base, 'ws');
    await mkdir(join(root, 'src', 'auth'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.txt'), 'secret\n');
    await writeFile(join(root, 'src', 'auth', 'login.ts'), 'export {};\n');
    await symlink(join(base, 'outside'), join(root, 'src', 'out'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('opens a workspace file the record names, and one that was deleted since (the editor says it is gone)', async () => {
    const found = await resolve('src/auth/login.ts');
    assert.ok(found.ok);
    assert.equal(found.value.abs, join(root, 'src', 'auth', 'login.ts'));
    const gone = await resolve('src/auth/removed.ts');
    assert.ok(gone.ok);
    assert.equal(gone.value.exists, false);
  });

  for (const recorded of ['../../etc/passwd', '../outside/secret.txt', '/etc/passwd', 'src/../../outside/secret.txt', 'src/out/secret.txt', '~/.ssh/id_rsa']) {
    it(`refuses ${JSON.stringify(recorded)}: it leads outside the workspace`, async () => {
      const refused = await resolve(recorded);
      assert.ok(!refused.ok, `${recorded} resolved to ${refused.ok ? refused.value.abs : ''}`);
      assert.equal(refused.error.code, 'PATH_OUTSIDE_WORKSPACE');
      assert.match(refused.error.message, /outside the workspace, so it was not opened/);
      assert.match(refused.error.message, /Verify Agent Trace/);
    });
  }

  it('refuses a path with control characters with the reason, not an open attempt', async () => {
    const refused = await resolve('src/\u202eevil.ts');
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'INVALID_INPUT');
    assert.match(refused.error.message, /cannot be opened safely/);
  });
});
