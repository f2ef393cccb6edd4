// `npm start`: build, provision the same VS Code the tests use (code-server 1.139 + Node 24), and open the
// demo workspace with Intent Governor installed. Prints the URL to open and, once the window is up, the MCP
// discovery details an agent needs. Runs until Ctrl-C. `npm start -- --no-browser` skips the headless window
// (the extension host then starts when you open the URL yourself).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readDiscoveryFiles } from '../src/core/mcp/discoveryFile';
import { installExtension, openWorkbench, startCodeServer, type CodeServer, type Workbench } from '../test/vscode/codeServer';
import { provision, repoRoot } from '../test/vscode/provisioned';

const DEMO_PORT_WAIT_MS = 120_000;

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs')], { stdio: 'inherit' });
  const provisioned = provision();
  const state = join(repoRoot, '.vscode-test', 'demo');
  const workspace = join(state, 'workspace');
  // A copy, so playing with the demo never changes demo/workspace in the repository.
  if (!existsSync(workspace)) cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
  const extensionsDir = join(state, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  installExtension(extensionsDir, repoRoot);

  const server: CodeServer = await startCodeServer({ workspace, extensionsDir, userDataDir: join(state, 'user-data'), settings: { 'intentGovernor.approveWrites': true } });
  let workbench: Workbench | undefined;
  const stop = async () => {
    await workbench?.close();
    await server.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().finally(() => process.exit(0)));

  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(`\nIntent Governor demo: VS Code ${provisioned.vscode} with the extension installed`);
  console.log(`  open:       ${url}`);
  console.log(`  workspace:  ${workspace} (a copy of demo/workspace; delete .vscode-test/demo to start over)`);
  if (!process.argv.includes('--no-browser')) {
    workbench = await openWorkbench(server.url, workspace);
    const serversDir = join(process.env.INTENT_GOVERNOR_HOME ?? join(homedir(), '.intent-governor'), 'servers');
    const deadline = Date.now() + DEMO_PORT_WAIT_MS;
    let entry = (await readDiscoveryFiles(serversDir)).find((s) => s.workspaceFolders.includes(workspace));
    while (!entry && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      entry = (await readDiscoveryFiles(serversDir)).find((s) => s.workspaceFolders.includes(workspace));
    }
    if (entry) {
      console.log(`  MCP server: ${entry.url} (bearer token in ${entry.file}, mode 0600)`);
      console.log(`  try it:     node dist/cli.js decide --workspace ${workspace} < call.json, or connect an MCP client with that URL and token`);
    } else {
      console.log('  MCP server: not announced yet; see the "Intent Governor" output channel in the window');
    }
    console.log('  (a headless window keeps the extension host running; open the URL above in your browser to watch and answer approvals)');
  }
  console.log('\nCtrl-C stops the server.');
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
