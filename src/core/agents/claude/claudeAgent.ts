import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentAdapter } from '../common/agentAdapter';
import { editHookFile } from '../common/hookFileEdit';
import { jsonHookInstall } from '../common/jsonHookAgent';
import { claudeCanary } from './claudeCanary';
import { claudeDialect } from './claudeDialect';
import { CLAUDE_HOOK_FILE, claudeHooks } from './claudeHookConfig';
import { claudeConfigFile, installClaudeLocalServer, uninstallClaudeLocalServer } from './claudeLocalServer';
import { claudeRouting, routingNote } from './claudeRouting';
import { NO_DECLARED_HOOKS } from '../../userHooks/declaredHooks';
import { CLAUDE_CODE_DOOR } from '../../userHooks/hookLayerFiles';

const writeHooks = jsonHookInstall('claude', claudeHooks);

/**
 * Claude Code: its hooks in `.claude/settings.local.json` and, with the resident governor (the default), this
 * project's local-scope MCP server in Claude's own config (this machine's path stays out of the repository).
 */
export const claudeAgent = {
  id: 'claude',
  label: 'Claude Code',
  dialect: claudeDialect,
  hookFiles: CLAUDE_HOOK_FILE,
  binary: 'claude',
  enforcement: 'enforced',
  shellConfinement: 'sandboxed',
  canary: claudeCanary,
  jsonHooks: claudeHooks,
  async install(root, mode, cliPath, context) {
    const env = context.env ?? process.env;
    const claudeConfig = claudeConfigFile(env, env.HOME || homedir());
    const resident = mode === 'install' && (context.claudeHooks ?? 'mcp_tool') === 'mcp_tool';
    // The server is the full CLI beside the hook bundle.
    const serverCli = join(dirname(cliPath), 'cli.js');
    // A server entry naming a file that is not there makes Claude Code refuse every call in the project: nothing is written.
    if (resident && !existsSync(serverCli)) {
      return [{ agent: 'claude', file: claudeConfig, action: 'failed' as const, message: `the governor's CLI is not at ${serverCli}, so Claude Code's server entry would not start; run \`governor hooks install\` from a build that has dist/cli.js beside dist/hook.js (npm run build), or pass --claude-hooks command` }];
    }
    const hooks = await writeHooks(root, mode, cliPath, context);
    const server = await editHookFile('claude', claudeConfig, (existing) => (resident ? installClaudeLocalServer(existing, claudeConfig, root, serverCli) : uninstallClaudeLocalServer(existing, claudeConfig, root)));
    // Say which tool events Claude Code will not send, so a person who adds a hook knows to install again.
    const note = resident ? routingNote(claudeRouting(context.declaredHooks?.(CLAUDE_CODE_DOOR) ?? NO_DECLARED_HOOKS)) : undefined;
    return [...hooks.map((change) => (note && change.action !== 'failed' && !change.note ? { ...change, note } : change)), server];
  },
} as const satisfies AgentAdapter<'claude'>;
