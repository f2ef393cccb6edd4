import { strict as assert } from 'node:assert';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INTENT_MAP_FILE } from '../../../src/core/intentMap/intentMapMarkdown';
import { mapWorkspace, type MapWorkspace } from '../../support/intentMapWorkspace';
import { runGovernor } from '../../support/runGovernor';

describe('governor intent-map', () => {
  let ws: MapWorkspace;
  const run = (...args: string[]) => runGovernor(['intent-map', '--workspace', ws.root, ...args], { anchorDir: ws.anchorDir });

  beforeEach(async () => {
    ws = await mapWorkspace();
    assert.ok((await ws.as('auth-refactor', 'write_file', { path: 'src/auth/login.ts', content: 'export function login() {}\n' })).ok);
    assert.ok((await ws.as('billing', 'write_file', { path: 'src/billing/pay.ts', content: 'export function pay() {\n  return 1;\n}\n' })).ok);
    assert.ok(!(await ws.as('auth-refactor', 'write_file', { path: 'src/billing/pay.ts', content: 'x' })).ok);
  });
  afterEach(() => ws.dispose());

  it("rebuilds exactly what the post-hook wrote: the process finds nothing to change, and writes the same bytes from scratch", async () => {
    const kept = await ws.map();
    const unchanged = await run();
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.equal(unchanged.stdout, `unchanged: ${INTENT_MAP_FILE} (3 intents, 2 files).\n`);

    await rm(join(ws.root, INTENT_MAP_FILE));
    const rebuilt = await run();
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(rebuilt.stdout, `wrote ${INTENT_MAP_FILE} (3 intents, 2 files).\n`);
    assert.equal(await readFile(join(ws.root, INTENT_MAP_FILE), 'utf8'), kept);
  });

  it('--check passes on a current map and fails, writing nothing, once a human moved lines', async () => {
    await ws.map();
    const current = await run('--check');
    assert.equal(current.code, 0, current.stderr);
    assert.match(current.stdout, /is up to date/);

    await writeFile(join(ws.root, 'src/billing/pay.ts'), '// reviewed\nexport function pay() {\n  return 1;\n}\n');
    const before = await readFile(join(ws.root, INTENT_MAP_FILE), 'utf8');
    const stale = await run('--check');
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /intent_map\.md is out of date\. Run 'governor intent-map' and commit the result\./);
    assert.equal(await readFile(join(ws.root, INTENT_MAP_FILE), 'utf8'), before);

    assert.equal((await run()).code, 0);
    assert.match(await readFile(join(ws.root, INTENT_MAP_FILE), 'utf8'), /\| `src\/billing\/pay\.ts` \| 2-4 \|/);
  });

  it('refuses bad arguments with the usage exit code', async () => {
    const bad = await run('--bogus');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /governor intent-map: .*--bogus.*Run 'governor intent-map --help'/);
  });
});
