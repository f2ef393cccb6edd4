import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDiscoveryFiles } from '../src/core/mcp/discoveryFile';
import { traceFilePath } from '../src/core/trace/traceFiles';
import { SYNTHETIC_INTENTS, writeSyntheticTrace } from '../test/support/syntheticTrace';
import { installExtension, openWorkbench, startCodeServer } from '../test/vscode/codeServer';
import { repoRoot } from '../test/vscode/provisioned';
import { runPaletteCommand, webviewFrame } from '../test/vscode/workbenchActions';
import { percentile, type BenchSuite, type BenchTable } from './table';

const RECORDS = 100_000;
const FILTERS = 12;
const FIRST_ROWS_TARGET_MS = 1_500;
const FILTER_TARGET_MS = 200;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('inspector bench: timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The trace inspector on a generated 100k-record trace in the real webview (code-server + Chromium): wall
 * time from the command to the first rendered rows (cold: the host streams and indexes the whole trace;
 * warm: the panel reopened on the index it already has), and from picking an intent in the filter to the
 * filtered rows on screen, each against its target.
 */
export const inspectorBench: BenchSuite = {
  name: 'inspector',
  async run(): Promise<BenchTable[]> {
    if (!existsSync(join(repoRoot, '.vscode-test', 'ready.json'))) {
      process.stdout.write('\ninspector bench skipped: VS Code is not provisioned (.vscode-test/ready.json missing; run `npm run provision`)\n');
      return [];
    }
    const temp = mkdtempSync(join(tmpdir(), 'ig-inspector-bench-'));
    const workspace = join(temp, 'workspace');
    cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
    await writeSyntheticTrace(traceFilePath(workspace), RECORDS);
    const extensionsDir = join(temp, 'extensions');
    installExtension(extensionsDir, repoRoot);
    const home = join(temp, 'home');
    const server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir: join(temp, 'user-data'),
      env: { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
      settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
    });
    const workbench = await openWorkbench(server.url, workspace);
    try {
      const page = workbench.page;
      await until(async () => (await readDiscoveryFiles(join(home, 'servers')))[0], 120_000);
      const frame = webviewFrame(page);
      const rows = frame.locator('.row');

      // Timed from the click that runs the command (typing into the palette is the human's time, not ours).
      const open = async () => {
        await runPaletteCommand(page, 'Intent Governor: Open Trace Inspector');
        const started = Date.now();
        await rows.first().waitFor({ state: 'visible', timeout: 60_000 });
        const total = Date.now() - started;
        const origin = Number(await frame.locator('#app').getAttribute('data-time-origin'));
        return { total, beforeDocument: origin - started };
      };
      const cold = await open();
      const coldInWebview = Number(await frame.locator('#app').getAttribute('data-first-rows-ms'));
      await page.keyboard.press('Control+W');
      await rows.first().waitFor({ state: 'detached', timeout: 10_000 });
      const warm = await open();
      const warmInWebview = Number(await frame.locator('#app').getAttribute('data-first-rows-ms'));
      // Steady state: the panel verifies both chains once on open (about 1 s for 100k records); filter after that.
      await frame.locator('.chain .badge', { hasText: 'verified' }).first().waitFor({ timeout: 60_000 });

      const select = frame.locator('select[name="intent"]');
      const count = frame.locator('.count');
      const filterMs: number[] = [];
      const webviewMs: number[] = [];
      for (let i = 0; i < FILTERS; i += 1) {
        const intent = i % 2 === 0 ? SYNTHETIC_INTENTS[(i / 2) % 4] : '';
        const expected = intent ? `${(RECORDS / 4).toLocaleString('en')} records` : `${RECORDS.toLocaleString('en')} records`;
        const started = Date.now();
        await select.selectOption(intent);
        await until(async () => ((await count.innerText()) === expected && (intent === '' || (await rows.first().getAttribute('data-intent')) === intent) ? true : undefined), 10_000);
        filterMs.push(Date.now() - started);
        webviewMs.push(Number(await frame.locator('#app').getAttribute('data-filter-ms')));
      }
      const row = (name: string, ms: number, target: number) => [name, ms, target, ms / target];
      return [
        {
          title: `Trace inspector on a ${RECORDS.toLocaleString('en')}-record trace in the real webview (code-server + Chromium)`,
          columns: ['measure', 'ms', 'target ms', 'vs target'],
          rows: [
            row('first rows, first open in the session (command → rows on screen)', cold.total, FIRST_ROWS_TARGET_MS),
            row('  of which the workbench starting its first webview (command → our document)', cold.beforeDocument, FIRST_ROWS_TARGET_MS),
            row('  of which ours (our document → rows drawn)', coldInWebview, FIRST_ROWS_TARGET_MS),
            row('first rows, reopened (command → rows on screen)', warm.total, FIRST_ROWS_TARGET_MS),
            row('  of which inside the webview', warmInWebview, FIRST_ROWS_TARGET_MS),
            row(`apply a filter, p50 of ${FILTERS} (click → rows on screen)`, percentile(filterMs, 50), FILTER_TARGET_MS),
            row(`apply a filter, p99 of ${FILTERS}`, percentile(filterMs, 99), FILTER_TARGET_MS),
            row('apply a filter, p50 inside the webview (change → rows drawn)', percentile(webviewMs, 50), FILTER_TARGET_MS),
          ],
          notes: [
            'Timed from the palette click that runs the command. The first webview of a workbench session pays for the workbench starting its webview host; "ours" includes streaming and indexing the 100k records (about 1 s) and drawing the first page.',
            'Filter wall times include Playwright polling (5 ms); "inside the webview" is performance.now() from the filter change to the new page drawn.',
          ],
        },
      ];
    } finally {
      await workbench.close();
      await server.stop();
      rmSync(temp, { recursive: true, force: true });
    }
  },
};
