import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';
import { agentCommand, provisionedAgent } from './claudeCodeDriver';

/** The model every run asks for: a fixed one, so Gemini CLI skips its model router (a side question per turn). */
export const GEMINI_MODEL = 'gemini-2.5-pro';

/** The pinned Gemini CLI (scripts/agents/gemini-cli.mjs). */
export function provisionedGemini(): string {
  return provisionedAgent('gemini-cli');
}

export interface GeminiRun extends Finished {
  /** Gemini CLI's --output-format json result, when it printed one. */
  result?: { response?: string; error?: { message?: string }; stats?: { tools?: { byName?: Record<string, { success: number; fail: number }> } }; [key: string]: unknown };
}

/**
 * Runs `gemini -p` headless against the scripted model, the way a person who trusts the folder runs it: a private
 * HOME whose ~/.gemini/settings.json picks API-key auth (GOOGLE_GEMINI_BASE_URL then points it at the scripted
 * server) and switches off usage statistics, telemetry and update checks, and whose trustedFolders.json trusts
 * `cwd` (Gemini CLI runs no hooks in a folder it does not trust). `--yolo`: its own approvals never ask, so what
 * is refused is refused by the hooks. Nothing but the scripted server is contacted (checked with strace once).
 */
export async function runGemini(options: {
  binary: string;
  cwd: string;
  modelUrl: string;
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Merged into ~/.gemini/settings.json (e.g. `mcpServers`). */
  settings?: Record<string, unknown>;
  prompt?: string;
}): Promise<GeminiRun> {
  const dir = join(options.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ...options.settings,
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(join(dir, 'trustedFolders.json'), JSON.stringify({ [options.cwd]: 'TRUST_FOLDER' }, null, 2));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    GEMINI_API_KEY: 'scripted',
    GOOGLE_GEMINI_BASE_URL: options.modelUrl,
    ...options.env,
  };
  const [command, args] = agentCommand(options.binary, ['-p', options.prompt ?? 'Do the scripted task.', '--output-format', 'json', '--yolo', '-m', GEMINI_MODEL]);
  const child = spawn(command, args, {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: GeminiRun = await finishedWithin(child, 90_000);
  try {
    run.result = JSON.parse(run.stdout);
  } catch {
    run.result = undefined;
  }
  return run;
}
