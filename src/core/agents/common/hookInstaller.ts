import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { errnoOf } from '../../ioError';
import { claudeConfigFile, installClaudeLocalServer, uninstallClaudeLocalServer } from '../claude/claudeLocalServer';
import { CLINE_HOOK_EVENTS, clineHookFile, installClineHook, uninstallClineHook } from '../cline/clineHookFiles';
import { trustCodexHooks } from '../codex/codexHookTrust';
import { HOOK_CONFIG_FILES, hookCommandLine, installHookConfig, uninstallHookConfig, type ClaudeHookKind, type ConfigEdit, type HookAgent } from './hookConfig';
import { installOpencodePlugin, uninstallOpencodePlugin } from '../opencode/opencodePlugin';

/** `note`: what else the person should know (Codex: whether its hooks could be trusted). */
export type HookFileChange = { agent: HookAgent; file: string; action: 'written' | 'removed' | 'unchanged'; note?: string } | { agent: HookAgent; file: string; action: 'failed'; message: string };

export interface HookInstallContext {
  /** Claude Code: the resident governor's mcp_tool hooks (default) or a command hook per event. */
  claudeHooks?: ClaudeHookKind;
  /** Where Claude Code's own config lives (its HOME and CLAUDE_CONFIG_DIR). */
  env?: NodeJS.ProcessEnv;
}

/** Reads a config, applies a pure edit, writes it back by rename (or removes it when nothing is left). */
async function editFile(agent: HookAgent, file: string, edit: (existing: string | undefined) => ConfigEdit): Promise<HookFileChange> {
  let existing: string | undefined;
  try {
    existing = await readFile(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') return { agent, file, action: 'failed', message: `cannot read ${file} (${errnoOf(error) ?? String(error)})` };
  }
  const next = edit(existing);
  if (!next.ok) return { agent, file, action: 'failed', message: next.message };
  if (next.text === existing) return { agent, file, action: 'unchanged' };
  if (next.text === null) {
    if (existing === undefined) return { agent, file, action: 'unchanged' };
    await unlink(file);
    return { agent, file, action: 'removed' };
  }
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, next.text, 'utf8');
  await rename(temp, file);
  return { agent, file, action: 'written' };
}

/**
 * Applies the pure mergers to the files (shared by the VS Code command and `governor hooks`): the agent's hook
 * config in the workspace and, for Claude Code with the resident governor, its local-scope MCP server in
 * Claude's own config (this machine's path stays out of the repository).
 */
export async function applyHookConfig(root: string, agent: HookAgent, mode: 'install' | 'uninstall', cliPath: string, context: HookInstallContext = {}): Promise<HookFileChange[]> {
  const options = { claudeHooks: context.claudeHooks };
  if (agent === 'opencode') {
    const file = join(root, HOOK_CONFIG_FILES.opencode);
    return [await editFile(agent, file, (existing) => (mode === 'install' ? installOpencodePlugin(existing, HOOK_CONFIG_FILES.opencode, cliPath) : uninstallOpencodePlugin(existing)))];
  }
  if (agent === 'cline') {
    const command = hookCommandLine(cliPath, agent);
    const changes: HookFileChange[] = [];
    for (const event of CLINE_HOOK_EVENTS) {
      const file = join(root, clineHookFile(event));
      changes.push(await editFile(agent, file, (existing) => (mode === 'install' ? installClineHook(existing, file, command) : uninstallClineHook(existing))));
    }
    return changes;
  }
  const changes = [await editFile(agent, join(root, HOOK_CONFIG_FILES[agent]), (existing) => (mode === 'install' ? installHookConfig(agent, existing, cliPath, options) : uninstallHookConfig(agent, existing)))];
  // Codex runs a project's hooks only once trusted: ask the installed Codex to trust ours (its hash, its config).
  if (agent === 'codex' && mode === 'install' && changes[0].action !== 'failed') changes.push({ agent, ...(await trustCodexHooks(root, join(root, HOOK_CONFIG_FILES.codex), context.env ?? process.env)) });
  if (agent !== 'claude') return changes;
  const env = context.env ?? process.env;
  const claudeConfig = claudeConfigFile(env, env.HOME || homedir());
  const resident = mode === 'install' && (context.claudeHooks ?? 'mcp_tool') === 'mcp_tool';
  // The server is the full CLI beside the hook bundle.
  const serverCli = join(dirname(cliPath), 'cli.js');
  changes.push(await editFile(agent, claudeConfig, (existing) => (resident ? installClaudeLocalServer(existing, claudeConfig, root, serverCli) : uninstallClaudeLocalServer(existing, claudeConfig, root))));
  return changes;
}
