// `npm start`: build, provision the same VS Code the tests use (code-server 1.139 + Node 24), and serve the
// demo workspace with Intent Governor installed. Opens no browser window of its own: it prints the URL for you
// to open, and once your window is up (its MCP server's discovery file appears), the MCP URL and where the
// token is. Ctrl-C, or SIGINT/SIGTERM to the npm process alone (a process manager, an IDE's stop button), ends
// code-server and everything it started, then removes the workspace's discovery file and lease. The npm script
// `exec`s node so that npm's forwarded signal reaches this process (a shell in between would swallow SIGINT).
// INTENT_GOVERNOR_DEMO_DIR moves the demo's state (default .vscode-test/demo), e.g. for a test.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { localProcessGone } from '../src/core/io/processIdentity';
import { defaultServersDir, discoveryFilePath, readDiscoveryFile, removeDiscoveryFile } from '../src/core/mcp/discoveryFile';
import { leasePath } from '../src/core/mcp/workspaceLease';
import { installExtension, startCodeServer, type CodeServer } from '../test/vscode/codeServer';
import { provision, repoRoot } from '../test/vscode/provisioned';

const POLL_MS = 500;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Removes the folder's lease (a lock directory naming its holders) once every process named in it is gone. */
function removeDeadLease(path: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync(path);
  } catch {
    return true;
  }
  const holders = entries.map((name) => /^(?:owner|reclaim)-(\d+)-(\d+)-/.exec(name)).filter((m) => m !== null);
  if (holders.some((m) => !localProcessGone(Number(m[1]), Number(m[2])))) return false;
  rmSync(path, { recursive: true, force: true });
  return true;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { stdio: 'inherit' });
  const provisioned = provision();
  const state = resolve(process.env.INTENT_GOVERNOR_DEMO_DIR || join(repoRoot, '.vscode-test', 'demo'));
  const workspace = join(state, 'workspace');
  // A copy, so playing with the demo never changes demo/workspace in the repository.
  if (!existsSync(workspace)) cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
  const extensionsDir = join(state, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  installExtension(extensionsDir, repoRoot);
  const discoveryFile = discoveryFilePath({ port: 0, workspaceFolders: [workspace] }, defaultServersDir());
  const lease = leasePath(workspace, defaultServersDir());
  // Whoever reads our output may be gone by the time we say we stopped (npm killed): no EPIPE crash halfway.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const parent = process.ppid;
  // A signal while code-server is still starting is kept, and acted on once there is a server to stop.
  let signalledEarly = false;
  const early = () => (signalledEarly = true);
  for (const signal of STOP_SIGNALS) process.on(signal, early);

  // code-server runs in its own process group (see startCodeServer): stopping ends the group, extension hosts included.
  const server: CodeServer = await startCodeServer({ workspace, extensionsDir, userDataDir: join(state, 'user-data'), settings: {
    'intentGovernor.approval': 'every-change',
    // The test servers' quiet defaults keep walkthroughs closed; a person trying it gets the first-run walkthrough.
    'intentGovernor.openWalkthroughOnFirstRun': true,
  } });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      console.log('\nstopping code-server and the extension hosts it started…');
      await server.stop();
      // A killed extension host cannot remove its own announcement, nor give its lease up.
      removeDiscoveryFile(discoveryFile);
      const leaseGone = removeDeadLease(lease);
      console.log(leaseGone
        ? 'stopped; no discovery file is left for this workspace, nor its lease.'
        : `stopped; no discovery file is left, but another live process holds the lease ${lease}.`);
    })());
  const stopAndExit = () => {
    void stop()
      .catch((error: unknown) => console.error(`stopping failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => process.exit(0));
  };
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by npm), and a
  // second signal with no listener would kill it halfway through stopping.
  for (const signal of STOP_SIGNALS) {
    process.off(signal, early);
    process.on(signal, stopAndExit);
  }
  if (signalledEarly) {
    stopAndExit();
    return;
  }

  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(`\nIntent Governor demo: VS Code ${provisioned.vscode} with the extension installed`);
  console.log(`  open:       ${url}`);
  console.log(`  workspace:  ${workspace} (a copy of demo/workspace; delete ${state} to start over)`);
  console.log('  No browser window was opened: open the URL above in your browser. The extension starts in your');
  console.log('  window, and approvals show in the window you use.');
  console.log('\nCtrl-C (or SIGINT/SIGTERM to npm) stops code-server and everything it started.');
  console.log('\nwaiting for your window to open the workspace…');

  let announced: string | undefined;
  while (!stopping) {
    // npm SIGKILLed forwards nothing: an orphan stops what it started instead of serving on alone.
    if (process.ppid !== parent) {
      await stop();
      process.exit(0);
    }
    const entry = readDiscoveryFile(discoveryFile);
    const shown = entry && `${entry.url} ${entry.token}`;
    if (entry && shown !== announced) {
      announced = shown;
      console.log(`  MCP server: ${entry.url} (bearer token in ${entry.file}, mode 0600)`);
      console.log(`  try it:     connect an MCP client with that URL and "Authorization: Bearer <token>", or: node dist/cli.js decide --workspace ${workspace} < call.json`);
    }
    if (!server.running() && !stopping) {
      console.error(`code-server exited on its own; its last output:\n${server.log().slice(-4000)}`);
      await stop();
      process.exit(1);
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
