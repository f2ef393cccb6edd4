import { doubleUnderscoreTool } from '../../approval/mcpToolPattern';
import { CLAUDE_HOOK_EVENTS } from '../../userHooks/hookEvents';
import { RESIDENT_SERVER_NAME } from '../../userHooks/ourHookCommand';
import type { HookDialect, HookEvent, HookReply } from './hookDialect';
import { isRecord, unknownEvent } from './hookDialect';
import type { BridgeAnswer, ToolMapping } from './nativeCall';

/** Fields every event has; the rest of a payload (tool_use_id among it) goes to the user hooks as the event's own fields. */
const COMMON_FIELDS = new Set(['session_id', 'sessionId', 'cwd', 'hook_event_name', 'hookEventName', 'tool_name', 'tool_input']);

/** Events whose `hookSpecificOutput.additionalContext` the agent reads; other events' text goes out as a systemMessage. */
const TAKES_CONTEXT = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit', 'SubagentStart']);

/** Events an agent lets a hook block with `{"decision": "block", "reason"}`. */
const BLOCKABLE = new Set(['UserPromptSubmit', 'Stop', 'SubagentStop', 'PostToolUse', 'PostToolUseFailure']);

function ownFields(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !COMMON_FIELDS.has(key)));
}

/**
 * The hook protocol of Claude Code (https://docs.claude.com/en/docs/claude-code/hooks), which VS Code's agent
 * hooks also speak (https://code.visualstudio.com/docs/agents/reference/hooks-reference): snake_case JSON on
 * stdin, `hookSpecificOutput` JSON on stdout, exit 2 blocks with stderr shown to the model.
 */
export function parseClaudeStyle(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const eventName = payload.hook_event_name ?? payload.hookEventName;
  if (typeof eventName !== 'string') return { ok: false, message: 'the hook input has no hook_event_name' };
  const sessionId = payload.session_id ?? payload.sessionId;
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  const fields = ownFields(payload);
  if (eventName === 'PreToolUse' || eventName === 'PostToolUse' || eventName === 'PostToolUseFailure') {
    if (typeof sessionId !== 'string' || sessionId === '') return { ok: false, message: `${eventName} input has no session_id` };
    if (typeof payload.tool_name !== 'string') return { ok: false, message: `${eventName} input has no tool_name` };
    if (!isRecord(payload.tool_input)) return { ok: false, message: `${eventName} input has no tool_input object` };
    const toolUseId = typeof payload.tool_use_id === 'string' ? payload.tool_use_id : undefined;
    return { ok: true, event: { kind: 'tool', phase: eventName === 'PreToolUse' ? 'pre' : 'post', eventName, sessionId, cwd, toolName: payload.tool_name, toolInput: payload.tool_input, toolUseId, fields } };
  }
  // Claude Code sends SessionEnd when a conversation ends (clear, logout, exit); it cannot block anything.
  if (eventName === 'SessionEnd') {
    if (typeof sessionId !== 'string' || sessionId === '') return { ok: false, message: 'SessionEnd input has no session_id' };
    return { ok: true, event: { kind: 'end', eventName, sessionId, cwd, fields } };
  }
  if ((CLAUDE_HOOK_EVENTS as readonly string[]).includes(eventName)) {
    // PermissionRequest/PermissionDenied name a tool: its name and input go to the user hooks, which may match on them.
    const toolFields = typeof payload.tool_name === 'string' ? { tool_name: payload.tool_name, tool_input: payload.tool_input } : {};
    return { ok: true, event: { kind: 'context', eventName, hookEvent: eventName, sessionId: typeof sessionId === 'string' ? sessionId : 'unknown', cwd, fields: { ...toolFields, ...fields } } };
  }
  return unknownEvent('this agent', eventName);
}

/**
 * Claude Code's fields only the agent acts on, where Claude Code reads them: PermissionRequest's updatedPermissions
 * inside its allow decision, PermissionDenied's retry, SessionStart's initialUserMessage, watchPaths.
 */
