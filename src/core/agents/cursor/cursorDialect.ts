import { parseCodexPatch } from '../common/applyPatch';
import { fileUriPath, isRecord, resolveAgainst, type AgentPlace, type HookDialect, type HookEvent, type HookReply } from '../common/hookDialect';
import type { BridgeAnswer, NativeCall, NativeEdit, ToolMapping } from '../common/nativeCall';
import { RESIDENT_SERVER_NAME } from '../claude/residentHook';
import { isToolName } from '../../tools/toolName';

/**
 * Cursor's hooks (`.cursor/hooks.json`, https://cursor.com/docs/hooks, formerly /docs/agent/hooks): one JSON document
 * on stdin, one on stdout. Every payload carries `conversation_id`, `generation_id`, `model`, `hook_event_name`,
 * `cursor_version`, `workspace_roots`, `user_email`, `transcript_path`. The payloads and answers are in
 * test/fixtures/hooks/cursor/ with their sources.
 *
 * Enforced before the action (exit 2 and `permission: "deny"` block; `failClosed` on our entries turns a crash
 * or a timeout of the hook into a block too):
 * - preToolUse {tool_name, tool_input, tool_use_id, cwd}: every agent tool, by the table below. MCP tools arrive
 *   as `MCP:<tool>` (or `MCP:<server>:<tool>`): only the intent-governor server's own tools pass.
 * - beforeShellExecution {command, cwd} → run_command; beforeReadFile {file_path, content} → read_file;
 *   beforeMCPExecution {tool_name, tool_input (JSON text), url | command | server name} → the intent-governor
 *   server's own tools pass; another server's, when Cursor names the server, run as the plan's mcp_tools allows.
 * Afterwards: postToolUse / postToolUseFailure (same tool_use_id) record what the tool did (the trace);
 * afterFileEdit {file_path, edits[{old_string, new_string}]} traces an edit, afterShellExecution and
 * afterMCPExecution are the post phase of their before… event. Context: sessionStart (the intent handshake as
 * `additional_context`), beforeSubmitPrompt, stop, subagentStart/Stop, preCompact; sessionEnd ends the session.
 * Any other event, and any payload without the fields its event needs, is refused (exit 2), never answered with
 * silence: this dialect does not rely on a shared layer to fail closed.
 *
 * Paths: Cursor sends absolute paths; a relative one is taken against the workspace root (`workspace_roots[0]`),
 * where Cursor's file tools work. A shell command runs in the working directory its input names
 * (`working_directory`, `cwd`), else the payload's `cwd`, else that root.
 */

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

type Parsed = ReturnType<HookDialect['parse']>;

/** Tool events in their own right: the tool's name and input are fields of the payload. */
const TOOL_EVENTS: Record<string, 'pre' | 'post'> = { preToolUse: 'pre', postToolUse: 'post', postToolUseFailure: 'post' };

/** Cursor's first events, one per kind of action: the whole payload is the tool input, the event names the tool. */
const ACTION_EVENTS: Record<string, 'pre' | 'post'> = {
  beforeShellExecution: 'pre',
  beforeReadFile: 'pre',
  beforeMCPExecution: 'pre',
  afterShellExecution: 'post',
  afterMCPExecution: 'post',
  afterFileEdit: 'post',
};

/** Events that are not a tool call, by the hook event our user hooks know them as. */
const CONTEXT_EVENTS: Record<string, string> = {
  sessionStart: 'SessionStart',
  beforeSubmitPrompt: 'UserPromptSubmit',
  stop: 'Stop',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  preCompact: 'PreCompact',
};

/** Tools that run a shell command: judged where the payload says the agent stands. */
const SHELL_TOOLS = new Set(['Shell']);

/** Fields every payload has; the rest go to the user hooks as the event's own fields. */
const COMMON_FIELDS = new Set(['conversation_id', 'hook_event_name', 'tool_name', 'tool_input', 'cwd', 'workspace_roots']);

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** preToolUse's tool_input is an object; an MCP tool's may come as its JSON text, a patch as plain text. */
function toolInputOf(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (isRecord(parsed)) return parsed;
  } catch {
    // not JSON: a freeform tool's text (ApplyPatch)
  }
  return { input: value };
}

