import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { vscodeCanary } from './vscodeCanary';
import { vscodeDialect } from './vscodeDialect';
import { VSCODE_HOOK_FILE, vscodeHookEntries } from './vscodeHookConfig';

const VSCODE_HOOKS = { shape: { file: VSCODE_HOOK_FILE }, entries: vscodeHookEntries };

/** VS Code's own agent (Copilot Chat's agent mode): command hooks in `.github/hooks/`. */
export const vscodeAgent = {
  id: 'vscode',
  label: 'VS Code agent',
  dialect: vscodeDialect,
  hookFiles: VSCODE_HOOK_FILE,
  enforcement: 'enforced',
  shellConfinement: 'text policy',
  canary: vscodeCanary,
  jsonHooks: VSCODE_HOOKS,
  install: jsonHookInstall('vscode', VSCODE_HOOKS),
} as const satisfies AgentAdapter<'vscode'>;
