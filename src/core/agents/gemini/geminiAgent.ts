import type { AgentAdapter } from '../common/agentAdapter';
import type { HookInstallContext } from '../common/hookFileEdit';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { geminiCanary } from './geminiCanary';
import { geminiDialect } from './geminiDialect';
import { geminiHookEntries } from './geminiHookConfig';

/** Gemini CLI merges its project settings from here; it runs those hooks only once the person trusts the folder. */
export const GEMINI_HOOK_FILE = '.gemini/settings.json';

const GEMINI_HOOKS = { shape: { file: GEMINI_HOOK_FILE }, entries: (command: string, context: HookInstallContext) => geminiHookEntries(command, context.declaredHooks?.(geminiDialect.agentName)) };

export const geminiAgent = {
  id: 'gemini',
  label: 'Gemini CLI',
  dialect: geminiDialect,
  hookFiles: GEMINI_HOOK_FILE,
  binary: 'gemini',
  enforcement: 'enforced',
  shellConfinement: 'sandboxed',
  canary: geminiCanary,
  jsonHooks: GEMINI_HOOKS,
  install: jsonHookInstall('gemini', GEMINI_HOOKS),
} as const satisfies AgentAdapter<'gemini'>;
