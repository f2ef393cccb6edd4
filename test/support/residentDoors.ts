import { join } from 'node:path';
import { residentEndpointPid } from '../../src/core/bridge/residentEndpoint';
import { bundledScript } from './bundledScript';

const CLI_SOURCES = join(__dirname, '..', '..', 'src', 'cli');

/** The bundles a resident's doors run, laid out as dist/ lays them: the CLI, the hook and its headless governor. */
export function residentBundles(): { cli: string; hook: string } {
  bundledScript(join(CLI_SOURCES, 'headlessDecider.ts'), 'hook-headless.js');
  return { cli: bundledScript(join(CLI_SOURCES, 'main.ts'), 'cli.js'), hook: bundledScript(join(CLI_SOURCES, 'hookMain.ts'), 'hook.js') };
}

/** Ends the workspace's resident governor, if one serves it (a test's own, started by its first hook call). */
export function stopResident(home: string, root: string): void {
  const pid = residentEndpointPid(home, root);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
