import { agentHookCommand } from './common/hookCommand';
import type { ConfigEdit } from './common/hookFileEdit';
import type { HookFileChange, HookInstallContext } from './common/hookFileEdit';
import { editJsonHooks } from './common/jsonHookAgent';
import { agentById, type AgentId } from './registry';

/** The command `agent`'s hooks run: the per-user launcher, guarded by the agent's own blocking answer (its dialect's). */
export function hookCommandFor(agent: AgentId, cliPath: string, platform: NodeJS.Platform = process.platform): string {
  return agentHookCommand(agentById(agent).dialect, cliPath, platform);
}

/**
 * Applies an agent's install (shared by the VS Code command and `governor hooks`): its hook files in the
 * workspace and whatever else its adapter keeps (Claude Code's local MCP server, Codex's trust). The command the
 * hooks run is built here for every agent, so none can be installed without its failure answer.
 */
export function applyHookConfig(root: string, agent: AgentId, mode: 'install' | 'uninstall', cliPath: string, context: HookInstallContext = {}): Promise<HookFileChange[]> {
  return agentById(agent).install(root, mode, cliPath, { ...context, command: hookCommandFor(agent, cliPath) });
}

/** The text of a JSON-configured agent's hook file with our hooks in it (pure: the installer writes it). */
export function installHookConfig(agent: AgentId, existing: string | undefined, cliPath: string, context: HookInstallContext = {}): ConfigEdit {
  const hooks = agentById(agent).jsonHooks;
  return hooks ? editJsonHooks(hooks, existing, 'install', hookCommandFor(agent, cliPath), context) : { ok: false, message: `${agent}'s hooks are not a JSON file` };
}

/** The same file without our hooks; null when nothing else is left in it. */
export function uninstallHookConfig(agent: AgentId, existing: string | undefined): ConfigEdit {
  const hooks = agentById(agent).jsonHooks;
  return hooks ? editJsonHooks(hooks, existing, 'uninstall', '') : { ok: false, message: `${agent}'s hooks are not a JSON file` };
}
