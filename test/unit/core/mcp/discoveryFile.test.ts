import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServersDir, discoveryFilePath, folderKey, readDiscoveryFiles, removeDiscoveryFile, removeOwnDiscoveryFile, writeDiscoveryFile, type DiscoveryEntry } from '../../../../src/core/mcp/discoveryFile';
import { pidAlive } from '../../../../src/core/io/processIdentity';

const posix = process.platform !== 'win32';

/** A pid that certainly belongs to no process: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid as number;
}

function entry(port: number, pid = process.pid): DiscoveryEntry {
  return { port, token: 'tok-'.padEnd(43, 'x'), pid, workspaceFolders: [`/work/project-${port}`], url: `http://127.0.0.1:${port}/mcp` };
}

describe('discovery file', () => {
  let home: string;
  let dir: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    dir = join(home, 'servers');
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('writes one file named for the folder with the entry, readable by its owner only, in a 0700 directory', async function () {
    const path = await writeDiscoveryFile(entry(41234), dir);
    assert.equal(path, join(dir, `${folderKey('/work/project-41234')}.json`));
    assert.match(path, /project-41234-[0-9a-f]{16}\.json$/);
    const content = JSON.parse(await readFile(path, 'utf8'));
    assert.deepEqual(content, { version: 1, ...entry(41234) });
    if (!posix) return this.skip();
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
  });

  it('tightens a servers directory that already existed with a wider mode', async function () {
    if (!posix) return this.skip();
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o755);
    await writeDiscoveryFile(entry(41235), dir);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
  });

  it('keeps the token file 0600 even under a permissive umask, and leaves no temp file behind', async function () {
    if (!posix) return this.skip();
    const previous = process.umask(0);
    try {
      const path = await writeDiscoveryFile(entry(41236), dir);
      assert.equal((await stat(path)).mode & 0o777, 0o600);
    } finally {
      process.umask(previous);
    }
    assert.deepEqual(await readdir(dir), [`${folderKey('/work/project-41236')}.json`]);
  });

  it('replaces the entry for a folder that is written again, whatever the port: one file per folder', async () => {
    await writeDiscoveryFile(entry(41237), dir);
    await writeDiscoveryFile({ ...entry(41237), port: 41299, token: 'second-token-value-xxxxxxxx' }, dir);
    const servers = await readDiscoveryFiles(dir);
    assert.deepEqual(servers.map((s) => [s.port, s.token]), [[41299, 'second-token-value-xxxxxxxx']]);
  });

  it('still reads the <port>.json files of older versions', async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, '41250.json'), JSON.stringify({ version: 1, ...entry(41250) }), { mode: 0o600 });
    assert.deepEqual((await readDiscoveryFiles(dir)).map((s) => s.port), [41250]);
  });

  it('removes a file, and removing it twice is fine', async () => {
    const path = await writeDiscoveryFile(entry(41238), dir);
    removeDiscoveryFile(path);
    removeDiscoveryFile(path);
    assert.deepEqual(await readdir(dir), []);
  });

  it("a closing window removes the folder's file only while it is still its own, not its successor's", async () => {
    const path = await writeDiscoveryFile(entry(41260, process.ppid), dir);
    removeOwnDiscoveryFile(path);
    assert.deepEqual((await readDiscoveryFiles(dir)).map((s) => s.pid), [process.ppid]);
    await writeDiscoveryFile(entry(41260), dir);
    removeOwnDiscoveryFile(path);
    assert.deepEqual(await readdir(dir), []);
  });

  it('reads live servers and deletes the entries of dead processes', async () => {
    await writeDiscoveryFile(entry(41239), dir);
    const stale = await writeDiscoveryFile(entry(41240, deadPid()), dir);
    const live = await readDiscoveryFiles(dir);
    assert.deepEqual(live, [{ ...entry(41239), file: discoveryFilePath(entry(41239), dir) }]);
    await assert.rejects(stat(stale), /ENOENT/);
  });

  it('skips malformed and foreign files without deleting them', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, '1.json'), '{ not json');
    await writeFile(join(dir, '2.json'), JSON.stringify({ port: 2 }));
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await writeDiscoveryFile(entry(41241), dir);
    assert.deepEqual((await readDiscoveryFiles(dir)).map((s) => s.port), [41241]);
    assert.deepEqual((await readdir(dir)).sort(), ['1.json', '2.json', `${folderKey('/work/project-41241')}.json`, 'notes.txt'].sort());
  });

  it('skips a FIFO, a device link and a huge file among the entries at once, reading none of them', async function () {
    if (!posix) return this.skip();
    await mkdir(dir, { recursive: true });
    spawnSync('mkfifo', [join(dir, '3.json')]);
    await symlink('/dev/zero', join(dir, '4.json'));
    await writeFile(join(dir, '5.json'), ' '.repeat(100 * 1024));
    await writeDiscoveryFile(entry(41242), dir);
    assert.deepEqual((await readDiscoveryFiles(dir)).map((s) => s.port), [41242]);
  });

  it('reads nothing from a directory that does not exist', async () => {
    assert.deepEqual(await readDiscoveryFiles(join(home, 'missing')), []);
  });

  it('lives under INTENT_GOVERNOR_HOME when set, else ~/.intent-governor', () => {
    assert.equal(defaultServersDir({ INTENT_GOVERNOR_HOME: home }), join(home, 'servers'));
    assert.equal(defaultServersDir({}), join(homedir(), '.intent-governor', 'servers'));
    assert.equal(discoveryFilePath({ port: 5000, workspaceFolders: [] }, dir), join(dir, '5000.json'));
  });

  it('tells a running process from one that is gone', () => {
    assert.equal(pidAlive(process.pid), true);
    assert.equal(pidAlive(deadPid()), false);
  });
});
