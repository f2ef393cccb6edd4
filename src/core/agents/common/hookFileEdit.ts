import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoOf } from '../../ioError';
import type { DeclaredHooks } from '../../userHooks/declaredHooks';

/** A pure edit of a hook file: the new text (null: the file can go), or why it was left unchanged. */
export type ConfigEdit = { ok: true; text: string | null } | { ok: false; message: string };

/** `note`: what else the person should know (Codex: whether its hooks could be trusted). */
export type HookFileChange = { agent: string; file: string; action: 'written' | 'removed' | 'unchanged'; note?: string } | { agent: string; file: string; action: 'failed'; message: string };

/** How Claude Code reaches the governor: `mcp_tool` hooks answered by the resident governor, or a command hook per event. */
export type ClaudeHookKind = 'mcp_tool' | 'command';

export interface HookInstallContext {
  /** Claude Code: the resident governor's mcp_tool hooks (default) or a command hook per event. */
  claudeHooks?: ClaudeHookKind;
  /** Where the agents' own config lives (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME). */
  env?: NodeJS.ProcessEnv;
  /**
   * The user hooks the governor runs in this workspace for a door (an agent's name, `claude-code`, `gemini-cli`),
   * read by the caller, which loads the hook files: an install whose matchers leave tool events out still sends
   * every event they need. Absent: none are declared.
   */
  declaredHooks?: (door: string) => DeclaredHooks;
}

/**
 * What an agent's installer gets: the person's choices and the command its hooks run, built for it by the shared
 * layer (agentHookCommand: the per-user launcher, guarded by the agent's own blocking answer), never by the agent.
 */
export interface AgentInstallContext extends HookInstallContext {
  command: string;
}

/** Reads a config, applies a pure edit, writes it back by rename (or removes it when nothing is left). */
export async function editHookFile(agent: string, file: string, edit: (existing: string | undefined) => ConfigEdit): Promise<HookFileChange> {
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
