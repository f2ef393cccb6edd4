import { join } from 'node:path';
import type { AgentAdapter } from './agentAdapter';
import { mergeHookConfig, removeHookConfig, type JsonHooks } from './hookConfig';
import { editHookFile, type ConfigEdit, type HookFileChange, type HookInstallContext } from './hookFileEdit';

/** The text of an agent's JSON hook file with our hooks (running `command`) installed, or, `mode: 'uninstall'`, taken out. Pure. */
export function editJsonHooks(hooks: JsonHooks, existing: string | undefined, mode: 'install' | 'uninstall', command: string, context: HookInstallContext = {}): ConfigEdit {
  return mode === 'install' ? mergeHookConfig(existing, hooks.entries(command, context), hooks.shape, context) : removeHookConfig(existing, hooks.shape);
}

/** `install` for an agent whose hooks are one JSON file of the workspace. */
export function jsonHookInstall(id: string, hooks: JsonHooks): AgentAdapter['install'] {
  return async (root, mode, _cliPath, context): Promise<HookFileChange[]> => [await editHookFile(id, join(root, hooks.shape.file), (existing) => editJsonHooks(hooks, existing, mode, context.command, context))];
}
