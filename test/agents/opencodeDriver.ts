import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finishedWithin, type Finished } from '../support/childProcesses';
import { provisionedAgent } from './claudeCodeDriver';

/** How long one `opencode run` may take before it is killed; the tests' own timeout is above it. */
export const RUN_TIMEOUT_MS = 240_000;

/** The pinned OpenCode binary (scripts/agents/opencode.mjs). */
export function provisionedOpencode(): string {
  return provisionedAgent('opencode');
}

/**
 * OpenCode's config for a run, outside the workspace (OPENCODE_CONFIG): one OpenAI-compatible provider pointed at
 * the scripted model, no auto-update or sharing, and every permission granted so tools run without a prompt.
 * `model` decides the tool list: a "gpt-" model (not gpt-4) gets apply_patch instead of edit and write. `mcp`: OpenCode's
 * MCP servers, whose tools it offers as `<server>_<tool>`.
 */
export function writeOpencodeConfig(home: string, modelUrl: string, model: string, mcp?: Record<string, unknown>): string {
  const file = join(home, 'opencode-config.json');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        permission: { '*': 'allow', edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' },
        model: `scripted/${model}`,
        ...(mcp ? { mcp } : {}),
        provider: {
          scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-scripted' }, models: { [model]: { name: 'Scripted', tool_call: true } } },
        },
      },
      null,
      2,
    ),
  );
  return file;
}

/**
 * Runs `opencode run` non-interactively against the scripted model: a private HOME and XDG folders (its data,
 * cache and the packages it installs for plugins stay there), update checks, model list fetches, sharing, LSP
 * downloads and Claude Code compatibility off, and the governor's headless intent and homes in the environment
 * the plugin's hook processes inherit.
 */
export async function runOpencode(options: { binary: string; cwd: string; modelUrl: string; home: string; model?: string; mcp?: Record<string, unknown>; env?: NodeJS.ProcessEnv; prompt?: string }): Promise<Finished> {
  const home = options.home;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_CONFIG: writeOpencodeConfig(home, options.modelUrl, options.model ?? 'scripted-model', options.mcp),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    // OpenCode npm-installs its plugin package into .opencode/ and its config folder on every start: one shared,
    // offline-first npm cache beside the binary keeps that from downloading on every run.
    npm_config_cache: join(dirname(options.binary), '..', '..', '..', 'npm-cache'),
    npm_config_prefer_offline: 'true',
    ...options.env,
  };
  // Its warnings and errors on stderr, so a run that hangs or fails says why.
  const child = spawn(options.binary, ['run', '--print-logs', '--log-level', 'WARN', options.prompt ?? 'Do the scripted task.'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return finishedWithin(child, RUN_TIMEOUT_MS);
}
