import { join } from 'node:path';
import { bundledScript } from './bundledScript';
import { runNode, type Finished } from './childProcesses';

/** Runs the real `governor` CLI (src/cli/main.ts bundled the way esbuild.mjs bundles it) as a child process. */
export function runGovernor(args: string[], options: { cwd?: string; anchorDir: string }): Promise<Finished> {
  const cli = bundledScript(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'));
  const env = { ...process.env, INTENT_GOVERNOR_ANCHOR_DIR: options.anchorDir };
  return runNode(cli, args, env, options.cwd);
}
