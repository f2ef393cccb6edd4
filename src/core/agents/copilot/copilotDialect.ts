import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseClaudeStyle } from '../common/claudeStyleProtocol';
import { patchCalls } from '../common/patchCalls';
import { replaceCommandField } from '../common/shellConfinement';
import { isVscodePayload } from './copilotStandIn';
import { isRecord, mapByTable, missingInput, stringField, unknownEvent, type AgentPlace, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, ToolMapping } from '../common/nativeCall';
import { joinedTool } from '../../approval/mcpToolPattern';
import { RESIDENT_SERVER_NAME } from '../claude/residentHook';
import { isToolName } from '../../tools/toolName';

/**
 * GitHub Copilot CLI's hooks (`.github/hooks/*.json`, version 1; https://docs.github.com/copilot/reference/hooks-reference),
 * verified against @github/copilot 1.0.102. Events configured in camelCase get camelCase JSON on stdin that does
 * not name its event, so the event is told by its documented fields:
 *
 *   preToolUse          {sessionId, timestamp, cwd, toolName, toolArgs}
 *   postToolUse         … + toolResult {resultType, textResultForLlm}
 *   postToolUseFailure  … + error (a string)
 *   sessionStart        {sessionId, timestamp, cwd, source, initialPrompt?}
 *   userPromptSubmitted {sessionId, timestamp, cwd, prompt}
 *   agentStop           {sessionId, timestamp, cwd, transcriptPath, stopReason}   (subagentStop adds agentName)
 *   subagentStart       {…, agentName}, preCompact {…, trigger}, sessionEnd {…, reason}
 *
 * A subagent's tool calls come through the same hooks with the subagent's own `sessionId` and the parent's in
 * `parentAgentId`: they are governed in the parent's session (its intent and read ledger). `toolArgs` is the tool's
 * JSON input, or the raw text for a freeform tool (apply_patch), which is handed on as `{input: text}`.
 *
 * Answers (stdout JSON, exit 0): `permissionDecision` allow|deny|ask with `permissionDecisionReason` (the model
 * reads "Denied by preToolUse hook: <reason>"; in prompt mode, -p, an ask is a deny), `modifiedArgs` (the input the
 * tool runs instead), `additionalContext`; agentStop/subagentStop `decision: "block"` + `reason`. A preToolUse hook
 * that exits non-zero or cannot start denies the call (its reference says such a hook is skipped), one that times
 * out lets it run, and unparseable stdout is taken as no opinion: every answer here is well-formed JSON.
 */
const FAILURE_EVENT = 'PostToolUseFailure';

function sessionOf(payload: Record<string, unknown>): string | undefined {
  // A subagent's calls belong to the session that started it.
  for (const key of ['parentAgentId', 'sessionId'] as const) if (typeof payload[key] === 'string' && payload[key] !== '') return payload[key] as string;
  return undefined;
}

/** The tool input as the bridge maps it: the JSON arguments, or a freeform tool's text as `{input}`. */
function toolInputOf(args: unknown): Record<string, unknown> | undefined {
  if (isRecord(args)) return args;
  if (typeof args === 'string') return { input: args };
  return undefined;
}

const COMMON_FIELDS = new Set(['sessionId', 'timestamp', 'cwd', 'toolName', 'toolArgs']);

/** The payload's own fields for the user hooks, with the snake_case names Claude Code's hooks read where there is one. */
function ownFields(payload: Record<string, unknown>): Record<string, unknown> {
  const renamed: Record<string, string> = { transcriptPath: 'transcript_path', initialPrompt: 'initial_prompt', toolResult: 'tool_response', stopReason: 'stop_reason', agentName: 'agent_type', agentId: 'agent_id' };
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !COMMON_FIELDS.has(key)).map(([key, value]) => [renamed[key] ?? key, value]));
}