function passThrough(name: string, fields: Record<string, unknown> | undefined, specific: Record<string, unknown>): void {
  if (!fields) return;
  const { updatedPermissions, ...rest } = fields;
  const decision = specific.decision;
  if (updatedPermissions !== undefined && name === 'PermissionRequest' && typeof decision === 'object' && decision !== null && (decision as { behavior?: unknown }).behavior === 'allow') {
    specific.decision = { ...decision, updatedPermissions };
  }
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) specific[key] = value;
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/** The answer in Claude's words; an allow without anything to say prints nothing (the agent's own rules still apply). */
export function renderClaudeStyle(event: HookEvent, answer: BridgeAnswer): HookReply {
  const name = event.kind === 'context' ? (event.hookEvent ?? event.eventName) : event.eventName;
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = { hookEventName: name };
  let context = answer.context;
  let systemMessage = answer.systemMessage;
  if (answer.stop !== undefined) Object.assign(out, { continue: false, stopReason: answer.stop });
  if (event.kind === 'tool' && event.phase === 'pre') {
    if (answer.decision !== 'allow') Object.assign(specific, { permissionDecision: answer.decision, permissionDecisionReason: answer.reason ?? 'Intent Governor refused this call.' });
    else if (answer.updatedInput) Object.assign(specific, { permissionDecision: 'allow', updatedInput: answer.updatedInput });
  } else if (name === 'PermissionRequest') {
    // `ask`: no hook decided, so Claude's own dialog asks the person.
    if (answer.decision !== 'ask') specific.decision = answer.decision === 'deny' ? { behavior: 'deny', message: answer.reason ?? 'Refused by a hook.' } : { behavior: 'allow' };
  } else if (answer.decision === 'deny' && BLOCKABLE.has(name)) {
    Object.assign(out, { decision: 'block', reason: answer.reason ?? 'Blocked by a hook.' });
  } else if (answer.decision === 'deny' && answer.stop === undefined) {
    Object.assign(out, { continue: false, stopReason: answer.reason ?? 'Blocked by a hook.' });
  }
  if (context && !TAKES_CONTEXT.has(name)) {
    systemMessage = [systemMessage, context].filter(Boolean).join('\n');
    context = undefined;
  }
  if (context) specific.additionalContext = context;
  if (systemMessage) out.systemMessage = systemMessage;
  // A user hook's redaction of what the model reads: MCP tools take updatedMCPToolOutput, the others updatedToolOutput.
  if (answer.updatedToolOutput !== undefined && event.kind === 'tool' && event.phase === 'post') {
    specific[event.toolName.startsWith('mcp__') ? 'updatedMCPToolOutput' : 'updatedToolOutput'] = answer.updatedToolOutput;
  }
  passThrough(name, answer.passThrough, specific);
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

export function renderClaudeStyleFailure(reason: string): HookReply {
  return { exitCode: 2, stdout: '', stderr: `Intent Governor blocked this call: ${reason}\n` };
}

/** The governor's own MCP tools as Claude Code's protocol names them (`mcp__<server>__<tool>`). */
export const OWN_MCP_PREFIX = `mcp__${RESIDENT_SERVER_NAME}__`;

/**
 * A Claude-shaped agent's tool mapping: the governor's own MCP tools pass (its server judges them), another MCP
 * server's `mcp__…` tool is refused, naming `useInstead` (the agent's own tools), and every other tool goes to
 * `mapTable`.
 */
export function claudeStyleMapTool(useInstead: string, mapTable: HookDialect['mapTool']): HookDialect['mapTool'] {
  return (toolName, toolInput, place): ToolMapping => {
    if (toolName.startsWith(OWN_MCP_PREFIX)) return { kind: 'passthrough' };
    if (toolName.startsWith('mcp__')) {
      const foreign = doubleUnderscoreTool(toolName);
      return { kind: 'refused', reason: `'${toolName}' is a tool of another MCP server: Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). Use ${useInstead} or the intent-governor tools.`, ...(foreign ? { foreign } : {}) };
    }
    return mapTable(toolName, toolInput, place);
  };
}
