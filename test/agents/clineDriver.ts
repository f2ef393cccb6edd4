import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { finishedWithin, jsonLines, type Finished } from '../support/childProcesses';
import { freePort } from '../support/freePort';
import { agentCommand, provisionedAgent } from './claudeCodeDriver';

/** The pinned Cline CLI (scripts/agents/cline.mjs). */
export function provisionedCline(): string {
  return provisionedAgent('cline');
}

/** A model id Cline offers its `editor` tool to (GPT ids get apply_patch instead). */
export const CLINE_EDITOR_MODEL = 'claude-sonnet-4-5';

export interface ClineRun extends Finished {
  /** `cline --json` lines: hook_event, agent_event, …. */
  events: Record<string, unknown>[];
}

/**
 * Runs `cline --json` once, offline: a private HOME (its ~/.cline state), the scripted model as an
 * OpenAI-compatible provider (`cline auth`), telemetry off, its hub daemon on a port of its own and stopped after,
 * and the governor's headless intent and homes in the environment the hooks inherit.
 */
export async function runCline(options: { binary: string; cwd: string; modelUrl: string; home: string; env?: NodeJS.ProcessEnv; model?: string; prompt?: string }): Promise<ClineRun> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    XDG_CONFIG_HOME: join(options.home, '.config'),
    CLINE_HUB_PORT: String(await freePort()),
    OTEL_TELEMETRY_ENABLED: 'false',
    ...options.env,
  };
  const auth = spawnSync(...agentCommand(options.binary, ['auth', '-p', 'openai-compatible', '-k', 'sk-scripted', '-m', options.model ?? CLINE_EDITOR_MODEL, '-b', `${options.modelUrl}/v1`]), { cwd: options.cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (auth.status !== 0) throw new Error(`cline auth failed: ${auth.stdout}${auth.stderr}`);
  const child = spawn(...agentCommand(options.binary, ['--json', '-c', options.cwd, options.prompt ?? 'Do the scripted task.']), { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const run = await finishedWithin(child, 90_000);
    return { ...run, events: jsonLines(run.stdout) };
  } finally {
    await stopHub(env.CLINE_HUB_PORT as string);
  }
}

/** The hub daemon a run started (found by the port this run gave it): stopped and waited for, so no test leaves it running or writing under HOME. */
async function stopHub(port: string): Promise<void> {
  const found = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n');
  const pids = found.filter((line) => line.includes('--cline-hub-daemon') && line.includes(`--port ${port} `)).map((line) => Number.parseInt(line.trim(), 10));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      continue;
    }
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
