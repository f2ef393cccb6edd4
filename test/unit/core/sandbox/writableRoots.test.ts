import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeScopeFolders, removeCreatedFolders, scopeRoots } from '../../../../src/core/sandbox/writableRoots';
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

  it('gives no root to a file the scope names through a symlink out of the workspace, and says why', async () => {
    await writeFile(join(base, 'elsewhere/notes.txt'), 'outside\n');
    await symlink(join(base, 'elsewhere'), join(ws, 'src/out'));
    const { roots, planned } = await opened(ws, ['src/out/notes.txt']);
    assert.deepEqual(roots, []);
    assert.deepEqual(planned.skipped, ['src/out/notes.txt: src/out/notes.txt resolves outside the workspace']);
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

  it('opens one root for a folder and the folders inside it, whichever the scope names first', async () => {
    const { roots, planned } = await opened(ws, ['src/auth/session/**', 'src/auth/**', 'src/**']);
    assert.deepEqual(roots, ['src']);
    assert.deepEqual(planned.roots[0].globs.sort(), ['src/**', 'src/auth/**', 'src/auth/session/**']);
    const whole = await opened(ws, ['src/auth/**', '**']);
    assert.deepEqual(whole.roots, [''], 'a scope of ** opens the workspace itself, and nothing more');
    assert.equal(whole.planned.roots[0].abs, ws);
    assert.deepEqual(whole.planned.roots[0].globs.sort(), ['**', 'src/auth/**']);
  });

  it('opens the folder of a file the scope names that does not exist yet, and an existing folder named alone', async () => {
    const { roots, planned } = await opened(ws, ['src/auth/new.ts', 'src-gen']);
    assert.deepEqual(roots, ['src-gen', 'src/auth']);
    assert.ok(planned.roots.every((root) => !root.file), 'neither is bound as a file');
    assert.deepEqual(planned.created, [], 'the folders were there, so nothing is made');
  });

  it('opens the folder before the first wildcard, wherever it is, and makes no folder named after a glob', async () => {
    const { roots, planned } = await opened(ws, ['src/*/session/*.ts']);
    assert.deepEqual(roots, ['src']);
    assert.deepEqual(planned.created, []);
  });

  it('gives no root to a scope that leads through a file, and says why', async () => {
    const { roots, planned } = await opened(ws, ['README.md/sub/**']);
    assert.deepEqual(roots, []);
    assert.deepEqual(planned.skipped, ['README.md/sub/**: README.md/sub leads out of the workspace or is not a folder']);
  });
});

describe('describeScopeFolders: the folders the dialog names before a confined command runs', () => {
  it('names the folder of each glob, the workspace root for a glob at the top, and a path named alone as it is', () => {
    assert.equal(describeScopeFolders(['./src/auth/**', '**', 'README.md']), 'src/auth, the workspace root, README.md');
  });

  it('says when only some files of the folder are in scope, so the person knows the rest is reported, not refused', () => {
    assert.equal(describeScopeFolders(['src/**/*.test.ts']), 'src (only src/**/*.test.ts is in scope; changes to other files there are reported)');
    assert.equal(describeScopeFolders(['*.md']), 'the workspace root (only *.md is in scope; changes to other files there are reported)');
    assert.equal(describeScopeFolders(['src/auth/*']), 'src/auth (only src/auth/* is in scope; changes to other files there are reported)');
  });
});
