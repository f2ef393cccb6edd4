// Runs test/vscode/suite inside a real VS Code 1.139 extension host on this machine: code-server
// (provisioned under .vscode-test/) with the product and the test-harness extension installed, a
// temp copy of demo/workspace opened in headless Chromium, results read back from a file.
// Usage: npm run build && npm run test:vscode        (VSCODE_TEST_GREP=<pattern> runs a subset)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite } from './bundleSuite';
import { installExtension, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { provision, repoRoot } from './provisioned';
import type { SuiteResult } from './suite/index';

const RESULTS_TIMEOUT_MS = Number(process.env.VSCODE_TEST_TIMEOUT_MS ?? 10 * 60_000);
/** The harness normally starts the suite a few seconds after the window opens. */
const START_TIMEOUT_MS = 3 * 60_000;
const failureDir = join(repoRoot, 'test-results', 'vscode');

interface Running {
  server?: CodeServer;
  workbench?: Workbench;
}

async function main(): Promise<number> {
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
    console.error('vscode tests: dist/extension.js is missing: run `npm run build` first');
    return 1;
  }
  const provisioned = provision();
  console.log(`vscode tests: VS Code ${provisioned.vscode} (code-server ${provisioned.codeServer}, node ${provisioned.node})`);
  const temp = mkdtempSync(join(tmpdir(), 'ig-vscode-test-'));
  try {
    return await runIn(temp);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Bundles, installs, starts, waits and reports, all inside the run's own temp dir. */
async function runIn(temp: string): Promise<number> {
  const entry = await bundleSuite(temp);
  const workspace = join(temp, 'workspace');
  const userDataDir = join(temp, 'user-data');
  const extensionsDir = join(temp, 'extensions');
  const resultsPath = join(temp, 'results.json');
  // Tests write into the workspace (intents, traces); a copy keeps demo/workspace clean.
  cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
  installExtension(extensionsDir, repoRoot);
  installExtension(extensionsDir, join(repoRoot, 'test', 'vscode', 'harness'));
  // A scripted chat model: prompt hooks need a language model, and no real one is reachable here.
  installExtension(extensionsDir, join(repoRoot, 'test', 'vscode', 'scripted-model'));

  const running: Running = {};
  const stopAll = async () => {
    await running.workbench?.close();
    await running.server?.stop();
  };
  // The server runs in its own process group, so a Ctrl-C here would not reach it: stop it ourselves.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  }

  let result: SuiteResult | undefined;
  let problem: string | undefined;
  try {
    running.server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir,
      // The suite's tests mean writes to land without a modal; approval tests set every-change themselves.
      settings: { 'intentGovernor.approval': 'destructive-only' },
      env: {
        VSCODE_TEST_ENTRY: entry,
        VSCODE_TEST_RESULTS: resultsPath,
        INTENT_GOVERNOR_TEST_WORKSPACE: workspace,
        // Anchors, hook approvals and discovery files of the extension under test stay in the temp dir, not the user's home.
        INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'),
        INTENT_GOVERNOR_HOME: join(temp, 'governor-home'),
        // Install Agent Hooks registers Claude Code's resident governor in Claude's own config: here, not ~/.claude.json.
        CLAUDE_CONFIG_DIR: join(temp, 'claude-config'),
        // codeServer.ts drops the caller's VSCODE_* vars, so a grep must be passed on explicitly.
        ...(process.env.VSCODE_TEST_GREP ? { VSCODE_TEST_GREP: process.env.VSCODE_TEST_GREP } : {}),
      },
    });
    console.log(`vscode tests: code-server on ${running.server.url} (pid ${running.server.pid})`);
    running.workbench = await openWorkbench(running.server.url, workspace);
    console.log('vscode tests: workbench open, waiting for the suite in the extension host');
    result = await waitForResults(resultsPath, running);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }

  if (result) process.stdout.write(result.output);
  if (problem || !result || result.failures > 0) keepForDiagnosis(running.server, userDataDir, problem);
  await stopAll();

  if (problem || !result) {
    console.error(`vscode tests: no results: ${problem ?? 'unknown'}`);
    console.log('vscode: 0 passed, 1 failed, 0 skipped');
    return 1;
  }
  console.log(`vscode: ${result.passes} passed, ${result.failures} failed, ${result.pending} skipped`);
  return result.failures > 0 || result.passes === 0 ? 1 : 0;
}

/**
 * Polls for the harness's results file. Gives up when the server or the browser goes away, when the
 * harness has not even started the suite after START_TIMEOUT_MS (the extension host failed to come up:
 * no point waiting the full RESULTS_TIMEOUT_MS), or when the suite itself runs past the timeout.
 */
async function waitForResults(resultsPath: string, running: Running): Promise<SuiteResult> {
  const begun = Date.now();
  const startedMarker = `${resultsPath}.started`;
  while (Date.now() - begun < RESULTS_TIMEOUT_MS) {
    if (existsSync(resultsPath)) return JSON.parse(readFileSync(resultsPath, 'utf8')) as SuiteResult;
    if (running.server && !running.server.running()) throw new Error('code-server exited before the suite finished');
    if (running.workbench && !running.workbench.browser.isConnected()) throw new Error('Chromium went away before the suite finished');
    if (!existsSync(startedMarker) && Date.now() - begun > START_TIMEOUT_MS) {
      throw new Error(
        `the harness extension did not start the suite within ${START_TIMEOUT_MS / 1000} s: the extension host ` +
          'did not come up or did not activate it (see logs/*/remoteagent.log and exthost1/ in the kept logs)',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the suite started but wrote no results within ${RESULTS_TIMEOUT_MS / 1000} s`);
}

/** Saves the server log and VS Code's own logs (extension host included) under test-results/vscode/. */
function keepForDiagnosis(server: CodeServer | undefined, userDataDir: string, problem: string | undefined): void {
  rmSync(failureDir, { recursive: true, force: true });
  mkdirSync(failureDir, { recursive: true });
  if (server) writeFileSync(join(failureDir, 'code-server.log'), server.log());
  const logs = join(userDataDir, 'logs');
  if (existsSync(logs)) cpSync(logs, join(failureDir, 'logs'), { recursive: true });
  if (problem && server) console.error(`vscode tests: code-server log (tail):\n${server.log().slice(-4000)}`);
  console.error(`vscode tests: logs kept in ${failureDir}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`vscode tests: ${error instanceof Error ? error.stack : String(error)}`);
    console.log('vscode: 0 passed, 1 failed, 0 skipped');
    process.exit(1);
  },
);
