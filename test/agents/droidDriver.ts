import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';
import { provisionedAgent } from './claudeCodeDriver';

/** The custom model every run asks for: Droid names a `customModels` entry `custom:<displayName, spaces as dashes>-<index>`. */
export const DROID_MODEL = 'custom:Scripted-Anthropic-0';

/** The pinned Factory Droid (scripts/agents/droid.mjs). */
export function provisionedDroid(): string {
  return provisionedAgent('droid');
}

export type DroidRun = Finished;

/**
 * Runs `droid exec` headless against the scripted Anthropic Messages server, with no Factory account: a private
 * HOME whose ~/.factory/settings.json names the scripted server as a custom model (`provider: anthropic`), and
 * FACTORY_AIRGAP_ENABLED=1, which allows custom models only and blocks every call to Factory's API, telemetry and
 * Sentry. `--auto high`: its own permission tiers let writes and commands run, so what is refused is refused by
 * the hooks. The project's hooks run in exec without a trust prompt.
 */
export async function runDroid(options: {
  binary: string;
  cwd: string;
  modelUrl: string;
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Merged into ~/.factory/settings.json. */
  settings?: Record<string, unknown>;
  prompt?: string;
}): Promise<DroidRun> {
  const dir = join(options.home, '.factory');
  mkdirSync(dir, { recursive: true });
  const settings = {
    customModels: [{ model: 'scripted-model', displayName: 'Scripted Anthropic', baseUrl: options.modelUrl, apiKey: 'scripted', provider: 'anthropic', maxOutputTokens: 4096 }],
    ...options.settings,
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    FACTORY_AIRGAP_ENABLED: '1',
    FACTORY_DISABLE_KEYRING: '1',
    FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
    ...options.env,
  };
  const child = spawn(options.binary, ['exec', '-m', DROID_MODEL, '--auto', 'high', options.prompt ?? 'Do the scripted task.'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return finishedWithin(child, 90_000);
}