function parse(payload: unknown): Parsed {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const eventName = payload.hook_event_name;
  if (typeof eventName !== 'string' || eventName === '') return { ok: false, message: 'the hook input has no hook_event_name' };
  const root = Array.isArray(payload.workspace_roots) ? payload.workspace_roots.find((r): r is string => typeof r === 'string' && r !== '') : undefined;
  const fields = Object.fromEntries(Object.entries(payload).filter(([key]) => !COMMON_FIELDS.has(key)));
  const sessionId = nonEmpty(payload.conversation_id) ?? (eventName === 'sessionStart' || eventName === 'sessionEnd' ? nonEmpty(payload.session_id) : undefined);
  const known = Object.hasOwn(TOOL_EVENTS, eventName) || Object.hasOwn(ACTION_EVENTS, eventName) || Object.hasOwn(CONTEXT_EVENTS, eventName) || eventName === 'sessionEnd';
  if (!known) {
    return { ok: false, message: `Cursor's hook event '${eventName.slice(0, 80)}' is not one Intent Governor knows, so it is refused (governance fails closed); it answers ${[...Object.keys(TOOL_EVENTS), ...Object.keys(ACTION_EVENTS), ...Object.keys(CONTEXT_EVENTS), 'sessionEnd'].join(', ')}` };
  }
  if (sessionId === undefined) return { ok: false, message: `Cursor's ${eventName} input has no conversation_id` };

  if (Object.hasOwn(TOOL_EVENTS, eventName)) {
    const toolName = nonEmpty(payload.tool_name);
    if (toolName === undefined) return { ok: false, message: `Cursor's ${eventName} input has no tool_name` };
    const toolInput = toolInputOf(payload.tool_input);
    if (toolInput === undefined) return { ok: false, message: `Cursor's ${eventName} input has no tool_input` };
    // A command runs where the payload says the agent stands; file tools work from the workspace root.
    const cwd = SHELL_TOOLS.has(toolName) ? (nonEmpty(payload.cwd) ?? root) : (root ?? nonEmpty(payload.cwd));
    const phase = TOOL_EVENTS[eventName];
    // A tool that failed runs the user's PostToolUseFailure hooks, not their PostToolUse ones (as in Claude Code).
    const name = eventName === 'postToolUseFailure' ? 'PostToolUseFailure' : eventName;
    return { ok: true, event: { kind: 'tool', phase, eventName: name, sessionId, cwd, toolName, toolInput, toolUseId: nonEmpty(payload.tool_use_id), fields } };
  }
  if (Object.hasOwn(ACTION_EVENTS, eventName)) {
    // No call id: the generation, the event and its subject identify the call.
    const subject = String(payload.file_path ?? payload.command ?? payload.tool_name ?? '');
    const toolUseId = nonEmpty(payload.generation_id) === undefined ? undefined : `${String(payload.generation_id)}:${eventName}:${subject}`;
    return { ok: true, event: { kind: 'tool', phase: ACTION_EVENTS[eventName], eventName, sessionId, cwd: root, toolName: eventName, toolInput: payload, toolUseId, fields } };
  }
  if (eventName === 'sessionEnd') return { ok: true, event: { kind: 'end', eventName, sessionId, cwd: root, fields } };
  return { ok: true, event: { kind: 'context', eventName, hookEvent: CONTEXT_EVENTS[eventName], sessionId, cwd: root, fields } };
}

// ---------------------------------------------------------------------------------------------------------------
// The tool table

/**
 * Tools that change no workspace file and run nothing the governor could judge: searches, the web, todo lists,
 * lints. `Task` starts a subagent, whose own tool calls come through the hooks like any other.
 */
const PASSTHROUGH = new Set(['Grep', 'Glob', 'LS', 'SemanticSearch', 'WebSearch', 'WebFetch', 'TodoWrite', 'ReadLints', 'Task']);

const PATH_FIELDS = ['file_path', 'path', 'target_file', 'filePath'];
const CONTENT_FIELDS = ['content', 'contents', 'file_text'];
const OLD_FIELDS = ['old_string', 'oldString', 'old_str'];
const NEW_FIELDS = ['new_string', 'newString', 'new_str'];

function refused(reason: string): ToolMapping {
  return { kind: 'refused', reason };
}

function invalid(tool: string, what: string): ToolMapping {
  return refused(`Cursor's ${tool} call has no ${what}, so Intent Governor cannot check it and refuses it.`);
}

/**
 * The one value a field has under the spellings Cursor's tools use. Two spellings with different values are
 * refused: the governor would judge one and the tool might act on the other.
 */
