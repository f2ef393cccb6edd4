import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkCommitted } from '../../../../src/core/commands/committedFiles';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'ignore' });
}

async function put(root: string, rel: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, rel)), { recursive: true });
  await writeFile(join(root, rel), content);
}

const OPTIONS = { caseInsensitive: false };

describe('committedFiles', () => {
  let top: string;
  let root: string; // the workspace: a folder inside the repository, as in a monorepo
  beforeEach(async () => {
    top = await realpath(await mkdtemp(join(tmpdir(), 'ig-committed-')));
    root = join(top, 'packages', 'app');
    await put(top, '.gitignore', 'build/\n*.local\n');
    await put(root, 'package.json', '{}\n');
    await put(root, 'src/auth/Makefile', 'all:\n');
    await put(root, 'tests/test_a.py', 'def test(): pass\n');
    git(top, 'init', '-q');
    git(top, 'add', '-A');
    git(top, 'commit', '-qm', 'initial');
  });
  afterEach(() => rm(top, { recursive: true, force: true }));

  it('finds nothing when every file is as committed', async () => {
    assert.deepEqual(await checkCommitted(root, '', [{ path: 'package.json', upward: true }, { path: '**/test_*.py', upward: false }], OPTIONS), { changed: [], unverifiable: [] });
  });

  it('reports modified, staged, untracked and deleted files, workspace-relative', async () => {
    await put(root, 'package.json', '{"scripts":{}}\n');
    await put(root, 'tests/test_new.py', 'x = 1\n');
    await put(root, 'src/auth/Makefile', 'all:\n\tid\n');
    git(top, 'add', join(root, 'src/auth/Makefile'));
    await rm(join(root, 'tests/test_a.py'));
    const check = await checkCommitted(root, 'src/auth', [{ path: 'package.json', upward: true }, { path: 'Makefile', upward: false }, { path: '../../tests/**', upward: false }], OPTIONS);
    assert.deepEqual(check.changed.sort(), ['package.json', 'src/auth/Makefile', 'tests/test_a.py', 'tests/test_new.py']);
    assert.deepEqual(check.unverifiable, []);
  });

  it('counts an ignored file it runs as never committed, but not an ignored folder it only searches', async () => {
    await put(root, 'settings.local', 'x\n');
    await put(root, 'build/test_gen.py', 'x\n');
    const ignoredFile = await checkCommitted(root, '', [{ path: 'settings.local', upward: false }], OPTIONS);
    assert.deepEqual(ignoredFile.changed, ['settings.local']);
    const searched = await checkCommitted(root, '', [{ path: '**/test_*.py', upward: false }], OPTIONS);
    assert.deepEqual(searched.changed, []);
    const inIgnoredFolder = await checkCommitted(root, '', [{ path: 'build/test_gen.py', upward: false }], OPTIONS);
    assert.deepEqual(inIgnoredFolder.changed, ['build/']);
  });

  it('judges a link by what it points at too', async () => {
    await put(root, 'scripts/real.js', 'x\n');
    await symlink('real.js', join(root, 'scripts/run.js'));
    git(top, 'add', '-A');
    git(top, 'commit', '-qm', 'scripts');
    await put(root, 'scripts/real.js', 'changed\n');
    assert.deepEqual((await checkCommitted(root, '', [{ path: 'scripts/run.js', upward: false }], OPTIONS)).changed, ['scripts/real.js']);
  });

  it('cannot vouch for files outside the workspace, or without a repository', async () => {
    const outside = await checkCommitted(root, '', [{ path: '../../x.js', upward: false }, { path: '/etc/passwd', upward: false }], OPTIONS);
    assert.equal(outside.unverifiable.length, 2);
    const plain = await realpath(await mkdtemp(join(tmpdir(), 'ig-plain-')));
    try {
      await put(plain, 'package.json', '{}\n');
      const check = await checkCommitted(plain, '', [{ path: 'package.json', upward: true }], OPTIONS);
      assert.equal(check.unverifiable.length, 1);
      assert.match(check.unverifiable[0], /git/);
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});