function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  // VS Code's agent reads this file too and sends its own (Claude-style) payloads; the hook flow stands in for it (copilotStandIn).
  if (isVscodePayload(payload)) return parseClaudeStyle(payload);
  const sessionId = sessionOf(payload);
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  const fields = ownFields(payload);
  if (typeof payload.toolName === 'string' && payload.hookName === undefined) {
    const failed = !('toolResult' in payload) && typeof payload.error === 'string';
    const phase = 'toolResult' in payload || failed ? 'post' : 'pre';
    const eventName = failed ? FAILURE_EVENT : phase === 'pre' ? 'preToolUse' : 'postToolUse';
    if (sessionId === undefined) return { ok: false, message: `${eventName} input has no sessionId` };
    const toolInput = toolInputOf(payload.toolArgs);
    if (toolInput === undefined) return { ok: false, message: `${eventName} input has no toolArgs` };
    // Copilot CLI sends no call id: the hook flow keys the call by a hash of its name and input, the same in both phases.
    return { ok: true, event: { kind: 'tool', phase, eventName, sessionId, cwd, toolName: payload.toolName, toolInput, fields } };
  }
  const context = (eventName: string, hookEvent: string): ReturnType<HookDialect['parse']> => ({ ok: true, event: { kind: 'context', eventName, hookEvent, sessionId: sessionId ?? 'unknown', cwd, fields } });
  if (typeof payload.source === 'string') return context('sessionStart', 'SessionStart');
  if (typeof payload.prompt === 'string') return context('userPromptSubmitted', 'UserPromptSubmit');
  if (typeof payload.stopReason === 'string') return typeof payload.agentName === 'string' ? context('subagentStop', 'SubagentStop') : context('agentStop', 'Stop');
  if (typeof payload.agentName === 'string') return context('subagentStart', 'SubagentStart');
  if (typeof payload.trigger === 'string') return context('preCompact', 'PreCompact');
  if (typeof payload.reason === 'string') {
    if (sessionId === undefined) return { ok: false, message: 'sessionEnd input has no sessionId' };
    return { ok: true, event: { kind: 'end', eventName: 'sessionEnd', sessionId, cwd, fields } };
  }
  return unknownEvent('GitHub Copilot CLI', typeof payload.hookName === 'string' ? payload.hookName : typeof payload.hook_event_name === 'string' ? payload.hook_event_name : '(no event name)');
}

/**
 * Copilot CLI's tools that change nothing we govern: searches, the background-shell and subagent bookkeeping
 * (a subagent's own tool calls come through the hooks), the session's SQLite store (Copilot itself refuses
 * ATTACH, VACUUM INTO and load_extension there), skills, its documentation, the web, todo lists, plan mode and
 * memories (kept by GitHub, not in the workspace).
 */
const PASSTHROUGH = new Set([
  'glob', 'grep', 'rg', 'read_bash', 'stop_bash', 'list_bash', 'read_powershell', 'stop_powershell', 'list_powershell',
  'task', 'read_agent', 'list_agents', 'write_agent', 'skill', 'sql', 'session_store_sql', 'fetch_copilot_cli_documentation',
  'ask_user', 'update_todo', 'exit_plan_mode', 'task_complete', 'web_fetch', 'web_search', 'store_memory', 'read_memories', 'vote_memory',
]);

const invalid = (tool: string, what: string): ToolMapping => missingInput('Copilot CLI', tool, what);

/**
 * Where a Copilot CLI tool acts: an absolute path as given, anything else against the session's working directory
 * (the payload's `cwd`). "~" is not expanded: `create` of "~/x" makes a folder named "~" there.
 */
function toolPath(given: string, place: AgentPlace): string {
  return resolve(place.cwd, given);
}

/** `view` of a file reads it; of a directory it lists names two levels deep, as glob does, which reads no governed content. */
function readCall(given: string | undefined, tool: string, place: AgentPlace): ToolMapping {
  if (given === undefined) return invalid(tool, 'path');
  const path = toolPath(given, place);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return { kind: 'passthrough' };
  return { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
}

function createCall(input: Record<string, unknown>, tool: string, place: AgentPlace): ToolMapping {
  const path = stringField(input, 'path');
  if (path === undefined || typeof input.file_text !== 'string') return invalid(tool, 'path and file_text');
  return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: toolPath(path, place), content: input.file_text } }] };
}

/** `edit` replaces exactly one occurrence of a non-empty old_str (Copilot CLI rejects an empty one itself). */
function replaceCall(input: Record<string, unknown>, tool: string, place: AgentPlace): ToolMapping {
  const path = stringField(input, 'path');
  if (path === undefined || typeof input.old_str !== 'string' || input.old_str === '' || typeof input.new_str !== 'string') return invalid(tool, 'path, old_str and new_str');
  return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: toolPath(path, place) }, edits: [{ search: input.old_str, replace: input.new_str, all: false }] }] };
}

/** apply_patch: a write per added file, an edit per updated one (patchCalls). */
function applyPatch(input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  return patchCalls(input, { agent: 'Copilot CLI', tool: 'apply_patch', textFields: ['input'], resolve: (path) => toolPath(path, place), shell: 'the bash tool' });
}

/**
 * Native tool → governed call. The tools offered to Claude models: create {path, file_text} → write_file, edit
 * {path, old_str, new_str} → edit_file, view {path} → read_file, bash {command} → run_command in the working
 * directory (where each command starts). To GPT models: apply_patch. To older models: str_replace_editor with a
 * `command`. A shell that keeps running (bash mode "async") was judged when it started; typing into it is not.
 */