function oneOf(tool: string, input: Record<string, unknown>, names: string[]): { ok: true; value?: string } | { ok: false; mapping: ToolMapping } {
  const present = names.filter((name) => input[name] !== undefined && input[name] !== null);
  const values = new Set(present.map((name) => input[name]));
  if (present.some((name) => typeof input[name] !== 'string') || values.size > 1) {
    return { ok: false, mapping: refused(`Cursor's ${tool} call names ${present.join(' and ')} with different or non-text values, so Intent Governor cannot tell which one the tool uses and refuses it.`) };
  }
  return { ok: true, value: present.length ? (input[present[0]] as string) : undefined };
}

function pathOf(tool: string, input: Record<string, unknown>, place: AgentPlace): { ok: true; path: string } | { ok: false; mapping: ToolMapping } {
  const given = oneOf(tool, input, PATH_FIELDS);
  if (!given.ok) return given;
  if (given.value === undefined || given.value === '') return { ok: false, mapping: invalid(tool, 'file path') };
  return { ok: true, path: fileUriPath(given.value) ?? resolveAgainst(place.cwd, given.value) };
}

/** A word the shell reads back as exactly `value`. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Write / TabWrite {file_path, content}: the whole file; without its text, the path is judged and the trace records what was written. */
function write(tool: string) {
  return (input: Record<string, unknown>, place: AgentPlace): ToolMapping => {
    const path = pathOf(tool, input, place);
    if (!path.ok) return path.mapping;
    const content = oneOf(tool, input, CONTENT_FIELDS);
    if (!content.ok) return content.mapping;
    if (content.value !== undefined) return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: path.path, content: content.value } }] };
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [] }] };
  };
}

/** StrReplace / Edit / MultiEdit {file_path, old_string, new_string, replace_all} or {file_path, edits: [...]}. */
function edit(tool: string) {
  return (input: Record<string, unknown>, place: AgentPlace): ToolMapping => {
    const path = pathOf(tool, input, place);
    if (!path.ok) return path.mapping;
    const one = replacement(tool, input);
    if (!one.ok) return one.mapping;
    if (one.edit && Array.isArray(input.edits)) return refused(`Cursor's ${tool} call has both old_string/new_string and edits, so Intent Governor cannot tell which the tool applies and refuses it.`);
    if (one.edit) return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [one.edit] }] };
    if (Array.isArray(input.edits)) {
      const edits: NativeEdit[] = [];
      for (const entry of input.edits) {
        const each = isRecord(entry) ? replacement(tool, entry) : undefined;
        if (!each?.ok || !each.edit) return invalid(tool, 'edits [{old_string, new_string}]');
        edits.push(each.edit);
      }
      if (edits.length) return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits }] };
    }
    // The new text is worked out when the tool runs: the path is judged now, the trace records the change after.
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [] }] };
  };
}

function replacement(tool: string, input: Record<string, unknown>): { ok: true; edit?: NativeEdit } | { ok: false; mapping: ToolMapping } {
  const search = oneOf(tool, input, OLD_FIELDS);
  if (!search.ok) return search;
  const replace = oneOf(tool, input, NEW_FIELDS);
  if (!replace.ok) return replace;
  if (search.value === undefined && replace.value === undefined) return { ok: true };
  if (search.value === undefined || replace.value === undefined) return { ok: false, mapping: invalid(tool, 'old_string and new_string') };
  return { ok: true, edit: { search: search.value, replace: replace.value, all: input.replace_all === true || input.replaceAll === true } };
}

/** ApplyPatch: a write per added file, a change per updated one; deletions and moves are left to the shell. */
function applyPatch(input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  const text = oneOf('ApplyPatch', input, ['patch', 'input', 'patchText']);
  if (!text.ok) return text.mapping;
  if (text.value === undefined) return invalid('ApplyPatch', 'patch text');
  const parsed = parseCodexPatch(text.value);
  if (!parsed.ok) return refused(`Intent Governor cannot read this ApplyPatch input (${parsed.message}), so it is refused. Send a patch in the '*** Begin Patch' … '*** End Patch' format.`);
  if (parsed.operations.length === 0) return invalid('ApplyPatch', 'file operation');
  const calls: NativeCall[] = [];
  for (const op of parsed.operations) {
    const path = fileUriPath(op.path) ?? resolveAgainst(place.cwd, op.path);
    if (op.kind === 'delete') return refused(`This patch deletes ${op.path}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Leave the deletion out of the patch and delete the file with the Delete tool, which Intent Governor judges.`);
    if (op.kind === 'update' && op.moveTo !== undefined) return refused(`This patch moves ${op.path} to ${op.moveTo}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Rename the file with a shell command (git mv or mv), which Intent Governor judges, then patch it at its new path.`);
    calls.push(op.kind === 'add' ? { tool: 'write_file', input: { path, content: op.content } } : { tool: 'edit_file', input: { path }, edits: [] });
  }
  return { kind: 'governed', calls };
}

