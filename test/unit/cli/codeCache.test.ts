import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { runNode } from '../../support/childProcesses';

describe('requireWithCodeCache (how dist/hook.js loads the headless governor)', function () {
  this.timeout(60_000);
  let dir: string;
  let cacheDir: string;
  let bundle: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-code-cache-'));
    cacheDir = join(dir, 'home', 'code-cache');
    bundle = join(dir, 'bundle.js');
    await writeFile(join(dir, 'helper.js'), 'module.exports = (x) => `helper:${x}`;\n');
    await writeBundle('one');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  // Same length for every word, so only the content (never the size) tells versions apart.
  const writeBundle = (word: string) =>
    writeFile(bundle, `#!/usr/bin/env node\nconst helper = require('./helper');\nexports.answer = () => helper('${word}') + ':' + require('node:path').basename(__filename);\n`);
  const cacheFiles = async () => (await readdir(cacheDir).catch(() => [])).filter((name) => name.endsWith('.v8'));
  /** Loads the bundle in a fresh process (as each hook call does), runs it and saves the cache. */
  async function load(cache = cacheDir): Promise<{ answer: string; cacheHit: boolean }> {
    const run = await runNode(bundledScript(join(__dirname, '..', '..', 'support', 'codeCacheChild.ts')), [bundle, cache]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as { answer: string; cacheHit: boolean };
  }

  it('runs the bundle (shebang, relative require, __filename), writes a private cache, and the next process uses it', async () => {
    assert.deepEqual(await load(), { answer: 'helper:one:bundle.js', cacheHit: false });
    const files = await cacheFiles();
    assert.equal(files.length, 1);
    assert.equal((await stat(cacheDir)).mode & 0o777, 0o700);
    assert.equal((await stat(join(cacheDir, files[0]))).mode & 0o777, 0o600);
    assert.deepEqual(await load(), { answer: 'helper:one:bundle.js', cacheHit: true });
  });

  it('never runs stale code: an edited bundle of the same size misses the cache and replaces it', async () => {
    await load();
    const [before] = await cacheFiles();
    await writeBundle('two');
    assert.deepEqual(await load(), { answer: 'helper:two:bundle.js', cacheHit: false });
    const after = await cacheFiles();
    assert.equal(after.length, 1, 'the old build’s cache is swept');
    assert.notEqual(after[0], before);
    assert.deepEqual(await load(), { answer: 'helper:two:bundle.js', cacheHit: true });
  });

  it('compiles as usual over a corrupt cache file, then writes a good one', async () => {
    await load();
    const [name] = await cacheFiles();
    await writeFile(join(cacheDir, name), 'not V8 code cache data');
    assert.deepEqual(await load(), { answer: 'helper:one:bundle.js', cacheHit: false });
    assert.deepEqual(await load(), { answer: 'helper:one:bundle.js', cacheHit: true });
  });

  it('works without a writable cache directory (it only costs the compile)', async () => {
    const blocked = join(dir, 'a-file');
    await writeFile(blocked, 'not a directory');
    assert.deepEqual(await load(join(blocked, 'code-cache')), { answer: 'helper:one:bundle.js', cacheHit: false });
    assert.deepEqual(await load(join(blocked, 'code-cache')), { answer: 'helper:one:bundle.js', cacheHit: false });
  });
});
