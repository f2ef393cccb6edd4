import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';

export const repoRoot = join(__dirname, '..', '..');

/** Installs (once, cached) the pinned agent named by its recipe in scripts/agents/ and returns its binary. */
export function provisionedAgent(name: string): string {
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'provision-agents.mjs'), name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`provision-agents ${name} failed:\n${result.stdout}\n${result.stderr}`);
  const binaries = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, string>;
  const binary = binaries[name];
  if (!binary) throw new Error(`provision-agents printed no binary for ${name}: ${result.stdout}`);
  return binary;
}

/**
 * How to start an agent binary: a Node script (Gemini CLI's bundle, Cline's wrapper) with this process's node by
 * its absolute path, so a test may put another `node` first on the PATH the agent's hooks see.
 */
export function agentCommand(binary: string, args: string[]): [string, string[]] {
  const fd = openSync(binary, 'r');
  const buffer = Buffer.alloc(64);
  const read = readSync(fd, buffer, 0, 64, 0);
  closeSync(fd);
  const head = buffer.toString('latin1', 0, read);
  return head.startsWith('#!') && head.split('\n')[0].includes('node') ? [process.execPath, [binary, ...args]] : [binary, args];
}

/** The pinned Claude Code binary. */
export function provisionedClaude(): string {
  return provisionedAgent('claude-code');
}

/** Builds dist/ when it is missing, so the suite also runs on its own on a fresh checkout. */
export function ensureBuilt(): void {
  if (existsSync(join(repoRoot, 'dist', 'cli.js')) && existsSync(join(repoRoot, 'dist', 'hook.js'))) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
}

export interface ClaudeRun extends Finished {
  /** Claude's --output-format json result, when it printed one. */
  result?: { is_error?: boolean; result?: string; [key: string]: unknown };
}

/**
 * Runs `claude -p` headless against the scripted model: a private HOME so no user config leaks in, every
 * non-model network call switched off, and the governor's headless intent and homes in the environment the
 * hook inherits.
 */
export async function runClaude(options: {
  binary: string;
  cwd: string;
  modelUrl: string;
  home: string;
  env?: NodeJS.ProcessEnv;
  prompt?: string;
  /** Print every event as a JSON line, hooks' starts and answers included (`result` is then left unset). */
  hookEvents?: boolean;
  /** Called with the claude process once it started (a test that kills it mid-session). */
  onSpawn?: (child: ChildProcess) => void;
}): Promise<ClaudeRun> {
  mkdirSync(options.home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    XDG_CONFIG_HOME: join(options.home, '.config'),
    ANTHROPIC_BASE_URL: options.modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-scripted',
    IS_SANDBOX: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  const child = spawn(
    options.binary,
    ['-p', options.prompt ?? 'Do the scripted task.', ...(options.hookEvents ? ['--output-format', 'stream-json', '--verbose', '--include-hook-events'] : ['--output-format', 'json']), '--dangerously-skip-permissions'],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  options.onSpawn?.(child);
  const run: ClaudeRun = await finishedWithin(child, 90_000);
  try {
    run.result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    run.result = undefined;
  }
  return run;
}
