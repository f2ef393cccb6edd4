import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { finished } from '../../support/childProcesses';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';

describe('governor resident whose event loop gets stuck', () => {
  let workspace: HeadlessHookWorkspace;
  beforeEach(async () => (workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  it('is ended by its watchdog thread, saying why in its log, instead of holding every agent forever', async () => {
    // Preloaded: two seconds in (serving by then), the main thread never yields again, as a stuck judgment would.
    const stall = join(workspace.home, 'stall.js');
    await writeFile(stall, "if (require('node:worker_threads').isMainThread) setTimeout(() => { for (;;) {} }, 2000);\n");
    const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
    const env = { ...process.env, ...workspace.env, INTENT_GOVERNOR_RESIDENT_STALL_MS: '1500', NODE_OPTIONS: `--require ${stall}` };
    const started = Date.now();
    const child = spawn(process.execPath, [cli, 'resident', '--workspace', workspace.h.root], { cwd: workspace.h.root, env, stdio: 'ignore' });
    let gaveUp = false;
    const timer = setTimeout(() => {
      gaveUp = true;
      child.kill('SIGKILL');
    }, 15_000);
    const run = await finished(child).finally(() => clearTimeout(timer));
    assert.equal(gaveUp, false, 'the stuck resident was still running after 15 s');
    assert.equal(run.signal, 'SIGKILL');
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    const log = await readFile(join(workspace.home, 'run', 'resident.log'), 'utf8');
    assert.match(log, /serving /);
    assert.match(log, /error .*stopping: the event loop stood still for 1500 ms/);
  });
});
