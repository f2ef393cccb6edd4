import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledScript } from './bundledScript';
import { finished, type Finished } from './childProcesses';

const FIXTURES = join(__dirname, '..', 'fixtures', 'hooks');

/** A documented hook payload (test/fixtures/hooks/<agent>/<name>.json) aimed at `root`. */
export function hookFixture(agent: string, name: string, root: string): string {
  return readFileSync(join(FIXTURES, agent, `${name}.json`), 'utf8').replaceAll('{{ROOT}}', root);
}

/** Runs `governor hook <agent> ...args` as a real process, the way the agent runs its hook command. */
export function runHook(agent: string, stdin: string, args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  const cli = bundledScript(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'));
  const child = spawn(process.execPath, [cli, 'hook', agent, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined); // a hook that answers before reading all of stdin is fine
  child.stdin.end(stdin);
  return finished(child);
}
