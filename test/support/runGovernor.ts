import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledScript } from './bundledScript';
import { runNode, type Finished } from './childProcesses';

/**
 * Runs the real `governor` CLI (src/cli/main.ts bundled the way esbuild.mjs bundles it) as a child process,
 * with a private HOME unless the test gives one: nothing a test runs may touch the real home (Claude Code's
 * ~/.claude.json, ~/.intent-governor).
 */
export async function runGovernor(args: string[], options: { cwd?: string; anchorDir: string; home?: string; env?: NodeJS.ProcessEnv }): Promise<Finished> {
  const cli = bundledScript(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'ig-cli-home-'));
  try {
    const env = { ...process.env, HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: options.anchorDir, ...options.env };
    return await runNode(cli, args, env, options.cwd);
  } finally {
    if (options.home === undefined) rmSync(home, { recursive: true, force: true });
  }
}
