import { join } from 'node:path';
import type { AgentAdapter } from '../common/agentAdapter';
import { editHookFile } from '../common/hookFileEdit';
import { opencodeCanary } from './opencodeCanary';
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
  shellConfinement: 'text policy',
  canary: opencodeCanary,
  // The plugin computes the launcher's path itself: no command, and no path of this machine, goes into the file.
  async install(root, mode) {
    const edit = (existing: string | undefined) => (mode === 'install' ? installOpencodePlugin(existing, OPENCODE_PLUGIN_FILE) : uninstallOpencodePlugin(existing));
    return [await editHookFile('opencode', join(root, OPENCODE_PLUGIN_FILE), edit)];
  },
} as const satisfies AgentAdapter<'opencode'>;
