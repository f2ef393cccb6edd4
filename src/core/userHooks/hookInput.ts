import type { Intent } from '../intents/intent';
import { scrubEnv } from '../process/scrubbedEnv';
import type { AgentInfo } from '../trace/traceSink';
import type { HookEventName } from './hookEvents';

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

/** The JSON a hook gets (stdin, POST body, `$ARGUMENTS`): Claude Code's input fields plus the governor's. */
export function hookInputJson(facts: HookEventFacts, root: string, intent: Intent | undefined): string {
  return JSON.stringify({
    session_id: facts.sessionId,
    cwd: facts.cwd,
    hook_event_name: facts.event,
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
  };
}
