import { join } from 'node:path';
import type { AgentAdapter } from '../common/agentAdapter';
import { editHookFile } from '../common/hookFileEdit';
import { opencodeDialect } from './opencodeDialect';
import { installOpencodePlugin, uninstallOpencodePlugin } from './opencodePlugin';

/** OpenCode's hooks are plugins: a module of ours rather than a JSON config. */
export const OPENCODE_PLUGIN_FILE = '.opencode/plugins/intent-governor.js';

export const opencodeAgent = {
  id: 'opencode',
  label: 'OpenCode',
  dialect: opencodeDialect,
  hookFiles: OPENCODE_PLUGIN_FILE,
  binary: 'opencode',
  enforcement: 'enforced',
  async install(root, mode, cliPath) {
    const edit = (existing: string | undefined) => (mode === 'install' ? installOpencodePlugin(existing, OPENCODE_PLUGIN_FILE, cliPath) : uninstallOpencodePlugin(existing));
    return [await editHookFile('opencode', join(root, OPENCODE_PLUGIN_FILE), edit)];
  },
} as const satisfies AgentAdapter<'opencode'>;
