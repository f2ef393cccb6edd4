import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { finishedOrGaveUp, type Finished } from '../../support/childProcesses';
import { createHarness, type Harness } from '../../support/governorHarness';

/** `governor …` as a real process, killed if it outlives `limitMs` (then `gaveUp`). */
async function governor(args: string[], stdin: string, limitMs = 10_000): Promise<Finished & { gaveUp: boolean }> {
  const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
  return finishedOrGaveUp(spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }), stdin, limitMs);
}

describe('CLI readers of workspace files take regular files only (a FIFO never holds them)', () => {
  let h: Harness;
  beforeEach(async () => (h = await createHarness({ files: { 'src/auth/login.ts': 'export {};\n' } })));
  afterEach(() => h.dispose());

  it('governor blame on a FIFO exits 2 at once, saying what it is', async () => {
    execFileSync('mkfifo', [join(h.root, 'src', 'auth', 'pipe.ts')]);
    const run = await governor(['blame', 'src/auth/pipe.ts', '--workspace', h.root], '');
    assert.equal(run.gaveUp, false, 'governor blame hung on the FIFO');
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /cannot read .*pipe\.ts' \(it is a FIFO \(named pipe\), not a regular file: refused; EFTYPE\)/);
  });

  it('governor blame exits 2 at once when the trace is a FIFO', async () => {
    const trace = join(h.root, '.orchestration', 'agent_trace.jsonl');
    await rm(trace, { force: true });
    await mkdir(join(h.root, '.orchestration'), { recursive: true });
    execFileSync('mkfifo', [trace]);
    const run = await governor(['blame', 'src/auth/login.ts', '--workspace', h.root], '');
    assert.equal(run.gaveUp, false, 'governor blame hung on the trace');
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /cannot read the trace .*agent_trace\.jsonl is a FIFO/);
  });

  it('governor decide answers at once when .vscode/settings.json is a FIFO (the default approval mode decides)', async () => {
    await mkdir(join(h.root, '.vscode'), { recursive: true });
    await rm(join(h.root, '.vscode', 'settings.json'), { force: true });
    execFileSync('mkfifo', [join(h.root, '.vscode', 'settings.json')]);
    const call = { tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x' }, session_id: 's', intent_id: 'auth-refactor' };
    const run = await governor(['decide', '--workspace', h.root], JSON.stringify(call));
    assert.equal(run.gaveUp, false, 'governor decide hung on the settings file');
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { decision: string }).decision, 'ask');
  });
});