/** Cursor's agent tools as preToolUse names them (https://cursor.com/docs/hooks, the preToolUse matchers), each mapped to the governed calls it amounts to. */
const TABLE: Record<string, (input: Record<string, unknown>, place: AgentPlace) => ToolMapping> = {
  /** Shell {command, working_directory?}: runs in its working directory, else where the payload says the agent stands. */
  Shell(input, place) {
    const command = oneOf('Shell', input, ['command']);
    if (!command.ok) return command.mapping;
    if (command.value === undefined || command.value.trim() === '') return invalid('Shell', 'command');
    const dir = oneOf('Shell', input, ['working_directory', 'cwd']);
    if (!dir.ok) return dir.mapping;
    const cwd = dir.value ? (fileUriPath(dir.value) ?? resolveAgainst(place.cwd, dir.value)) : place.cwd;
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command: command.value, cwd } }] };
  },
  Write: write('Write'),
  /** Tab's completions written into a file. */
  TabWrite: write('TabWrite'),
  StrReplace: edit('StrReplace'),
  Edit: edit('Edit'),
  MultiEdit: edit('MultiEdit'),
  ApplyPatch: applyPatch,
  /** Delete {file_path}: judged as the command that does the same, so scope, protected paths and the destructive-command policy apply. */
  Delete(input, place) {
    const path = pathOf('Delete', input, place);
    if (!path.ok) return path.mapping;
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command: `rm -- ${shellWord(path.path)}`, cwd: place.cwd } }] };
  },
  Read(input, place) {
    const path = pathOf('Read', input, place);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'read_file', input: { path: path.path } }] } : path.mapping;
  },
};

function otherServer(name: string): ToolMapping {
  return refused(`'${name}' is a tool of an MCP server other than Intent Governor's: Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). Use Cursor's file and shell tools or the intent-governor MCP tools.`);
}

/** Another server's tool, named with its server: it runs as the plan's mcp_tools allows. */
function foreignTool(name: string, server: string, tool: string): ToolMapping {
  return { kind: 'refused', reason: `'${name}' is a tool of an MCP server other than Intent Governor's ('${server}'): Intent Governor cannot see what it reads or changes, so it is refused unless the plan's mcp_tools allows it (governance fails closed). Use Cursor's file and shell tools or the intent-governor MCP tools.`, foreign: { server, tool } };
}

/**
 * preToolUse names an MCP tool `MCP:<tool>` (the server is not named) or `MCP:<server>:<tool>`. The governor's own
 * tools pass here; beforeMCPExecution, which names the server, refuses another server's tool of the same name.
 * Another server's tool named with its server runs as the plan's mcp_tools allows; without its server no plan
 * rule can be matched, so it is refused, saying so.
 */
function mcpTool(toolName: string): ToolMapping {
  const rest = toolName.slice('MCP:'.length).trim();
  const colon = rest.indexOf(':');
  const server = colon >= 0 ? rest.slice(0, colon).trim() : undefined;
  const tool = colon >= 0 ? rest.slice(colon + 1).trim() : rest;
  if ((server === undefined || server === RESIDENT_SERVER_NAME) && isToolName(tool)) return { kind: 'passthrough' };
  if (server && tool) return foreignTool(toolName, server, tool);
  return unnamedServer(toolName);
}

function unnamedServer(name: string): ToolMapping {
  return refused(`'${name}' is a tool of an MCP server other than Intent Governor's, and Cursor did not name its server here, so no rule of the plan's mcp_tools can be matched to it: refused (governance fails closed). Use Cursor's file and shell tools or the intent-governor MCP tools.`);
}

/** The URL Cursor reaches the governor's MCP server at: loopback, path /mcp (agentConnections writes it into ~/.cursor/mcp.json). */
function isOurUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.pathname === '/mcp';
  } catch {
    return false;
  }
}

