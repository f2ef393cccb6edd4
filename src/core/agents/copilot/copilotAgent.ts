import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { copilotCanary } from './copilotCanary';
import { copilotDialect } from './copilotDialect';
import { COPILOT_HOOK_FILE, copilotHookEntries } from './copilotHookConfig';

const COPILOT_HOOKS = { shape: { file: COPILOT_HOOK_FILE, versioned: true }, entries: (command: string) => copilotHookEntries(command) };

/** GitHub Copilot CLI reads every .github/hooks/*.json (VS Code's agent too): a file of its own, beside VS Code's. */
export const copilotAgent = {
  id: 'copilot',
  label: 'GitHub Copilot CLI',
  dialect: copilotDialect,
  hookFiles: COPILOT_HOOK_FILE,
  binary: 'copilot',
  enforcement: 'enforced',
  shellConfinement: 'sandboxed',
  canary: copilotCanary,
  jsonHooks: COPILOT_HOOKS,
  install: jsonHookInstall('copilot', COPILOT_HOOKS),
} as const satisfies AgentAdapter<'copilot'>;
