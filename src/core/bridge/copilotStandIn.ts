import { join, resolve } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { HOOK_CONFIG_FILES, isOurCommand } from './hookConfig';
import { isRecord, type HookDialect } from './hookDialect';
import type { ToolMapping } from './nativeCall';

/**
 * GitHub Copilot CLI runs every hook file of a repository it trusts, VS Code's agent's (.github/hooks/*.json) and
 * Claude Code's (.claude/settings*.json) included, and sends those entries its own calls in their format: its
 * `create {path, file_text}` arrives as `Write {path, file_text}`, which neither dialect can read. Its hook
 * processes, from either file, carry COPILOT_CLI=1 and COPILOT_PROJECT_DIR (the shell its agent runs commands in has
 * only the first, so another agent started from there is not mistaken for it; verified with 1.0.102).
 *
 * So when Copilot CLI runs another agent's entry: with the copilot entry installed, that one judges and traces the
 * call and this one stands aside (no opinion, no second trace record); without it, a tool call is refused, saying
 * how to govern Copilot CLI.
 */
export type CopilotStandIn = 'aside' | Extract<ToolMapping, { kind: 'refused' }>;

const COPILOT_FILE = HOOK_CONFIG_FILES.copilot;
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * What another agent's hook entry does when GitHub Copilot CLI runs it; undefined when it is not Copilot CLI. The
 * copilot entry is looked for where Copilot CLI loads the repository's hooks from: COPILOT_PROJECT_DIR.
 */
export function copilotStandIn(dialect: HookDialect, env: NodeJS.ProcessEnv, cwd: string): CopilotStandIn | undefined {
  if (dialect.id === 'copilot' || env.COPILOT_CLI !== '1' || !env.COPILOT_PROJECT_DIR) return undefined;
  if (copilotEntryInstalled(resolve(cwd, env.COPILOT_PROJECT_DIR))) return 'aside';
  return {
    kind: 'refused',
    reason: `GitHub Copilot CLI ran Intent Governor's hook for another agent (${dialect.agentName}), which cannot read Copilot CLI's tools, so the call is refused. To govern Copilot CLI, the person runs \`governor hooks install --agent copilot\` in this workspace (it writes ${COPILOT_FILE}).`,
  };
}

/** Whether the workspace's copilot hook file has our preToolUse entry (read as the decision path reads files: bounded, regular files only). */
function copilotEntryInstalled(root: string): boolean {
  const read = readRegularFileSync(join(root, COPILOT_FILE), { maxBytes: MAX_CONFIG_BYTES });
  if (!read.ok) return false;
  try {
    const config = JSON.parse(read.bytes.toString('utf8')) as unknown;
    const pre = isRecord(config) && isRecord(config.hooks) ? config.hooks.preToolUse : undefined;
    return Array.isArray(pre) && pre.some((entry) => isRecord(entry) && [entry.command, entry.bash].some((command) => isOurCommand(command) && / hook copilot\b/.test(command as string)));
  } catch {
    return false;
  }
}
