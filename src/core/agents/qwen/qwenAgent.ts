import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { qwenCanary } from './qwenCanary';
import { qwenDialect } from './qwenDialect';
import { qwenHookEntries } from './qwenHookConfig';

/**
 * Qwen Code merges its project settings from here. It runs those hooks in any folder unless the person turned
 * folder trust on (`security.folderTrust.enabled`), and then only in a folder they trust.
 */
export const QWEN_HOOK_FILE = '.qwen/settings.json';

const QWEN_HOOKS = { shape: { file: QWEN_HOOK_FILE }, entries: (command: string) => qwenHookEntries(command) };

export const qwenAgent = {
  id: 'qwen',
  label: 'Qwen Code',
  dialect: qwenDialect,
  hookFiles: QWEN_HOOK_FILE,
  binary: 'qwen',
  enforcement: 'enforced',
  // Qwen Code runs the model's shell input whatever a PreToolUse hook returns (seen with 0.24.4), so its commands are judged by their text.
  shellConfinement: 'text policy',
  canary: qwenCanary,
  jsonHooks: QWEN_HOOKS,
  install: jsonHookInstall('qwen', QWEN_HOOKS),
} as const satisfies AgentAdapter<'qwen'>;
