import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../vscode/codeServer';
import { provision, readProvisioned, repoRoot } from '../vscode/provisioned';
import { describeProcess, descendants, running } from '../support/processTree';
import { waitFor } from './e2eSupport';

/**
 * `npm start` stopped the ways people and tools stop it: SIGTERM or SIGINT to the npm process alone (a process
 * manager, an IDE's stop button, `kill -INT <npm pid>`), and Ctrl-C in its terminal (SIGINT to the whole job).
 * Each time a window was open, so the extension host had announced its server (the discovery file with the
 * token) and held the folder's lease: nothing may survive, neither processes nor those files.
 */
describe('e2e: npm start stops everything it started, however it is stopped', function () {
  let browser: Browser;

  before(async function () {
    this.timeout(600_000);
    provision();
    browser = await chromium.launch({ executablePath: readProvisioned().paths.chromium, args: CHROMIUM_ARGS, headless: true });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
  });

  const cases: { how: string; signal: NodeJS.Signals; group: boolean }[] = [
    { how: 'SIGTERM to the npm pid', signal: 'SIGTERM', group: false },
    { how: 'SIGINT to the npm pid', signal: 'SIGINT', group: false },
    { how: 'Ctrl-C (SIGINT to the job)', signal: 'SIGINT', group: true },
  ];

  for (const { how, signal, group } of cases) {
    it(`${how}: no process of npm start survives, and no discovery file or lease is left`, async function () {
      this.timeout(600_000);
      const temp = mkdtempSync(join(tmpdir(), 'ig-start-stop-'));
      const home = join(temp, 'governor-home');
      const servers = join(home, 'servers');
      let start: ChildProcess | undefined;
      let output = '';
      try {
        // As in a terminal: `npm start` is a job of its own (its own process group).
        start = spawn('npm', ['start'], {
          cwd: repoRoot,
          detached: true,
          env: { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_DEMO_DIR: join(temp, 'demo'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        start.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        start.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        const exited = new Promise<void>((resolve) => start!.once('exit', () => resolve()));
        const url = (await waitFor('the workbench URL', () => /open:\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(output) ?? undefined, 540_000, 200))[1];
        const page = await browser.newPage();
        try {
          await page.goto(url, { timeout: 120_000 });
          await waitFor('the MCP URL', () => /MCP server: /.exec(output) ?? undefined, 180_000, 200);
          const files = readdirSync(servers);
          assert.ok(files.some((name) => name.endsWith('.json')), `a discovery file: ${files.join(', ')}`);
          assert.ok(files.some((name) => name.endsWith('.lock')), `the folder's lease: ${files.join(', ')}`);

          const started = descendants(start.pid!);
          assert.ok(started.some((pid) => /code-server/.test(describeProcess(pid))), started.map(describeProcess).join('\n'));
          process.kill(group ? -start.pid! : start.pid!, signal);
          await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`npm start still running 60 s after ${how}:\n${output.slice(-2000)}`)), 60_000))]);
          await waitFor('every process to end', () => (started.every((pid) => !running(pid)) ? true : undefined), 20_000, 250).catch(() => undefined);
          assert.deepEqual(started.filter(running).map(describeProcess), [], 'still running');
          assert.match(output, /stopped; no discovery file is left for this workspace, nor its lease\./);
          assert.deepEqual(readdirSync(servers).filter((name) => !name.startsWith('.')), []);
          start = undefined;
        } finally {
          await page.close().catch(() => undefined);
        }
      } finally {
        if (start?.pid !== undefined && running(start.pid)) {
          try {
            process.kill(-start.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        rmSync(temp, { recursive: true, force: true });
        assert.ok(!existsSync(temp));
      }
    });
  }
});
