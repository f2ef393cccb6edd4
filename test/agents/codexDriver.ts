import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { finishedWithin, jsonLines, type Finished } from '../support/childProcesses';
import { provisionedAgent } from './claudeCodeDriver';

/** The pinned Codex CLI binary (scripts/agents/codex.mjs). */
export function provisionedCodex(): string {
  return provisionedAgent('codex');
}

/** PATH with the pinned binary first, so `codex` (the installer's app-server) is this one. */
export function pathWithCodex(binary: string): string {
  return `${dirname(binary)}:${process.env.PATH ?? ''}`;
}

/** The model slug the scripted provider answers as: a known one, so Codex offers its full tool list (apply_patch included). */
const MODEL = 'gpt-5.5';

/**
 * A private CODEX_HOME (`<home>/.codex`) whose config.toml points Codex at a scripted Responses API provider,
 * switches off analytics, feedback and update checks, runs commands unsandboxed with no approval prompts, and
 * trusts the given projects, the way a person does once (Codex reads a project's .codex/ only when trusted).
 * The provider's URL is given per run (`-c`), so the hook trust the installer writes here stays.
 */
export function writeCodexConfig(home: string, trustedProjects: string[]): string {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const projects = trustedProjects.map((dir) => `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`).join('\n');
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "${MODEL}"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.scripted]
name = "Scripted"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
env_key = "SCRIPTED_OPENAI_KEY"

[analytics]
enabled = false

[feedback]
enabled = false

${projects}`,
  );
  return codexHome;
}

export interface CodexRun extends Finished {
  /** `codex exec --json` events, one per line. */
  events: Record<string, unknown>[];
}

/**
 * Runs `codex exec` non-interactively against the scripted model: the private HOME and CODEX_HOME, no other
 * network, and the governor's headless intent and homes in the environment the hooks inherit.
 */
export async function runCodex(options: { binary: string; cwd: string; modelUrl: string; home: string; env?: NodeJS.ProcessEnv; args?: string[]; prompt?: string }): Promise<CodexRun> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    CODEX_HOME: join(options.home, '.codex'),
    XDG_CONFIG_HOME: join(options.home, '.config'),
    SCRIPTED_OPENAI_KEY: 'sk-scripted',
    ...options.env,
  };
  const args = ['exec', '--json', '--skip-git-repo-check', '-c', `model_providers.scripted.base_url="${options.modelUrl}/v1"`, ...(options.args ?? []), options.prompt ?? 'Do the scripted task.'];
  const child = spawn(options.binary, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = await finishedWithin(child, 90_000);
  return { ...run, events: jsonLines(run.stdout) };
}

/** Codex CLI's apply_patch input for `hunks` (`*** Add File: …`, `+line`, …) between its begin and end markers. */
export function codexPatch(...hunks: string[]): { input: string } {
  return { input: `*** Begin Patch\n${hunks.join('\n')}\n*** End Patch\n` };
}