/** The command that starts the governor's MCP server over stdio (`node "<cli>" mcp …`, `governor mcp`). */
function isOurLaunch(command: string): boolean {
  return /^(?:node\s+(?:"[^"]+"|\S+)|governor)\s+mcp(?:\s|$)/u.test(command.trim());
}

/**
 * beforeMCPExecution / afterMCPExecution {tool_name, tool_input, url | command, server name}: the server must be
 * the governor's, by its name where Cursor gives one, else by its URL or launch command.
 */
function mcpExecution(event: string, input: Record<string, unknown>): ToolMapping {
  const given = nonEmpty(input.tool_name);
  if (given === undefined) return invalid(event, 'tool_name');
  const tool = given.startsWith('MCP:') ? given.slice('MCP:'.length).trim().split(':').at(-1)?.trim() ?? '' : given;
  const named = nonEmpty(input.server_name) ?? nonEmpty(input.mcp_server_name) ?? nonEmpty(input.server);
  const url = nonEmpty(input.url);
  const command = nonEmpty(input.command);
  const ours = named !== undefined ? named === RESIDENT_SERVER_NAME : url !== undefined ? isOurUrl(url) : command !== undefined && isOurLaunch(command);
  if (ours && isToolName(tool)) return { kind: 'passthrough' };
  if (named !== undefined && tool !== '') return foreignTool(given, named, tool);
  // A server known only by its URL or command has no name a plan could give it.
  return named === undefined && !ours ? unnamedServer(given) : otherServer(given);
}

/** Cursor's first events: the payload is the input. */
function mapActionEvent(event: string, input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  if (event === 'beforeShellExecution' || event === 'afterShellExecution') {
    const command = nonEmpty(input.command);
    if (command === undefined) return invalid(event, 'command');
    const dir = nonEmpty(input.cwd);
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: dir ? (fileUriPath(dir) ?? resolveAgainst(place.cwd, dir)) : place.cwd } }] };
  }
  if (event === 'beforeReadFile') {
    const path = pathOf(event, { file_path: input.file_path }, place);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'read_file', input: { path: path.path } }] } : path.mapping;
  }
  if (event === 'afterFileEdit') {
    const path = pathOf(event, { file_path: input.file_path }, place);
    const edits = Array.isArray(input.edits) ? input.edits.map((e) => (isRecord(e) ? replacement(event, e) : undefined)) : [];
    if (!path.ok || edits.length === 0 || edits.some((e) => !e?.ok || !e.edit)) return invalid(event, 'file_path and edits [{old_string, new_string}]');
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: edits.map((e) => (e as { edit: NativeEdit }).edit) }] };
  }
  return mcpExecution(event, input);
}

function mapTool(toolName: string, toolInput: Record<string, unknown>, place: AgentPlace): ToolMapping {
  if (Object.hasOwn(ACTION_EVENTS, toolName)) return mapActionEvent(toolName, toolInput, place);
  if (toolName.startsWith('MCP:')) return mcpTool(toolName);
  if (PASSTHROUGH.has(toolName)) return { kind: 'passthrough' };
  const map = Object.hasOwn(TABLE, toolName) ? TABLE[toolName] : undefined;
  if (map) return map(toolInput, place);
  return refused(`Intent Governor does not know Cursor's tool '${toolName}', so it is refused (governance fails closed). Use the file and shell tools it governs (Write, StrReplace, Delete, Read, Shell), or the intent-governor MCP tools.`);
}

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** The messages of a block or an ask, in both the documented snake_case and the first docs' camelCase. */
function messages(forUser: string, forAgent: string): Record<string, string> {
  return { user_message: forUser, agent_message: forAgent, userMessage: forUser, agentMessage: forAgent };
}

/** A blocked action: the JSON says deny, exit 2 blocks whatever Cursor makes of the JSON, stderr carries the reason too. */
function blocked(reason: string, extra: Record<string, unknown> = {}): HookReply {
  return { exitCode: 2, stdout: json({ permission: 'deny', ...extra, ...messages(reason, reason) }), stderr: `${reason}\n` };
}

/**
 * A rewritten input Cursor runs: only preToolUse's `updated_input` of a Shell call. Cursor drops it for Write (its
 * forum, 2026-07) and documents none for the before… events, so any other rewrite is refused rather than letting
 * the original input run unjudged.
 */
function rewriteOf(event: Extract<HookEvent, { kind: 'tool' }>, updated: Record<string, unknown>): Record<string, unknown> | undefined {
  if (event.eventName === 'preToolUse' && SHELL_TOOLS.has(event.toolName) && typeof updated.command === 'string') return updated;
  return undefined;
}

