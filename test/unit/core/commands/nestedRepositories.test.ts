import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foreignRepositories } from '../../../../src/core/commands/nestedRepositories';

describe('nestedRepositories', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-nested-')));
    outside = await realpath(await mkdtemp(join(tmpdir(), 'ig-outside-')));
    await mkdir(join(root, '.git'));
    await mkdir(join(root, 'src', 'auth', 'deep'), { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('lets git start anywhere that only leads up to the workspace root', async () => {
    assert.deepEqual(await foreignRepositories(root, '', ['.', 'src/auth/deep'], false), []);
    assert.deepEqual(await foreignRepositories(root, 'src', ['auth', '..'], false), []);
  });

  it('names a .git folder or gitfile, or a bare-looking folder, between the start and the root', async () => {
    await mkdir(join(root, 'src', 'auth', '.git'));
    const [problem] = await foreignRepositories(root, '', ['src/auth/deep'], false);
    assert.match(problem, /src\/auth \(it holds \.git\)/);
    await rm(join(root, 'src', 'auth', '.git'), { recursive: true });
    await writeFile(join(root, 'src', 'HEAD'), 'ref: refs/heads/main\n');
    assert.match((await foreignRepositories(root, 'src/auth', ['.'], false))[0], /repository at src \(it holds HEAD\)/);
  });

  it('refuses to vouch for a start outside the workspace, directly or through a link', async () => {
    await symlink(outside, join(root, 'src', 'elsewhere'));
    const problems = await foreignRepositories(root, '', ['../x', outside, 'src/elsewhere'], false);
    assert.equal(problems.length, 3);
  });
});
