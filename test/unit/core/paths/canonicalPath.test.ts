import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalizePath, detectCaseInsensitive, type PathPurpose } from '../../../../src/core/paths/canonicalPath';
import { protectedPatternFor } from '../../../../src/core/paths/protectedPaths';
import type { ErrorCode } from '../../../../src/core/toolError';

type Expect = { ok: true; rel: string; exists: boolean } | { code: ErrorCode; reason?: string };

interface Case {
  name: string;
  input: string | (() => string);
  purpose: PathPurpose;
  expect: Expect;
  caseInsensitive?: boolean;
}

describe('canonicalizePath', () => {
  let base: string;
  let root: string;
  let outside: string;

  before(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'ig-canon-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    const evil = path.join(base, 'ws-evil');
    await Promise.all([fsp.mkdir(path.join(root, 'src', 'auth'), { recursive: true }), fsp.mkdir(outside), fsp.mkdir(evil)]);
    await fsp.mkdir(path.join(root, '.git'));
    await fsp.writeFile(path.join(root, '.git', 'config'), '[core]\n');
    await fsp.writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await fsp.writeFile(path.join(root, 'src', 'a.ts'), 'export {};\n');
    await fsp.writeFile(path.join(root, 'src', 'auth', 'login.ts'), '');
    await fsp.writeFile(path.join(root, 'caf\u00e9.ts'), '');
    await fsp.writeFile(path.join(outside, 'secret.txt'), 'secret');
    await fsp.writeFile(path.join(evil, 'x.ts'), '');
    await fsp.link(path.join(root, '.git', 'config'), path.join(root, 'src', 'innocent'));
    const src = path.join(root, 'src');
    await fsp.symlink(outside, path.join(src, 'out'));
    await fsp.symlink(path.join(outside, 'secret.txt'), path.join(src, 'outfile'));
    await fsp.symlink(path.join(outside, 'missing.txt'), path.join(src, 'dangling-out'));
    await fsp.symlink(path.join(outside, 'nope'), path.join(src, 'dangling-dir'));
    await fsp.symlink('missing.ts', path.join(src, 'dangling-in'));
    await fsp.symlink('a.ts', path.join(src, 'link-in'));
    await fsp.symlink('auth', path.join(src, 'authlink'));
    await fsp.symlink('../.git', path.join(src, 'gitlink'));
    await fsp.symlink('..', path.join(src, 'link-root'));
    await fsp.symlink('loop2', path.join(src, 'loop1'));
    await fsp.symlink('loop1', path.join(src, 'loop2'));
  });

  after(async () => {
    await fsp.rm(base, { recursive: true, force: true });
  });

  const cases: Case[] = [
    // Climbing out, lexically.
    { name: 'refuses ../x', input: '../x', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses a/../../x', input: 'a/../../x', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses /etc/passwd', input: '/etc/passwd', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses a sibling folder whose name starts with the root name', input: () => `${root}-evil/x.ts`, purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses ~/x', input: '~/x', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses ~root/x', input: '~root/x', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'accepts an absolute path inside the root and makes it relative', input: () => path.join(root, 'src', 'a.ts'), purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'normalises src/../src/a.ts', input: 'src/../src/a.ts', purpose: 'write', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'drops a leading ./', input: './src/a.ts', purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'accepts a new file in new folders', input: 'src/new/deep/file.ts', purpose: 'write', expect: { ok: true, rel: 'src/new/deep/file.ts', exists: false } },
    // Escaping through symlinks.
    { name: 'refuses reading through a symlinked folder that points outside', input: 'src/out/secret.txt', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing through a symlinked folder that points outside', input: 'src/out/secret.txt', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses creating a file through a symlinked folder that points outside', input: 'src/out/new.ts', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses reading a symlink to a file outside', input: 'src/outfile', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing a symlink to a file outside', input: 'src/outfile', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses reading a dangling symlink that points outside', input: 'src/dangling-out', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing a dangling symlink that points outside', input: 'src/dangling-out', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses creating a file under a dangling folder link that points outside', input: 'src/dangling-dir/new.ts', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing through a symlink whose target is inside', input: 'src/link-in', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'symlink' } },
    { name: 'refuses writing a dangling symlink whose target is inside', input: 'src/dangling-in', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'symlink' } },
    { name: 'reads through a symlink whose target is inside, naming the target', input: 'src/link-in', purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'reads a dangling inside symlink as its missing target', input: 'src/dangling-in', purpose: 'read', expect: { ok: true, rel: 'src/missing.ts', exists: false } },
    { name: 'writes inside a symlinked folder at its real location', input: 'src/authlink/login.ts', purpose: 'write', expect: { ok: true, rel: 'src/auth/login.ts', exists: true } },
    { name: 'refuses a symlink loop', input: 'src/loop1', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a symlink to the workspace root', input: 'src/link-root', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    // Hard links.
    { name: 'refuses writing a file hard-linked to .git/config', input: 'src/innocent', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'hardlink' } },
    { name: 'allows reading a hard-linked file', input: 'src/innocent', purpose: 'read', expect: { ok: true, rel: 'src/innocent', exists: true } },
    // Characters and names that mean different things on different systems.
    { name: 'refuses NUL', input: 'src/a.ts\u0000.png', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses \\u0001', input: 'src/\u0001a.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a right-to-left override', input: 'src/\u202egpj.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses CON', input: 'CON', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses src/aux.ts', input: 'src/aux.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses lpt1.txt', input: 'lpt1.txt', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a device name as a folder', input: 'src/Nul/x.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'allows names that only start like a device', input: 'src/console.ts', purpose: 'write', expect: { ok: true, rel: 'src/console.ts', exists: false } },
    { name: 'refuses an alternate data stream', input: 'file.txt:stream', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a bare drive prefix', input: 'C:', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a trailing dot', input: 'trailing.', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a trailing space', input: 'trailing ', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a folder name with a trailing dot', input: 'src./a.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses backslashes', input: 'src\\a.ts', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a backslash climb', input: '..\\x', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses an empty path', input: '', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    // Directories and the root.
    { name: 'refuses the root as .', input: '.', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses the root given absolutely', input: () => root, purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses writing a directory', input: 'src/auth', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'allows reading a directory', input: 'src/auth', purpose: 'read', expect: { ok: true, rel: 'src/auth', exists: true } },
    { name: 'refuses writing a path that ends in a slash', input: 'newdir/', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a file used as a folder', input: 'src/a.ts/x', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    // Unicode and case.
    { name: 'resolves an NFD name to the NFC file', input: 'caf\u0065\u0301.ts', purpose: 'read', expect: { ok: true, rel: 'caf\u00e9.ts', exists: true } },
    { name: 'resolves the NFC twin to the same file', input: 'caf\u00e9.ts', purpose: 'read', expect: { ok: true, rel: 'caf\u00e9.ts', exists: true } },
    { name: 'treats an absolute path in other case as outside when case matters', input: () => path.join(root.toUpperCase(), 'src', 'a.ts'), purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'accepts an absolute path in other case when case does not matter', input: () => path.join(root.toUpperCase(), 'src', 'a.ts'), purpose: 'read', caseInsensitive: true, expect: { ok: true, rel: 'src/a.ts', exists: true } },
  ];
  if (process.platform !== 'win32') {
    cases.push({ name: 'treats a drive-letter path as outside on POSIX', input: 'C:/Windows/win.ini', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } });
  }

  for (const c of cases) {
    it(`${c.name} (${c.purpose})`, async () => {
      const input = typeof c.input === 'function' ? c.input() : c.input;
      const result = await canonicalizePath(root, input, c.purpose, { caseInsensitive: c.caseInsensitive ?? false });
      if ('ok' in c.expect) {
        assert.ok(result.ok, `expected ok, got ${result.ok ? '' : JSON.stringify(result.error)}`);
        assert.equal(result.value.rel, c.expect.rel);
        assert.equal(result.value.exists, c.expect.exists);
        assert.equal(result.value.abs, path.join(root, ...c.expect.rel.split('/')));
      } else {
        assert.ok(!result.ok, `expected ${c.expect.code}, got ok ${result.ok ? JSON.stringify(result.value) : ''}`);
        assert.equal(result.error.code, c.expect.code, result.error.message);
        assert.equal(result.error.meta?.['path'], input);
        assert.ok(result.error.message.includes(JSON.stringify(input)), `message names the path: ${result.error.message}`);
        if (c.expect.reason) assert.equal(result.error.meta?.['reason'], c.expect.reason);
      }
    });
  }

  it('refuses input that is not a string', async () => {
    const result = await canonicalizePath(root, 42 as unknown as string, 'read', { caseInsensitive: false });
    assert.equal(result.ok ? undefined : result.error.code, 'INVALID_INPUT');
  });

  it('a workspace folder that is gone is refused with the reason the disk gave (ENOENT)', async () => {
    const result = await canonicalizePath(path.join(base, 'gone'), 'src/new.ts', 'write', { caseInsensitive: false });
    assert.equal(result.ok ? undefined : result.error.code, 'INVALID_INPUT');
    assert.equal(result.ok ? undefined : result.error.meta?.errno, 'ENOENT');
    assert.match(result.ok ? '' : result.error.message, /could not be checked safely \(ENOENT\)/);
  });

  it('reports how many links a hard-linked file has and tells the agent what to do', async () => {
    const result = await canonicalizePath(root, 'src/innocent', 'write', { caseInsensitive: false });
    assert.ok(!result.ok);
    assert.equal(result.error.meta?.['links'], 2);
    assert.match(result.error.message, /hard link/);
  });

  it("tells the agent to write the link's target instead of the link", async () => {
    const result = await canonicalizePath(root, 'src/link-in', 'write', { caseInsensitive: false });
    assert.ok(!result.ok);
    assert.match(result.error.message, /symbolic link/);
    assert.match(result.error.message, /"src\/a\.ts"/);
  });

  it('names the real location, so a write reaching .git through a symlinked folder is seen as protected', async () => {
    const result = await canonicalizePath(root, 'src/gitlink/HEAD', 'write', { caseInsensitive: false });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    assert.equal(result.value.rel, '.git/HEAD');
    assert.ok(protectedPatternFor(result.value.rel));
  });

  it('gives NFD and NFC spellings of a new file the same rel', async () => {
    const [nfd, nfc] = await Promise.all([
      canonicalizePath(root, 'src/r\u0065\u0301sum\u0065\u0301.md', 'write', { caseInsensitive: false }),
      canonicalizePath(root, 'src/r\u00e9sum\u00e9.md', 'write', { caseInsensitive: false }),
    ]);
    assert.ok(nfd.ok && nfc.ok);
    assert.equal(nfd.value.rel, nfc.value.rel);
    assert.equal(nfd.value.abs, nfc.value.abs);
  });
});

describe('detectCaseInsensitive', () => {
  let dir: string;
  before(async () => {
    dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'ig-case-')));
  });
  after(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('agrees with what the filesystem does with a flipped-case name', async () => {
    const root = path.join(dir, 'probe-root');
    await fsp.mkdir(root);
    await fsp.writeFile(path.join(root, 'Readme.md'), '');
    const flippedExists = await fsp.stat(path.join(root, 'rEADME.MD')).then(
      () => true,
      () => false,
    );
    assert.equal(await detectCaseInsensitive(root), flippedExists);
    assert.deepEqual(await fsp.readdir(root), ['Readme.md'], 'the probe creates nothing');
  });

  it('falls back to the root name when the root has no entries', async () => {
    const root = path.join(dir, 'EmptyRoot');
    await fsp.mkdir(root);
    const flippedExists = await fsp.stat(path.join(dir, 'eMPTYrOOT')).then(
      () => true,
      () => false,
    );
    assert.equal(await detectCaseInsensitive(root), flippedExists);
  });
});
