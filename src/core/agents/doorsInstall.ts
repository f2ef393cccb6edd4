import { governorHome } from '../paths/governorHome';
import { ensureOrchestrationGitFiles } from '../trace/orchestrationGitFiles';
import { declaredHooks } from '../userHooks/declaredHooks';
import { applyHookConfig } from './agentHooks';
import { ensureHookLauncher, type LauncherChange } from './common/hookLauncher';
import type { ClaudeHookKind, HookFileChange } from './common/hookFileEdit';
import type { AgentId } from './registry';

/** What installing (or removing) the governor's doors did, step by step, for the caller to say in its own words. */
export interface DoorsInstallReport {
  /** The per-user launcher the hook files name (install only, not on Windows): written, unchanged, or why not. */
  launcher?: LauncherChange | { problem: string };
  /** Each agent's files, in the order asked, failures included. */
  changes: HookFileChange[];
  /** `.orchestration/.gitattributes` and `.gitignore` (install only): what was written, or why not. */
  git?: { written: string[] } | { problem: string };
}

export interface DoorsInstallOptions {
  mode: 'install' | 'uninstall';
  agents: readonly AgentId[];
  /** The hook bundle the launcher runs (dist/hook.js). */
  hookScript: string;
  env: NodeJS.ProcessEnv;
  claudeHooks?: ClaudeHookKind;
  platform?: NodeJS.Platform;
}

/**
 * The one install step of `governor hooks install|uninstall` and *Install Agent Hooks…*: the launcher first (the hook
 * files name it, so it must be there before an agent runs them), then each agent's files with the user hooks its
 * door must route, then the git files a team needs to share the logs.
 */
export async function installDoors(root: string, options: DoorsInstallOptions): Promise<DoorsInstallReport> {
  const install = options.mode === 'install';
  const report: DoorsInstallReport = { changes: [] };
  if (install && (options.platform ?? process.platform) !== 'win32') {
    report.launcher = await ensureHookLauncher(options.env, options.hookScript).catch((error: unknown) => ({ problem: messageOf(error) }));
  }
  // The resident governor's matchers route every tool event the user's hooks for Claude Code need.
  const declared = install ? (door: string) => declaredHooks(root, governorHome(options.env), door) : undefined;
  for (const agent of options.agents) {
    report.changes.push(...(await applyHookConfig(root, agent, options.mode, options.hookScript, { claudeHooks: options.claudeHooks, env: options.env, ...(declared ? { declaredHooks: declared } : {}) })));
  }
  if (install) report.git = await ensureOrchestrationGitFiles(root).then(({ written }) => ({ written }), (error: unknown) => ({ problem: messageOf(error) }));
  return report;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
