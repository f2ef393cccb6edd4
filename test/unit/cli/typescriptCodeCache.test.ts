import { strict as assert } from 'node:assert';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { runNode } from '../../support/childProcesses';

describe('the TypeScript parser in a hook process (through a V8 code cache)', function () {
  this.timeout(60_000);
  let dir: string;
  let home: string;
  let vendor: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-ts-cache-'));
    home = join(dir, 'home');
    vendor = join(dir, 'vendor');
    await mkdir(vendor);
    // The copy esbuild.mjs ships as dist/vendor/typescript.js.
    await copyFile(require.resolve('typescript'), join(vendor, 'typescript.js'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const hookProcess = async (path: string, before: string, after: string) => {
    const run = await runNode(bundledScript(join(__dirname, '..', '..', 'support', 'typescriptCodeCacheChild.ts')), [home, vendor, path, before, after]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as { class: string; rule: string; loaded: string };
  };

  it('is not loaded for a change it does not parse', async () => {
    assert.deepEqual(await hookProcess('notes.md', 'a\n', 'b\n'), { class: 'INTENT_EVOLUTION', rule: 'diff-shape', loaded: 'no' });
    assert.deepEqual(await readdir(join(home, 'code-cache', 'typescript')).catch(() => []), []);
  });

  it('compiles once, and the next process classifies from the cache with the same verdict', async () => {
    const before = 'export function f(a: number) {\n  const sum = a + 1;\n  return sum;\n}\n';
    const after = before.replace(/sum/g, 'total');
    assert.deepEqual(await hookProcess('src/f.ts', before, after), { class: 'AST_REFACTOR', rule: 'syntax-tree', loaded: 'compiled' });
    assert.equal((await readdir(join(home, 'code-cache', 'typescript'))).filter((name) => name.endsWith('.v8')).length, 1);
    assert.deepEqual(await hookProcess('src/f.ts', before, after), { class: 'AST_REFACTOR', rule: 'syntax-tree', loaded: 'cached' });
    assert.deepEqual(await hookProcess('src/f.ts', before, `${before}export const g = 1;\n`), { class: 'INTENT_EVOLUTION', rule: 'syntax-tree', loaded: 'cached' });
  });
});
