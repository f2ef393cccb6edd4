/**
 * How Claude Code reaches the resident governor (`governor mcp --agent claude`): the MCP server's name in its
 * config, the tool its `mcp_tool` hooks call, and the hook input fields they pass. One place for the installer
 * (which writes them) and the server (which reads them).
 */
import { RESIDENT_HOOK_TOOL, RESIDENT_SERVER_NAME } from '../../userHooks/ourHookCommand';

// Defined where the user-hook engine recognises our entries (a layer below), so both read the same names.
export { RESIDENT_HOOK_TOOL, RESIDENT_SERVER_NAME };

/** The name the model would see the hook tool under: denied to it by a permission rule (hooks' calls skip permission checks). */
export const RESIDENT_HOOK_TOOL_FOR_MODEL = `mcp__${RESIDENT_SERVER_NAME}__${RESIDENT_HOOK_TOOL}`;

/**
 * Hook input fields passed to the hook tool: Claude Code interpolates `${field}` from its hook input; an object
 * arrives as its JSON text, a missing field as ''.
 */
export const RESIDENT_HOOK_FIELDS = [
  'hook_event_name', 'session_id', 'transcript_path', 'cwd', 'permission_mode', 'tool_name', 'tool_input', 'tool_use_id', 'tool_response',
  'prompt', 'source', 'reason', 'agent_id', 'agent_type', 'stop_hook_active', 'trigger', 'message', 'notification_type', 'error',
] as const;

/**
 * A constant of the hooks' input (not interpolated): the routing the install wrote into their matchers (which tool
 * events Claude Code sends), so the resident governor knows which posts never come and which user hooks it could miss.
 */
export const RESIDENT_ROUTING_FIELD = 'routing';

/** Claude Code calls `mcp_tool` hooks from this version on; older ones get command hooks. */
export const MCP_TOOL_HOOKS_SINCE = '2.1.118';
