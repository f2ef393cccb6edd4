import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { droidCanary } from './droidCanary';
import { droidDialect } from './droidDialect';
import { droidHookEntries } from './droidHookConfig';

/** Factory Droid reads its project hooks from here; `droid exec` runs them without a trust prompt, the interactive TUI once the folder is trusted. */
export const DROID_HOOK_FILE = '.factory/hooks.json';

const DROID_HOOKS = { shape: { file: DROID_HOOK_FILE, topLevel: true }, entries: (command: string) => droidHookEntries(command) };

export const droidAgent = {
  id: 'droid',
  label: 'Factory Droid',
  dialect: droidDialect,
  hookFiles: DROID_HOOK_FILE,
  binary: 'droid',
  enforcement: 'enforced',
  shellConfinement: 'sandboxed',
  canary: droidCanary,
  jsonHooks: DROID_HOOKS,
  install: jsonHookInstall('droid', DROID_HOOKS),
} as const satisfies AgentAdapter<'droid'>;
