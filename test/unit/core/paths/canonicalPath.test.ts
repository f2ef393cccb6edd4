import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { opendirSync, promises as fsp, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalizePath, detectCaseInsensitive, type PathPurpose } from '../../../../src/core/paths/canonicalPath';
import { protectedPatternFor } from '../../../../src/core/paths/protectedPaths';
import type { ErrorCode } from '../../../../src/core/toolError';

type Expect = { ok: true; rel: string; exists: boolean } | { code: ErrorCode; reason?: string; message?: RegExp; meta?: Record<string, unknown> };

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
    await fsp.symlink('a.ts/x', path.join(src, 'through-file'));
    await fsp.symlink('fresh', path.join(src, 'fresh-link'));
    // Forty links end to end (the most the kernel follows in one lookup), the last one dangling; and one more.
    await fsp.mkdir(path.join(src, 'chain'));
    await fsp.mkdir(path.join(src, 'chain41'));
    for (let i = 0; i < 40; i++) await fsp.symlink(`c${i + 1}`, path.join(src, 'chain', `c${i}`));
    for (let i = 0; i < 41; i++) await fsp.symlink(`c${i + 1}`, path.join(src, 'chain41', `c${i}`));
    execFileSync('mkfifo', [path.join(src, 'pipe')]);
  });

  after(async () => {
    await fsp.rm(base, { recursive: true, force: true });
  });

  const cases: Case[] = [
    // Climbing out, lexically.
    { name: 'refuses ../x', input: '../x', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /resolves outside the workspace; use a path inside the workspace root \("\.\." may not climb above it\)/ } },
    { name: 'refuses a/../../x', input: 'a/../../x', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses /etc/passwd', input: '/etc/passwd', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses a sibling folder whose name starts with the root name', input: () => `${root}-evil/x.ts`, purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses ~/x', input: '~/x', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /starts with "~" \(a home directory\), which is outside the workspace/ } },
    { name: 'refuses ~root/x', input: '~root/x', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'accepts an absolute path inside the root and makes it relative', input: () => path.join(root, 'src', 'a.ts'), purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'normalises src/../src/a.ts', input: 'src/../src/a.ts', purpose: 'write', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'drops a leading ./', input: './src/a.ts', purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'accepts a new file in new folders', input: 'src/new/deep/file.ts', purpose: 'write', expect: { ok: true, rel: 'src/new/deep/file.ts', exists: false } },
    // Escaping through symlinks.
    { name: 'refuses reading through a symlinked folder that points outside', input: 'src/out/secret.txt', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /leads outside the workspace through a symbolic link/ } },
    { name: 'refuses writing through a symlinked folder that points outside', input: 'src/out/secret.txt', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses creating a file through a symlinked folder that points outside', input: 'src/out/new.ts', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /leads outside the workspace through a symbolic link/ } },
    { name: 'refuses reading a symlink to a file outside', input: 'src/outfile', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /leads outside the workspace through a symbolic link/ } },
    { name: 'refuses writing a symlink to a file outside', input: 'src/outfile', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses reading a dangling symlink that points outside', input: 'src/dangling-out', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing a dangling symlink that points outside', input: 'src/dangling-out', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses creating a file under a dangling folder link that points outside', input: 'src/dangling-dir/new.ts', purpose: 'write', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses writing through a symlink whose target is inside', input: 'src/link-in', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'symlink' } },
    { name: 'refuses writing a dangling symlink whose target is inside', input: 'src/dangling-in', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'symlink' } },
    { name: 'reads through a symlink whose target is inside, naming the target', input: 'src/link-in', purpose: 'read', expect: { ok: true, rel: 'src/a.ts', exists: true } },
    { name: 'reads a dangling inside symlink as its missing target', input: 'src/dangling-in', purpose: 'read', expect: { ok: true, rel: 'src/missing.ts', exists: false } },
    { name: 'writes inside a symlinked folder at its real location', input: 'src/authlink/login.ts', purpose: 'write', expect: { ok: true, rel: 'src/auth/login.ts', exists: true } },
    { name: 'refuses a symlink loop', input: 'src/loop1', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /goes through a symbolic link loop; use the real path of the file/, meta: { errno: 'ELOOP' } } },
    { name: 'refuses a symlink to the workspace root', input: 'src/link-root', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /resolves to the workspace root itself; name a file inside it/ } },
    // Hard links.
    { name: 'refuses writing a file hard-linked to .git/config', input: 'src/innocent', purpose: 'write', expect: { code: 'PROTECTED_PATH', reason: 'hardlink' } },
    { name: 'allows reading a hard-linked file', input: 'src/innocent', purpose: 'read', expect: { ok: true, rel: 'src/innocent', exists: true } },
    // Characters and names that mean different things on different systems.
    { name: 'refuses NUL', input: 'src/a.ts\u0000.png', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /contains a control or bidirectional-formatting character/ } },
    { name: 'refuses \\u0001', input: 'src/\u0001a.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a right-to-left override', input: 'src/\u202egpj.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses CON', input: 'CON', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /uses "CON", a reserved Windows device name; rename the file \(for example "CON_"\)/, meta: { segment: 'CON' } } },
    { name: 'refuses src/aux.ts', input: 'src/aux.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses lpt1.txt', input: 'lpt1.txt', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a device name as a folder', input: 'src/Nul/x.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'allows names that only start like a device', input: 'src/console.ts', purpose: 'write', expect: { ok: true, rel: 'src/console.ts', exists: false } },
    { name: 'refuses an alternate data stream', input: 'file.txt:stream', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /has a ":" in "file\.txt:stream" \(an alternate data stream or drive letter\)/, meta: { segment: 'file.txt:stream' } } },
    { name: 'refuses a bare drive prefix', input: 'C:', purpose: 'read', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a trailing dot', input: 'trailing.', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /has a name ending in a dot or space \("trailing\."\), which Windows silently trims/, meta: { segment: 'trailing.' } } },
    { name: 'refuses a trailing space', input: 'trailing ', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses a folder name with a trailing dot', input: 'src./a.ts', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses backslashes', input: 'src\\a.ts', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /contains a backslash; separate folders with "\/"/ } },
    { name: 'refuses a backslash climb', input: '..\\x', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses an empty path', input: '', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /is empty; pass a workspace-relative path/ } },
    // Directories and the root.
    { name: 'refuses the root as .', input: '.', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /is the workspace root itself; name a file inside it/ } },
    { name: 'refuses the root given absolutely', input: () => root, purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'refuses writing a directory', input: 'src/auth', purpose: 'write', expect: { code: 'INVALID_INPUT', reason: 'directory', message: /is a directory; a write needs a file path inside it/ } },
    { name: 'allows reading a directory', input: 'src/auth', purpose: 'read', expect: { ok: true, rel: 'src/auth', exists: true } },
    { name: 'refuses writing a path that ends in a slash', input: 'newdir/', purpose: 'write', expect: { code: 'INVALID_INPUT', reason: 'directory', message: /is a directory; a write needs a file path inside it/ } },
    { name: 'refuses a file used as a folder', input: 'src/a.ts/x', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /goes through a file as if it were a folder; check the path/ } },
    // Unicode and case.
    { name: 'resolves an NFD name to the NFC file', input: 'caf\u0065\u0301.ts', purpose: 'read', expect: { ok: true, rel: 'caf\u00e9.ts', exists: true } },
    { name: 'resolves the NFC twin to the same file', input: 'caf\u00e9.ts', purpose: 'read', expect: { ok: true, rel: 'caf\u00e9.ts', exists: true } },
    { name: 'treats an absolute path in other case as outside when case matters', input: () => path.join(root.toUpperCase(), 'src', 'a.ts'), purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'accepts an absolute path in other case when case does not matter', input: () => path.join(root.toUpperCase(), 'src', 'a.ts'), purpose: 'read', caseInsensitive: true, expect: { ok: true, rel: 'src/a.ts', exists: true } },
    // More refusals, each with what the agent reads.
    { name: 'refuses .. (the folder above the root)', input: '..', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses a file used as a folder two levels down', input: 'src/a.ts/x/y', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /goes through a file as if it were a folder/ } },
    { name: 'refuses a symlink whose target goes through a file', input: 'src/through-file', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /goes through a file as if it were a folder/ } },
    { name: 'refuses a path below a symlink loop with the loop named', input: 'src/loop1/x.ts', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /symbolic link loop/, meta: { errno: 'ELOOP' } } },
    { name: 'refuses writing a path that ends in /.', input: 'newdir/.', purpose: 'write', expect: { code: 'INVALID_INPUT', reason: 'directory' } },
    { name: 'refuses reading a named pipe', input: 'src/pipe', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /is not a regular file or directory \(a device, socket or pipe\); only files and directories can be read/ } },
    { name: 'refuses writing a named pipe', input: 'src/pipe', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /is not a regular file \(a device, socket or pipe\); only regular files can be written/ } },
    { name: 'refuses COM1', input: 'com1.txt', purpose: 'write', expect: { code: 'INVALID_INPUT', meta: { segment: 'com1.txt' } } },
    { name: 'refuses COM¹ (Windows reads the superscript as 1)', input: 'src/COM\u00b9', purpose: 'write', expect: { code: 'INVALID_INPUT' } },
    { name: 'allows a name that only ends like a device', input: 'src/falcon.ts', purpose: 'write', expect: { ok: true, rel: 'src/falcon.ts', exists: false } },
    { name: 'judges a drive letter inside the path as a ":" in a name, not another drive', input: 'src/C:/x', purpose: 'write', expect: { code: 'INVALID_INPUT', message: /has a ":" in "C:"/ } },
    { name: 'refuses a device name below the root in an absolute path', input: () => path.join(root, 'src', 'aux.ts'), purpose: 'write', expect: { code: 'INVALID_INPUT', meta: { segment: 'aux.ts' } } },
    { name: 'creates below a dangling folder link inside at its target', input: 'src/fresh-link/f.ts', purpose: 'write', expect: { ok: true, rel: 'src/fresh/f.ts', exists: false } },
    { name: 'follows a chain of 40 dangling links (the kernel limit)', input: 'src/chain/c0', purpose: 'read', expect: { ok: true, rel: 'src/chain/c40', exists: false } },
    { name: 'refuses a chain of 41 links as a loop', input: 'src/chain41/c0', purpose: 'read', expect: { code: 'INVALID_INPUT', message: /symbolic link loop/ } },
    { name: 'accepts a path of exactly 4096 characters', input: `${'./'.repeat(2047)}ab`, purpose: 'write', expect: { ok: true, rel: 'ab', exists: false } },
    { name: 'shows a path of 200 characters whole in the message', input: `~${'a'.repeat(199)}`, purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE' } },
    { name: 'refuses a path of 4097 characters', input: `${'./'.repeat(2047)}abc`, purpose: 'write', expect: { code: 'INVALID_INPUT', message: /is longer than 4096 characters; use a shorter workspace-relative path/ } },
  ];
  if (process.platform !== 'win32') {
    cases.push({ name: 'treats a drive-letter path as outside on POSIX', input: 'C:/Windows/win.ini', purpose: 'read', expect: { code: 'PATH_OUTSIDE_WORKSPACE', message: /is a drive-letter path, which is outside the workspace/ } });
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
        const shown = input.length > 200 ? `${input.slice(0, 200)}…` : input;
        assert.ok(result.error.message.startsWith(`The path ${JSON.stringify(shown)} `), `message names the path: ${result.error.message}`);
        if (c.expect.reason) assert.equal(result.error.meta?.['reason'], c.expect.reason);
        if (c.expect.message) assert.match(result.error.message, c.expect.message);
        for (const [key, value] of Object.entries(c.expect.meta ?? {})) assert.equal(result.error.meta?.[key], value, key);
      }
    });
  }

  it('refuses input that is not a string, saying what it was', async () => {
    for (const [given, what, shown] of [
      [42, 'number', '42'],
      [null, 'null', 'null'],
      [undefined, 'undefined', null],
      [{ path: 'src/a.ts' }, 'object', '[object Object]'],
    ] as const) {
      const result = await canonicalizePath(root, given as unknown as string, 'read', { caseInsensitive: false });
      assert.ok(!result.ok, String(given));
      assert.equal(result.error.code, 'INVALID_INPUT');
      assert.equal(result.error.message, `The path must be a string, not ${what}; pass a workspace-relative path such as "src/index.ts".`);
      assert.deepEqual(result.error.meta, { path: shown });
    }
  });

  it("never judges the root's own folder names, only what is below the root", async () => {
    const odd = path.join(base, 'con', 'a:b', 'ws.');
    await fsp.mkdir(odd, { recursive: true });
    await fsp.writeFile(path.join(odd, 'x.ts'), '');
    const result = await canonicalizePath(odd, path.join(odd, 'x.ts'), 'write', { caseInsensitive: false });
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    assert.equal(result.value.rel, 'x.ts');
    assert.equal(result.value.abs, path.join(odd, 'x.ts'));
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

  // A name and its flipped-case spelling that reach one entry (a hard link, or a folder reachable under both
  // spellings through a link) is what a case-insensitive filesystem looks like to the probe.
  it("answers true when an entry's flipped-case name is the same file", async () => {
    const root = path.join(dir, 'twins');
    await fsp.mkdir(root);
    await fsp.writeFile(path.join(root, 'Readme.md'), '');
    await fsp.link(path.join(root, 'Readme.md'), path.join(root, 'rEADME.MD'));
    assert.equal(await detectCaseInsensitive(root), true);
  });

  it("answers false when the flipped-case name is another file, even if the root's own name would say otherwise", async () => {
    const root = path.join(dir, 'Xy', 'distinct');
    await fsp.mkdir(root, { recursive: true });
    await fsp.symlink('Xy', path.join(dir, 'xY'));
    await fsp.writeFile(path.join(root, 'Readme.md'), '');
    await fsp.writeFile(path.join(root, 'rEADME.MD'), '');
    assert.equal(await detectCaseInsensitive(root), false);
  });

  it('trusts an entry of the root over its own name: no twin of the entry means case matters', async () => {
    const root = path.join(dir, 'Xy', 'single');
    await fsp.mkdir(root, { recursive: true });
    await fsp.writeFile(path.join(root, 'Readme.md'), '');
    assert.equal(await detectCaseInsensitive(root), false);
  });

  it('skips names without letters and flips the nearest folder name that has some', async () => {
    const other = path.join(dir, 'Pq', '123');
    await fsp.mkdir(other, { recursive: true });
    await fsp.writeFile(path.join(other, '42'), '');
    assert.equal(await detectCaseInsensitive(other), false, 'no "pQ" beside "Pq"');
    const root = path.join(dir, 'Xy', '456');
    await fsp.mkdir(root, { recursive: true });
    await fsp.writeFile(path.join(root, '42'), '');
    assert.equal(await detectCaseInsensitive(root), true, '"xY/456" is the same folder as "Xy/456"');
  });

  it("uses the root's name when its entry's flipped name cannot even be looked up", async () => {
    const root = path.join(dir, 'Xy', '789');
    await fsp.mkdir(root, { recursive: true });
    // 'ŉ' upper-cases to two characters, so the flipped name is longer than a name may be.
    const name = `\u0149${'1'.repeat(253)}`;
    assert.equal(Buffer.byteLength(name), 255);
    await fsp.writeFile(path.join(root, name), '');
    assert.equal(await detectCaseInsensitive(root), true);
  });

  it('reads at most 64 entries of the root before judging by its name', async () => {
    // The root's own name has no twin, so past the 64th entry the answer is false. Entries come in the
    // filesystem's order: place a hard-linked pair of names first seen as the 65th entry, and check the order.
    const root = path.join(dir, 'bound');
    await fsp.mkdir(root);
    for (let i = 0; i < 200; i++) await fsp.writeFile(path.join(root, String(i)), '');
    // opendir's order, the one the probe reads (readdir's is sorted).
    const order = () => {
      const handle = opendirSync(root);
      const names: string[] = [];
      for (let entry = handle.readSync(); entry; entry = handle.readSync()) names.push(entry.name);
      handle.closeSync();
      return names;
    };
    const firstNamed = () => order().findIndex((name) => /[a-z]/iu.test(name));
    const pairs = ['Ab', 'Cd', 'Ef', 'Gh', 'Jk', 'Mn', 'Pq', 'Rs', 'Tu', 'Vw', 'Xy', 'Za'];
    for (const name of pairs) {
      const twin = name.toLowerCase() === name ? name.toUpperCase() : `${name[0]!.toLowerCase()}${name[1]!.toUpperCase()}`;
      await fsp.writeFile(path.join(root, name), '');
      await fsp.link(path.join(root, name), path.join(root, twin));
      if (firstNamed() >= 64) break;
      await fsp.rm(path.join(root, name));
      await fsp.rm(path.join(root, twin));
    }
    for (const name of order().slice(0, Math.max(0, firstNamed() - 64))) await fsp.rm(path.join(root, name));
    const index = firstNamed();
    assert.equal(await detectCaseInsensitive(root), index !== -1 && index < 64, `first name with letters at ${index}`);
  });

  it('answers false for a root it cannot probe', async () => {
    assert.equal(await detectCaseInsensitive(path.join(dir, 'NoSuchRoot')), false);
  });

  it('leaves no directory open', async () => {
    const open = () => readdirSync('/proc/self/fd').length;
    const roots: string[] = [];
    for (let i = 0; i < 20; i++) {
      const root = path.join(dir, 'fds', String(i));
      await fsp.mkdir(root, { recursive: true });
      await fsp.writeFile(path.join(root, 'Readme.md'), '');
      roots.push(root);
    }
    const before = open();
    for (const root of roots) await detectCaseInsensitive(root);
    assert.equal(open(), before);
  });
});
