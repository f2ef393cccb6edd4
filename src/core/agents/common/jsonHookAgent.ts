import { join } from 'node:path';
import type { AgentAdapter } from './agentAdapter';
import { hookCommandLine, mergeHookConfig, removeHookConfig, type ConfigEdit, type JsonHooks } from './hookConfig';
import { editHookFile, type HookFileChange, type HookInstallContext } from './hookFileEdit';

/** The text of an agent's JSON hook file with our hooks installed (or, `mode: 'uninstall'`, taken out). Pure. */
export function editJsonHooks(id: string, hooks: JsonHooks, existing: string | undefined, mode: 'install' | 'uninstall', cliPath: string, context: HookInstallContext = {}): ConfigEdit {
  return mode === 'install' ? mergeHookConfig(existing, hooks.entries(hookCommandLine(cliPath, id), context), hooks.shape, context) : removeHookConfig(existing, hooks.shape);
}

/** `install` for an agent whose hooks are one JSON file of the workspace. */
export function jsonHookInstall(id: string, hooks: JsonHooks): AgentAdapter['install'] {
  return async (root, mode, cliPath, context): Promise<HookFileChange[]> => [await editHookFile(id, join(root, hooks.shape.file), (existing) => editJsonHooks(id, hooks, existing, mode, cliPath, context))];
}
