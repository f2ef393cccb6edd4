import { join } from 'node:path';
import type { AgentAdapter } from '../common/agentAdapter';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { codexCanary } from './codexCanary';
import { codexDialect } from './codexDialect';
import { codexHookEntries } from './codexHookConfig';
import { trustCodexHooks } from './codexHookTrust';

/** Codex loads a project's .codex/ only once the person trusts the project, and runs each hook once trusted. */
export const CODEX_HOOK_FILE = '.codex/hooks.json';

const CODEX_HOOKS = { shape: { file: CODEX_HOOK_FILE }, entries: (command: string) => codexHookEntries(command) };
const writeHooks = jsonHookInstall('codex', CODEX_HOOKS);

export const codexAgent = {
  id: 'codex',
  label: 'Codex CLI',
  dialect: codexDialect,
  hookFiles: CODEX_HOOK_FILE,
  binary: 'codex',
  enforcement: 'enforced',
  shellConfinement: 'sandboxed',
  canary: codexCanary,
  jsonHooks: CODEX_HOOKS,
  async install(root, mode, cliPath, context) {
    const changes = await writeHooks(root, mode, cliPath, context);
    // Ask the installed Codex to trust our entries (their hashes, in its config), as its /hooks screen does.
    if (mode === 'install' && changes[0]?.action !== 'failed') changes.push({ agent: 'codex', ...(await trustCodexHooks(root, join(root, CODEX_HOOK_FILE), context.env ?? process.env)) });
    return changes;
  },
} as const satisfies AgentAdapter<'codex'>;
