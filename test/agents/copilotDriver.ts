import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';
import { provisionedAgent, repoRoot } from './claudeCodeDriver';

/** A model Copilot CLI knows (its tool set follows the model: create/edit for Claude models, apply_patch for GPT ones). */
export const COPILOT_CLAUDE_MODEL = 'claude-sonnet-4.5';
export const COPILOT_GPT_MODEL = 'gpt-5.4';

/** The pinned GitHub Copilot CLI (scripts/agents/copilot-cli.mjs). */
export function provisionedCopilot(): string {
  return provisionedAgent('copilot-cli');
}

/** Where the binary unpacked itself when it was provisioned (the recipe's COPILOT_CACHE_HOME). */
const CACHE_HOME = join(repoRoot, '.vscode-test', 'agents', 'copilot-cli', 'xdg-cache');

/**
 * Runs `copilot -p` headless against the scripted model, as a person who trusts the folder runs it: a private
 * HOME whose ~/.copilot/config.json trusts `trusted` (Copilot CLI loads a repository's hooks only from a trusted
 * folder), BYOK offline mode (COPILOT_OFFLINE: no GitHub login, telemetry, web tools, GitHub MCP server or update
 * check; only the scripted server is contacted, checked with strace once) with the Anthropic wire API, and
 * --allow-all-tools (prompt mode requires it), so what is refused is refused by the hooks.
 */
export async function runCopilot(options: {
  binary: string;
  cwd: string;
  /** The folder the person trusts: the repository root. */
  trusted: string;
  modelUrl: string;
  home: string;
  model?: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  prompt?: string;
}): Promise<Finished> {
  const config = join(options.home, '.copilot');
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, 'config.json'), JSON.stringify({ trusted_folders: [options.trusted] }, null, 2));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    XDG_CACHE_HOME: CACHE_HOME,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_TYPE: 'anthropic',
    COPILOT_PROVIDER_BASE_URL: options.modelUrl,
    COPILOT_PROVIDER_API_KEY: 'scripted',
    COPILOT_MODEL: options.model ?? COPILOT_CLAUDE_MODEL,
    ...options.env,
  };
  const args = ['-p', options.prompt ?? 'Do the scripted task.', '--allow-all-tools', '--no-auto-update', '--disable-client-telemetry', ...(options.args ?? [])];
  const child = spawn(options.binary, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return finishedWithin(child, 90_000);
}
