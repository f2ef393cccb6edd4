import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentBranch, findGitDirs, GitHeadReader, readGitHead } from '../../../../src/core/trace/gitHead';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

// Repositories are laid out by hand (the files git itself writes), so the reader is tested without a git binary.
describe('gitHead', () => {
  let base: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-git-')));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  async function repo(head: string, files: Record<string, string> = {}): Promise<string> {
    await mkdir(join(base, '.git', 'refs', 'heads'), { recursive: true });
    await writeFile(join(base, '.git', 'HEAD'), head);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(join(base, '.git', name, '..'), { recursive: true });
      await writeFile(join(base, '.git', name), text);
    }
    return base;
  }

  it('resolves a branch through its loose ref, from a subdirectory of the repository', async () => {
    await repo('ref: refs/heads/main\n', { 'refs/heads/main': `${SHA_A}\n` });
    await mkdir(join(base, 'pkg', 'sub'), { recursive: true });
    const dirs = await findGitDirs(join(base, 'pkg', 'sub'));
    assert.deepEqual(await readGitHead(dirs!), { revision: SHA_A, ref: 'refs/heads/main' });
    assert.equal(await currentBranch(join(base, 'pkg')), 'refs/heads/main');
  });

  it('a writer\'s cached HEAD follows every file it was read from: a commit, a ref packed away, a checkout, a detached HEAD', async () => {
    await repo('ref: refs/heads/main\n', { 'refs/heads/main': `${SHA_A}\n` });
    // Written long ago, as a repository's files usually are: the reader trusts their stat from then on.
    const settle = (...names: string[]) => Promise.all(names.map((name) => utimes(join(base, '.git', name), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))));
    await settle('HEAD', 'refs/heads/main');
    const reader = new GitHeadReader((await findGitDirs(base))!);
    assert.deepEqual(await reader.read(), { revision: SHA_A, ref: 'refs/heads/main' });
    assert.deepEqual(await reader.read(), { revision: SHA_A, ref: 'refs/heads/main' });
    await writeFile(join(base, '.git', 'refs', 'heads', 'main'), `${SHA_B}\n`); // a commit: same size
    assert.deepEqual(await reader.read(), { revision: SHA_B, ref: 'refs/heads/main' });
    await rm(join(base, '.git', 'refs', 'heads', 'main'));
    await writeFile(join(base, '.git', 'packed-refs'), `${SHA_A} refs/heads/main\n${SHA_B} refs/heads/other\n`);
    assert.deepEqual(await reader.read(), { revision: SHA_A, ref: 'refs/heads/main' });
    await settle('packed-refs');
    assert.deepEqual(await reader.read(), { revision: SHA_A, ref: 'refs/heads/main' });
    await writeFile(join(base, '.git', 'HEAD'), 'ref: refs/heads/other\n');
    assert.deepEqual(await reader.read(), { revision: SHA_B, ref: 'refs/heads/other' });
    await writeFile(join(base, '.git', 'HEAD'), `${SHA_A}\n`);
    assert.deepEqual(await reader.read(), { revision: SHA_A });
  });

  it('falls back to packed-refs when the loose ref is gone', async () => {
    await repo('ref: refs/heads/feature\n', { 'packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${SHA_B} refs/heads/feature\n${SHA_A} refs/heads/main\n` });
    assert.deepEqual(await readGitHead((await findGitDirs(base))!), { revision: SHA_B, ref: 'refs/heads/feature' });
  });

  it('reads a detached HEAD as a revision with no branch', async () => {
    await repo(`${SHA_A}\n`);
    assert.deepEqual(await readGitHead((await findGitDirs(base))!), { revision: SHA_A });
    assert.equal(await currentBranch(base), '');
  });

  it('has no revision on an unborn branch (a fresh git init)', async () => {
    await repo('ref: refs/heads/main\n');
    assert.equal(await readGitHead((await findGitDirs(base))!), undefined);
  });

  it('follows a worktree .git file to its gitdir and the shared refs', async () => {
    await repo('ref: refs/heads/main\n', { 'refs/heads/wt': `${SHA_B}\n`, 'worktrees/wt/HEAD': 'ref: refs/heads/wt\n', 'worktrees/wt/commondir': '../..\n' });
    const worktree = join(base, 'wt');
    await mkdir(worktree);
    await writeFile(join(worktree, '.git'), `gitdir: ${join(base, '.git', 'worktrees', 'wt')}\n`);
    assert.deepEqual(await readGitHead((await findGitDirs(worktree))!), { revision: SHA_B, ref: 'refs/heads/wt' });
  });
});
