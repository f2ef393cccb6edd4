import { join } from 'node:path';
import type { AgentAdapter } from '../common/agentAdapter';
import { editHookFile, type HookFileChange } from '../common/hookFileEdit';
import { clineCanary } from './clineCanary';
import { clineDialect } from './clineDialect';
import { CLINE_HOOK_EVENTS, CLINE_HOOKS_DIR, clineHookCommands, clineHookFile, installClineHook, uninstallClineHook } from './clineHookFiles';

/** Cline's hooks are a script per event in `.clinerules/hooks/`, beside the user's own. */
export const clineAgent = {
  id: 'cline',
  label: 'Cline',
  dialect: clineDialect,
  hookFiles: `${CLINE_HOOKS_DIR}/`,
  binary: 'cline',
  enforcement: 'enforced',
  shellConfinement: 'text policy',
  canary: clineCanary,
  async install(root, mode, _cliPath, { command, declaredHooks }) {
    const commands = clineHookCommands(command, declaredHooks?.(clineDialect.agentName));
    const changes: HookFileChange[] = [];
    for (const event of CLINE_HOOK_EVENTS) {
      const file = join(root, clineHookFile(event));
      const wanted = mode === 'install' ? commands[event] : null;
      changes.push(await editHookFile('cline', file, (existing) => (wanted !== null ? installClineHook(existing, file, wanted) : uninstallClineHook(existing))));
    }
    return changes;
  },
} as const satisfies AgentAdapter<'cline'>;
