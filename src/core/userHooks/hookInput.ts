import type { Intent } from '../intents/intent';
import { scrubEnv } from '../process/scrubbedEnv';
import type { AgentInfo } from '../trace/traceSink';
import { TOOL_EVENTS, type HookEventName } from './hookEvents';

/** What a door knows about one event, in the words hooks read (Claude Code's field names). */
export interface HookEventFacts {
  event: HookEventName;
  /** The agent's own session id, as its hooks know it. */
  sessionId: string;
  agent: AgentInfo;
  /** Where the agent stands (absolute); the workspace root when the door has no better idea. */
  cwd: string;
  /** Event fields: tool_name, tool_input, tool_use_id, tool_response, prompt, source, message, transcript_path, permission_mode, … */
  fields: Record<string, unknown>;
  /** The governed tool the call amounts to (`write_file`, `run_command`, …), when there is one. */
  governedTool?: string;
  invocationId?: string;
  /** Workspace-relative path the call touches, for `$FILE_PATH`. */
  filePath?: string;
}

/** The JSON a hook gets (stdin, POST body, `$ARGUMENTS`): Claude Code's input fields plus the governor's and seed 003's `hook_name`. */
export function hookInputJson(facts: HookEventFacts, root: string, intent: Intent | undefined, hookName?: string): string {
  return JSON.stringify({
    session_id: facts.sessionId,
    cwd: facts.cwd,
    hook_event_name: facts.event,
    ...(hookName !== undefined ? { hook_name: hookName } : {}),
    ...(facts.invocationId !== undefined && TOOL_EVENTS.has(facts.event) ? { tool_use_id: facts.invocationId } : {}),
    ...facts.fields,
    agent: facts.agent,
    ...(facts.governedTool !== undefined ? { governed_tool: facts.governedTool } : {}),
    ...(facts.invocationId !== undefined ? { invocation_id: facts.invocationId } : {}),
    ...(intent ? { intent_id: intent.id, intent_scope: intent.owned_scope } : {}),
    project_dir: root,
  });
}

/**
 * The environment a hook runs with: the parent's minus credentials (a hook from a repository must not read the
 * host's tokens), plus the variables of seed 004 and Claude Code's `CLAUDE_PROJECT_DIR` (hooks written for Claude
 * name their scripts through it).
 */
export function hookEnv(facts: HookEventFacts, root: string, intent: Intent | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const toolName = typeof facts.fields.tool_name === 'string' ? facts.fields.tool_name : (facts.governedTool ?? '');
  return {
    ...scrubEnv(base),
    INTENT_GOVERNOR_PROJECT_DIR: root,
    CLAUDE_PROJECT_DIR: root,
    HOOK_EVENT: facts.event,
    TOOL_NAME: toolName,
    FILE_PATH: facts.filePath ?? '',
    SESSION_ID: facts.sessionId,
    INTENT_ID: intent?.id ?? '',
    ...exitCode(facts),
  };
}

/** Seed 004's `$EXIT_CODE` for post hooks: the tool's own exit code when it has one (a command), else 0 or 1. */
function exitCode(facts: HookEventFacts): Record<string, string> {
  if (facts.event !== 'PostToolUse' && facts.event !== 'PostToolUseFailure') return {};
  const response = facts.fields.tool_response;
  const own = typeof response === 'object' && response !== null ? ((response as Record<string, unknown>).exit_code ?? (response as Record<string, unknown>).exitCode) : undefined;
  if (typeof own === 'number' && Number.isInteger(own)) return { EXIT_CODE: String(own) };
  return { EXIT_CODE: facts.event === 'PostToolUse' ? '0' : '1' };
}
