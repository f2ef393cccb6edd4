import { join, resolve } from 'node:path';
import { readRegularFileSync } from '../../io/regularFile';
import { HOOK_CONFIG_FILES, isOurCommand, type HookAgent } from '../common/hookConfig';
import { isRecord, type HookDialect } from '../common/hookDialect';
import type { ToolMapping } from '../../bridge/nativeCall';

/**
 * GitHub Copilot CLI and VS Code's agent read each other's hook files. Copilot CLI runs every hook file of a
 * repository it trusts, VS Code's (.github/hooks/*.json) and Claude Code's (.claude/settings*.json) included, and
 * sends those entries its own calls in their format: its `create {path, file_text}` arrives as `Write {path,
 * file_text}`, which neither dialect can read. Its hook processes, from either file, carry COPILOT_CLI=1 and
 * COPILOT_PROJECT_DIR (the shell its agent runs commands in has only the first, so another agent started from there
 * is not mistaken for it; verified with 1.0.102). VS Code's agent reads .github/hooks/*.json in Copilot CLI's
 * camelCase too, and sends the copilot entry its own payloads (snake_case `session_id`, `hook_event_name`), which
 * Copilot CLI never sends to a camelCase entry (its own carry `sessionId`).
 *
 * So an entry run by the other agent stands aside when that agent's own entry is installed (one judgement, one
 * trace record), and otherwise refuses a tool call, saying how to govern that agent.
 */
export type CopilotStandIn = 'aside' | Extract<ToolMapping, { kind: 'refused' }>;

const MAX_CONFIG_BYTES = 256 * 1024;
const NAMES: Partial<Record<HookAgent, string>> = { copilot: 'GitHub Copilot CLI', vscode: "VS Code's agent" };

/** What one of our entries does when the other agent runs it; undefined when its own agent runs it. */
export function copilotStandIn(dialect: HookDialect, payload: unknown, env: NodeJS.ProcessEnv, cwd: string): CopilotStandIn | undefined {
  if (dialect.id !== 'copilot' && env.COPILOT_CLI === '1' && env.COPILOT_PROJECT_DIR) return standIn('copilot', dialect, resolve(cwd, env.COPILOT_PROJECT_DIR));
  if (dialect.id === 'copilot' && !env.COPILOT_PROJECT_DIR && isVscodePayload(payload)) {
    const from = isRecord(payload) && typeof payload.cwd === 'string' ? payload.cwd : '.';
    return standIn('vscode', dialect, resolve(cwd, from));
  }
  return undefined;
}

/** VS Code's snake_case hook input; Copilot CLI's own always carries camelCase `sessionId`. */
export function isVscodePayload(payload: unknown): boolean {
  return isRecord(payload) && typeof payload.hook_event_name === 'string' && typeof payload.session_id === 'string' && payload.sessionId === undefined;
}

function standIn(runner: 'copilot' | 'vscode', dialect: HookDialect, root: string): CopilotStandIn {
  if (entryInstalled(runner, root)) return 'aside';
  return {
    kind: 'refused',
    reason: `${NAMES[runner]} ran Intent Governor's hook for another agent (${dialect.agentName}), which cannot read its tools, so the call is refused. To govern ${NAMES[runner]}, the person runs \`governor hooks install --agent ${runner}\` in this workspace (it writes ${HOOK_CONFIG_FILES[runner]}).`,
  };
}

/** Whether the agent's hook file has our pre-tool entry (read as the decision path reads files: bounded, regular files only). */
function entryInstalled(agent: 'copilot' | 'vscode', root: string): boolean {
  const read = readRegularFileSync(join(root, HOOK_CONFIG_FILES[agent]), { maxBytes: MAX_CONFIG_BYTES });
  if (!read.ok) return false;
  try {
    const config = JSON.parse(read.bytes.toString('utf8')) as unknown;
    const pre = isRecord(config) && isRecord(config.hooks) ? config.hooks[agent === 'copilot' ? 'preToolUse' : 'PreToolUse'] : undefined;
    const ours = new RegExp(` hook ${agent}\\b`);
    return Array.isArray(pre) && pre.some((entry) => isRecord(entry) && isOurCommand(entry.command) && ours.test(entry.command as string));
  } catch {
    return false;
  }
}
