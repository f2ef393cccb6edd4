import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledScript } from './bundledScript';
import { finished, type Finished } from './childProcesses';

const FIXTURES = join(__dirname, '..', 'fixtures', 'hooks');

/** A documented hook payload (test/fixtures/hooks/<agent>/<name>.json) aimed at `root`. */
export function hookFixture(agent: string, name: string, root: string): string {
  return readFileSync(join(FIXTURES, agent, `${name}.json`), 'utf8').replaceAll('{{ROOT}}', root);
}

/**
 * Starts `node hook.js hook <agent> ...args` as a real process, the way the agent runs the hook command
 * Install Agent Hooks writes: the small bundle, loading the headless governor beside it through the code cache.
 */
export function spawnHook(agent: string, args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const src = join(__dirname, '..', '..', 'src', 'cli');
  bundledScript(join(src, 'headlessDecider.ts'), 'hook-headless.js');
  const hook = bundledScript(join(src, 'hookMain.ts'), 'hook.js');
  const child = spawn(process.execPath, [hook, 'hook', agent, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined); // a hook that answers before reading all of stdin is fine
  return child;
}

/** Runs the hook command on `stdin` to completion. */
export function runHook(agent: string, stdin: string, args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  const child = spawnHook(agent, args, env);
  child.stdin.end(stdin);
  return finished(child);
}