const TABLE: NativeToolTable = {
  create: (input, place) => createCall(input, 'create', place),
  edit: (input, place) => replaceCall(input, 'edit', place),
  view: (input, place) => readCall(stringField(input, 'path'), 'view', place),
  bash(input, place) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('bash', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  apply_patch: applyPatch,
  str_replace_editor(input, place) {
    const command = stringField(input, 'command');
    if (command === 'view') return readCall(stringField(input, 'path'), 'str_replace_editor', place);
    if (command === 'create') return createCall(input, 'str_replace_editor', place);
    if (command === 'str_replace') return replaceCall(input, 'str_replace_editor', place);
    return { kind: 'refused', reason: `Intent Governor cannot check str_replace_editor's '${command ?? ''}' command, so it is refused. Use create, or edit with old_str and new_str.` };
  },
  write_bash() {
    return { kind: 'refused', reason: 'write_bash types into a running shell, where Intent Governor cannot see what runs, so it is refused. Run each command with the bash tool in sync mode.' };
  },
  write_powershell() {
    return { kind: 'refused', reason: 'write_powershell types into a running shell, where Intent Governor cannot see what runs, so it is refused.' };
  },
  powershell() {
    return { kind: 'refused', reason: "Intent Governor judges POSIX shell commands only, so Copilot CLI's powershell tool is refused. Run the command with the bash tool (WSL or Git Bash), or ask the person to run it." };
  },
};

const mapTable = mapByTable('Copilot CLI', PASSTHROUGH, TABLE);

/**
 * MCP tools reach the hooks as `<server>-<tool>` (verified with 1.0.102; Copilot CLI's own tools hold no '-'). The
 * bridge cannot see what another server's tool does, so it runs only as the plan's mcp_tools allows; a name with
 * more than one '-' reads several ways, each of which the plan must allow (policy/foreignMcpTools.ts).
 */
function mapTool(toolName: string, toolInput: Record<string, unknown>, place: AgentPlace): ToolMapping {
  const prefix = `${RESIDENT_SERVER_NAME}-`;
  if (toolName.startsWith(prefix) && isToolName(toolName.slice(prefix.length))) return { kind: 'passthrough' };
  const foreign = PASSTHROUGH.has(toolName) || Object.hasOwn(TABLE, toolName) ? undefined : joinedTool(toolName, '-');
  if (foreign) return { kind: 'refused', reason: `'${toolName}' is a tool of another MCP server: Intent Governor cannot see what it reads or changes, so it is refused unless the plan's mcp_tools allows it (governance fails closed). Use Copilot CLI's file and shell tools or the intent-governor tools.`, foreign };
  return mapTable(toolName, toolInput, place);
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A rewritten input as Copilot CLI's `modifiedArgs`: the JSON arguments, or a freeform tool's text. */
function modifiedArgs(event: Extract<HookEvent, { kind: 'tool' }>, updated: Record<string, unknown>): unknown {
  return event.toolName === 'apply_patch' && typeof updated.input === 'string' && Object.keys(updated).length === 1 ? updated.input : updated;
}

/**
 * A refusal or an ask, in Copilot CLI's fields and in VS Code's `hookSpecificOutput` (VS Code's agent also runs this
 * file; Copilot CLI reads only the first, verified with 1.0.102).
 */
function decisionFields(decision: 'deny' | 'ask', reason: string): Record<string, unknown> {
  return { permissionDecision: decision, permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } };
}

function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  const out: Record<string, unknown> = {};
  if (event.kind === 'tool' && event.phase === 'pre') {
    if (answer.stop !== undefined || answer.decision !== 'allow') {
      Object.assign(out, decisionFields(answer.decision === 'ask' ? 'ask' : 'deny', answer.reason ?? answer.stop ?? 'Intent Governor refused this call.'));
    } else if (answer.updatedInput) Object.assign(out, { permissionDecision: 'allow', modifiedArgs: modifiedArgs(event, answer.updatedInput) });
  } else if (event.kind === 'context' && (event.hookEvent === 'Stop' || event.hookEvent === 'SubagentStop') && answer.decision === 'deny') {
    Object.assign(out, { decision: 'block', reason: answer.reason ?? 'Blocked by a hook.' });
  }
  // The handshake on sessionStart, notes after a change; Copilot CLI has no separate line for the person.
  const context = [answer.context, answer.systemMessage].filter(Boolean).join('\n');
  if (context && event.kind !== 'end') out.additionalContext = context;
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

/**
 * A deny as the documented answer (exit 0 and the JSON): Copilot CLI 1.0.102 also denies on any non-zero exit, but
 * its reference calls exit 2 a warning, so the answer does not rest on the exit code.
 */
function renderFailure(reason: string): HookReply {
  const message = `Intent Governor blocked this call: ${reason}`;
  return { exitCode: 0, stdout: json(decisionFields('deny', message)), stderr: `${message}\n` };
}

/**
 * bash runs a preToolUse allow's modifiedArgs (verified with 1.0.102, test/agents/copilotConfinedShell.agent.test.ts),
 * as long as the rewritten line starts no program that changes its environment (see confinedCommandLine).
 */
const confineShell = replaceCommandField({ bash: 'command' });

export const copilotDialect: HookDialect = { id: 'copilot', agentName: 'copilot-cli', parse, mapTool, render, renderFailure, confineShell };
