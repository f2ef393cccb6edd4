import { join, resolve } from 'node:path';
import { readRegularFileSync } from '../../io/regularFile';
import { isOurCommand } from '../../userHooks/ourHookCommand';
import { VSCODE_HOOK_FILE } from '../vscode/vscodeHookConfig';
import { COPILOT_HOOK_FILE } from './copilotHookConfig';
import { isRecord, type HookDialect } from '../common/hookDialect';
import type { ToolMapping } from '../common/nativeCall';

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
/** The two agents that run each other's entries, and where each one's own entry lives. */
const RUNNERS = { copilot: { name: 'GitHub Copilot CLI', file: COPILOT_HOOK_FILE }, vscode: { name: "VS Code's agent", file: VSCODE_HOOK_FILE } };

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
    reason: `${RUNNERS[runner].name} ran Intent Governor's hook for another agent (${dialect.agentName}), which cannot read its tools, so the call is refused. To govern ${RUNNERS[runner].name}, the person runs \`governor hooks install --agent ${runner}\` in this workspace (it writes ${RUNNERS[runner].file}).`,
  };
}

/** Whether the agent's hook file has our pre-tool entry (read as the decision path reads files: bounded, regular files only). */
function entryInstalled(agent: 'copilot' | 'vscode', root: string): boolean {
  const read = readRegularFileSync(join(root, RUNNERS[agent].file), { maxBytes: MAX_CONFIG_BYTES });
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
