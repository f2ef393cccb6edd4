import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { cursorCanary } from './cursorCanary';
import { cursorDialect } from './cursorDialect';
import { cursorHookEntries } from './cursorHookConfig';

/** Cursor reads its project hooks from here. */
export const CURSOR_HOOK_FILE = '.cursor/hooks.json';

const CURSOR_HOOKS = { shape: { file: CURSOR_HOOK_FILE, versioned: true }, entries: (command: string) => cursorHookEntries(command) };

/** Cursor: no installable binary, so its door is tested with the payloads of its hook documentation. */
export const cursorAgent = {
  id: 'cursor',
  label: 'Cursor',
  dialect: cursorDialect,
  hookFiles: CURSOR_HOOK_FILE,
  enforcement: 'enforced',
  shellConfinement: 'text policy',
  canary: cursorCanary,
  jsonHooks: CURSOR_HOOKS,
  install: jsonHookInstall('cursor', CURSOR_HOOKS),
} as const satisfies AgentAdapter<'cursor'>;