function renderPre(event: Extract<HookEvent, { kind: 'tool' }>, answer: BridgeAnswer): HookReply {
  const preToolUse = event.eventName === 'preToolUse';
  // The first preToolUse schema answered {decision, reason}; later ones {permission, user_message, agent_message}.
  const decisionFields = (decision: string, reason?: string) => (preToolUse ? { decision, ...(reason ? { reason } : {}) } : {});
  if (answer.decision === 'deny' || answer.stop !== undefined) {
    const reason = answer.reason ?? answer.stop ?? 'Intent Governor refused this call.';
    return blocked(reason, decisionFields('deny', reason));
  }
  const rewrite = answer.updatedInput ? rewriteOf(event, answer.updatedInput) : undefined;
  if (answer.updatedInput && !rewrite) {
    const reason = `A hook rewrote this ${event.toolName} call and Cursor cannot run the rewritten input, so it is refused. Make the change the hook asked for yourself.`;
    return blocked(reason, decisionFields('deny', reason));
  }
  // beforeReadFile answers allow or deny only.
  if (answer.decision === 'ask' && event.eventName === 'beforeReadFile') {
    const reason = `${answer.reason ?? 'Intent Governor asks a human to approve this read.'} Cursor cannot ask a person before a file read, so it is refused.`;
    return blocked(reason);
  }
  const body: Record<string, unknown> = { permission: answer.decision, ...decisionFields(answer.decision === 'ask' ? 'ask' : 'allow') };
  const forAgent = answer.reason ?? answer.context ?? answer.systemMessage;
  if (forAgent) Object.assign(body, messages(answer.reason ?? answer.systemMessage ?? forAgent, forAgent), preToolUse && answer.reason ? { reason: answer.reason } : {});
  if (rewrite) body.updated_input = rewrite;
  return { exitCode: 0, stdout: json(body), stderr: '' };
}

function renderContext(event: Extract<HookEvent, { kind: 'context' }>, answer: BridgeAnswer): HookReply {
  const refusal = answer.decision === 'deny' ? (answer.reason ?? 'Blocked by a hook.') : undefined;
  switch (event.eventName) {
    case 'sessionStart':
    case 'beforeSubmitPrompt': {
      const stop = refusal ?? answer.stop;
      if (stop !== undefined) return blocked(stop, { continue: false });
      // beforeSubmitPrompt takes no context; sessionStart hands the intent handshake to the model.
      const context = event.eventName === 'sessionStart' ? answer.context : undefined;
      return { exitCode: 0, stdout: json({ continue: true, ...(context ? { additional_context: context } : {}) }), stderr: '' };
    }
    case 'subagentStart':
      if (refusal !== undefined || answer.stop !== undefined) {
        const reason = refusal ?? answer.stop ?? '';
        return blocked(reason, { decision: 'deny', reason });
      }
      return { exitCode: 0, stdout: json({ permission: 'allow', decision: 'allow' }), stderr: '' };
    case 'stop':
    case 'subagentStop':
      // A hook that blocks the stop wants the agent to go on: Cursor's follow-up message does that.
      return { exitCode: 0, stdout: json(refusal !== undefined ? { followup_message: refusal } : {}), stderr: '' };
    default:
      return { exitCode: 0, stdout: json(answer.systemMessage ? { user_message: answer.systemMessage } : {}), stderr: '' };
  }
}

function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind === 'tool' && event.phase === 'pre') return renderPre(event, answer);
  // Cursor takes an empty answer as an invalid one: every answer is a JSON object.
  if (event.kind === 'tool') return { exitCode: 0, stdout: json(event.eventName === 'postToolUse' && answer.context ? { additional_context: answer.context } : {}), stderr: '' };
  if (event.kind === 'context') return renderContext(event, answer);
  if (event.kind === 'end') return { exitCode: 0, stdout: json({}), stderr: '' };
  // Nothing else is parsed from a Cursor payload (an older HookEvent had `other`); whatever reaches here is refused.
  return renderFailure(`Cursor's hook event '${(event as { eventName: string }).eventName}' is not one Intent Governor knows, so it is refused (governance fails closed).`);
}

function renderFailure(reason: string): HookReply {
  const message = `Intent Governor blocked this call: ${reason}`;
  return { exitCode: 2, stdout: json({ permission: 'deny', decision: 'deny', continue: false, reason: message, ...messages(message, message) }), stderr: `${message}\n` };
}

export const cursorDialect: HookDialect = { id: 'cursor', agentName: 'cursor', parse, mapTool, render, renderFailure };
