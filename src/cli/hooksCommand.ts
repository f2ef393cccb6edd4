import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HOOK_AGENTS, type HookAgent } from '../core/bridge/hookConfig';
import { applyHookConfig } from '../core/bridge/hookInstaller';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand } from './cliCommand';

const USAGE = `governor hooks: install or remove the hook bridge in agents' hook configs

Usage: governor hooks <install|uninstall> [--agent vscode|claude|cursor] [--workspace DIR]

install writes (or merges into) .github/hooks/intent-governor.json (VS Code), .claude/settings.local.json
(Claude Code) and .cursor/hooks.json (Cursor), each running \`node <dist/hook.js beside this CLI> hook <agent>\`; the user's
other hooks and settings are kept. uninstall removes only our entries (and a file left empty). Default: every
agent. These files are protected from agents; run this yourself. Exit 0 done; 1 a file could not be changed.
`;

export const hooksCommand: CliCommand = {
  name: 'hooks',
  summary: 'Install or remove the hook bridge in VS Code, Claude Code and Cursor hook configs',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { agent: { type: 'string', multiple: true } as never, workspace: { type: 'string' } }, true);
    if (!parsed.ok) return usageError(io, 'hooks', parsed.message);
    const mode = parsed.positionals[0];
    if ((mode !== 'install' && mode !== 'uninstall') || parsed.positionals.length !== 1) return usageError(io, 'hooks', "expected 'install' or 'uninstall'");
    const requested = (parsed.values.agent as unknown as string[] | undefined) ?? [...HOOK_AGENTS];
    const unknown = requested.filter((a) => !HOOK_AGENTS.includes(a as HookAgent));
    if (unknown.length) return usageError(io, 'hooks', `unknown agent '${unknown[0]}' (expected ${HOOK_AGENTS.join(', ')})`);
    const root = await workspaceFrom(parsed.values.workspace, io, 'hooks');
    if (root === undefined) return 2;
    // Point agents at the small hook bundle beside this CLI when it is there (dist/hook.js), else at this CLI.
    const self = resolve(process.argv[1] ?? 'dist/cli.js');
    const hookBundle = join(dirname(self), 'hook.js');
    const cliPath = existsSync(hookBundle) ? hookBundle : self;
    let failed = false;
    for (const agent of requested as HookAgent[]) {
      const change = await applyHookConfig(root, agent, mode, cliPath);
      if (change.action === 'failed') {
        failed = true;
        io.stderr(`governor hooks: ${agent}: ${change.message}\n`);
      } else io.stdout(`${agent}: ${change.file} ${change.action}\n`);
    }
    return failed ? 1 : 0;
  },
};
