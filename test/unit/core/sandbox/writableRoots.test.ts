import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeCreatedFolders, scopeRoots } from '../../../../src/core/sandbox/writableRoots';
import { removeTree } from '../../../support/removeTree';

/** What a confined command may write: each root as rel (file roots marked), and why any scope entry got none. */
async function opened(ws: string, scope: string[]) {
  const planned = await scopeRoots(ws, scope);
  return { roots: planned.roots.map((root) => `${root.rel}${root.file ? ' (file)' : ''}`).sort(), planned };
}

describe('scopeRoots: the folders a confined command may write', () => {
  let base: string;
  let ws: string;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-roots-')));
    ws = join(base, 'ws');
    for (const dir of ['ws/src/auth/session', 'ws/src-gen', 'ws/.git', 'ws/.github/hooks', 'ws-evil', 'elsewhere']) await mkdir(join(base, dir), { recursive: true });
    await writeFile(join(ws, 'README.md'), 'readme\n');
  });
  afterEach(() => removeTree(base));

  it('opens the literal folder of each glob, one root for globs inside another, and an existing file named alone', async () => {
    const { roots, planned } = await opened(ws, ['src/auth/**', './src/auth/session/*.ts', 'src-gen/**', 'README.md']);
    assert.deepEqual(roots, ['README.md (file)', 'src-gen', 'src/auth']);
    assert.deepEqual(planned.roots.find((root) => root.rel === 'src/auth')?.globs, ['src/auth/**', 'src/auth/session/*.ts']);
    assert.equal(planned.roots.find((root) => root.rel === 'src/auth')?.abs, join(ws, 'src/auth'));
    assert.deepEqual(planned.skipped, []);
  });

  it('keeps a sibling folder whose name starts with another root’s as a root of its own, not inside it', async () => {
    const { roots, planned } = await opened(ws, ['src/**', 'src-gen/**']);
    assert.deepEqual(roots, ['src', 'src-gen']);
    assert.deepEqual(planned.roots.find((root) => root.rel === 'src')?.globs, ['src/**']);
  });

  it('creates a missing scope folder so it can be bound, and removes it again when the command left it empty', async () => {
    const { roots, planned } = await opened(ws, ['src/billing/new/**']);
    assert.deepEqual(roots, ['src/billing/new']);
    assert.deepEqual(planned.created, [join(ws, 'src/billing'), join(ws, 'src/billing/new')]);
    await removeCreatedFolders(planned.created);
    assert.equal(existsSync(join(ws, 'src/billing')), false);
  });

  it('gives no root to a protected folder the scope names', async () => {
    const { roots, planned } = await opened(ws, ['.git/**', '.github/hooks/*.json', '.vscode/settings.json', 'src/.claude/**']);
    assert.deepEqual(roots, []);
    assert.equal(planned.skipped.length, 4);
    for (const why of planned.skipped) assert.match(why, / is protected \(/, why);
    assert.equal(existsSync(join(ws, '.vscode')), false, 'nor is a protected folder created for it');
  });

  it('gives no root to a scope folder that is a symlink into a protected folder', async () => {
    await symlink(join(ws, '.git'), join(ws, 'src/repo'));
    await symlink('../../.github/hooks', join(ws, 'src/auth/hooks'));
    const { roots, planned } = await opened(ws, ['src/repo/**', 'src/auth/hooks/**', 'src/repo/objects/new/**']);
    assert.deepEqual(roots, []);
    assert.equal(planned.skipped.length, 3, planned.skipped.join('\n'));
    for (const why of planned.skipped) assert.match(why, /resolves into a protected path \(\*\*\/\.git(hub\/hooks)?(\/\*\*)?\)/, why);
    assert.deepEqual(planned.created, []);
    assert.deepEqual(await readdir(join(ws, '.git')), [], 'nothing is made inside .git for a scope that leads there');
  });

  it('gives no root to a symlink that leads out of the workspace, and creates nothing out there', async () => {
    await symlink(join(base, 'elsewhere'), join(ws, 'src/out'));
    const { roots, planned } = await opened(ws, ['src/out/**', 'src/out/made/**']);
    assert.deepEqual(roots, []);
    assert.equal(planned.skipped.length, 2);
    assert.deepEqual(await readdir(join(base, 'elsewhere')), []);
  });

  it('treats a sibling folder whose name starts with the workspace’s (ws-evil beside ws) as outside it', async () => {
    await symlink(join(base, 'ws-evil'), join(ws, 'src/evil'));
    await symlink('../ws-evil', join(ws, 'evil'));
    const { roots, planned } = await opened(ws, ['src/evil/**', 'evil/**', 'src/evil/made/**']);
    assert.deepEqual(roots, []);
    assert.equal(planned.skipped.length, 3, planned.skipped.join('\n'));
    assert.deepEqual(planned.created, []);
    assert.deepEqual(await readdir(join(base, 'ws-evil')), [], 'no folder was made in the sibling');
  });
});
