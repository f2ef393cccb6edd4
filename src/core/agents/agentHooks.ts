import type { ConfigEdit } from './common/hookConfig';
import type { HookFileChange, HookInstallContext } from './common/hookFileEdit';
import { editJsonHooks } from './common/jsonHookAgent';
import { agentById, type AgentId } from './registry';

/**
 * Applies an agent's install (shared by the VS Code command and `governor hooks`): its hook files in the
 * workspace and whatever else its adapter keeps (Claude Code's local MCP server, Codex's trust).
 */
export function applyHookConfig(root: string, agent: AgentId, mode: 'install' | 'uninstall', cliPath: string, context: HookInstallContext = {}): Promise<HookFileChange[]> {
  return agentById(agent).install(root, mode, cliPath, context);
}

/** The text of a JSON-configured agent's hook file with our hooks in it (pure: the installer writes it). */
export function installHookConfig(agent: AgentId, existing: string | undefined, cliPath: string, context: HookInstallContext = {}): ConfigEdit {
  const hooks = agentById(agent).jsonHooks;
  return hooks ? editJsonHooks(agent, hooks, existing, 'install', cliPath, context) : { ok: false, message: `${agent}'s hooks are not a JSON file` };
}

/** The same file without our hooks; null when nothing else is left in it. */
export function uninstallHookConfig(agent: AgentId, existing: string | undefined): ConfigEdit {
  const hooks = agentById(agent).jsonHooks;
  return hooks ? editJsonHooks(agent, hooks, existing, 'uninstall', '') : { ok: false, message: `${agent}'s hooks are not a JSON file` };
}
