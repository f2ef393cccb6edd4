import { patchCalls } from '../common/patchCalls';
import { isRecord, mapByTable, missingInput, resolveAgainst, stringField, unknownEvent, type AgentPlace, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, NativeEdit, ToolMapping } from '../common/nativeCall';
import { joinedTool } from '../../approval/mcpToolPattern';
import { RESIDENT_SERVER_NAME } from '../claude/residentHook';

/**
 * OpenCode (npm opencode-ai, verified against 1.18.33). Its hooks are plugins, so the payload is the one our plugin
 * (opencodePlugin.ts) sends on stdin: OpenCode's own names for what its `tool.execute.before` / `after` hooks get,
 * `{event, sessionID, callID, tool, args, directory, worktree, result?}`; also `session.start` (the plugin's own,
 * before a session's first model request: the answer's context joins its system prompt) and `session.deleted`.
 * `directory` is the project directory OpenCode runs in: it resolves every relative filePath, bash `workdir` and
 * apply_patch path against it.
 *
 * What the model is offered (its first request) and what each amounts to:
 * - write {filePath, content}, edit {filePath, oldString, newString, replaceAll}: governed write and edit; an edit
 *   with an empty oldString creates the file with newString (OpenCode refuses it on an existing file): judged as a write.
 * - apply_patch {patchText} replaces edit and write for GPT models ("gpt-" but not gpt-4 or oss); the same patch
 *   format as Codex: a write per added file, an edit per updated one, deletions and moves refused.
 * - bash {command, workdir}: run_command in workdir. read {filePath}: read_file.
 * - glob, grep, todowrite, webfetch, skill (loads a skill's text), task (a subagent, whose own tool calls come
 *   through the plugin) change nothing: passed through, as are the tools behind flags or other clients (question,
 *   websearch, lsp, plan_exit) and `invalid` (what OpenCode calls when the model names a tool it lacks).
 * - list, multiedit, patch, todoread: tools of earlier versions, mapped the same way should one come back.
 * - execute (experimental code mode) runs other MCP servers' tools inside one script: refused. Other MCP servers'
 *   tools (`<server>_<tool>`; the governor's own pass) run as the plan's mcp_tools allows; the custom tools of other
 *   plugins or .opencode/tools, which we cannot see into, are refused, or read as `<server>_<tool>` when their
 *   name holds a '_' (a plan that names them so allows them too).
 */
const PASSTHROUGH = new Set(['glob', 'grep', 'list', 'todowrite', 'todoread', 'webfetch', 'websearch', 'codesearch', 'skill', 'task', 'question', 'lsp', 'plan_enter', 'plan_exit', 'invalid']);

/** OpenCode names an MCP tool `<server>_<tool>`, the server's name as configured (verified with 1.18.33). */
const OWN_MCP_PREFIX = `${RESIDENT_SERVER_NAME}_`;

const invalid = (tool: string, what: string): ToolMapping => missingInput('OpenCode', tool, what);

function filePath(input: Record<string, unknown>, place: AgentPlace): string | undefined {
  const path = stringField(input, 'filePath');
  return path === undefined ? undefined : resolveAgainst(place.cwd, path);
}

function edit(value: unknown): NativeEdit | undefined {
  if (!isRecord(value) || typeof value.oldString !== 'string' || typeof value.newString !== 'string') return undefined;
  return { search: value.oldString, replace: value.newString, all: value.replaceAll === true };
}

/** apply_patch {patchText} (and the older `patch`): a write per added file, an edit per updated one (patchCalls). */
function applyPatch(tool: string) {
  return (input: Record<string, unknown>, place: AgentPlace): ToolMapping => patchCalls(input, { agent: 'OpenCode', tool, textFields: ['patchText'], resolve: (path) => resolveAgainst(place.cwd, path), shell: 'bash' });
}

/** OpenCode's tools by their ids, each mapped to the governed calls it amounts to. */
const TABLE: NativeToolTable = {
  write(input, place) {
    const path = filePath(input, place);
    if (path === undefined || typeof input.content !== 'string') return invalid('write', 'filePath and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.content } }] };
  },
  edit(input, place) {
    const path = filePath(input, place);
    const one = edit(input);
    if (path === undefined || !one) return invalid('edit', 'filePath, oldString and newString');
    if (one.search === '') return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: one.replace } }] };
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: [one] }] };
  },
  multiedit(input, place) {
    const path = filePath(input, place);
    const edits = Array.isArray(input.edits) ? input.edits.map(edit) : [];
    if (path === undefined || edits.length === 0 || edits.some((e) => e === undefined || e.search === '')) return invalid('multiedit', 'filePath and edits with a non-empty oldString');
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: edits as NativeEdit[] }] };
  },
  apply_patch: applyPatch('apply_patch'),
  patch: applyPatch('patch'),
  bash(input, place) {
    const command = stringField(input, 'command');
    if (command === undefined) return invalid('bash', 'command');
    const workdir = stringField(input, 'workdir');
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: workdir === undefined || workdir === '' ? place.cwd : resolveAgainst(place.cwd, workdir) } }] };
  },
  read(input, place) {
    const path = filePath(input, place);
    return path === undefined ? invalid('read', 'filePath') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
  },
  execute() {
    return { kind: 'refused', reason: "OpenCode's execute tool runs other MCP servers' tools inside a script Intent Governor cannot see into, so it is refused (governance fails closed). Call the tools one at a time, or use OpenCode's file and bash tools." };
  },
};

const mapTable = mapByTable('OpenCode', PASSTHROUGH, TABLE);

const EVENTS: Record<string, 'pre' | 'post'> = { 'tool.execute.before': 'pre', 'tool.execute.after': 'post' };

function parse(payload: unknown): { ok: true; event: HookEvent } | { ok: false; message: string } {
  if (!isRecord(payload)) return { ok: false, message: 'the OpenCode plugin input is not a JSON object' };
  const { event, sessionID, callID, tool, args, directory, ...rest } = payload;
  if (typeof event !== 'string') return { ok: false, message: 'the OpenCode plugin input has no event' };
  if (typeof sessionID !== 'string' || sessionID === '') return { ok: false, message: `the OpenCode plugin input for ${event} has no sessionID` };
  if (typeof directory !== 'string' || directory === '') return { ok: false, message: `the OpenCode plugin input for ${event} has no directory` };
  if (event === 'session.deleted') return { ok: true, event: { kind: 'end', eventName: event, sessionId: sessionID, cwd: directory, fields: rest } };
  // The plugin's own event, sent once per session before the model's first request: the intent handshake.
  if (event === 'session.start') return { ok: true, event: { kind: 'context', eventName: event, hookEvent: 'SessionStart', sessionId: sessionID, cwd: directory, fields: { source: 'startup', ...rest } } };
  const phase = EVENTS[event];
  if (!phase) return unknownEvent('OpenCode', event);
  if (typeof tool !== 'string' || tool === '') return { ok: false, message: `the OpenCode plugin input for ${event} has no tool` };
  if (!isRecord(args)) return { ok: false, message: `the OpenCode plugin input for ${event} has no args object` };
  const fields: Record<string, unknown> = { ...rest };
  // User hooks written for Claude Code's names read the tool's result as tool_response.
  if (phase === 'post' && rest.result !== undefined) fields.tool_response = rest.result;
  return { ok: true, event: { kind: 'tool', phase, eventName: event, sessionId: sessionID, cwd: directory, toolName: tool, toolInput: args, toolUseId: typeof callID === 'string' && callID !== '' ? callID : undefined, fields } };
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * The plugin's answer, one JSON line: `{decision: "allow", args?, context?}` runs the tool (with the rewritten
 * args), `{decision: "deny", reason}` makes the plugin throw, which OpenCode reports to the model as the tool's
 * error. A plugin cannot ask a person, so "ask" and a hook's stop are refusals that say what to do instead.
 * After a tool ran, `context` (and a post hook's reason) is appended to the output the model reads.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind === 'tool' && event.phase === 'pre' && (answer.decision !== 'allow' || answer.stop !== undefined)) {
    const asked = (answer.reason ?? 'Intent Governor asks a person to approve this call.').trimEnd();
    const reason =
      answer.decision === 'ask'
        ? `${asked}${/[.!?]$/u.test(asked) ? '' : '.'} OpenCode cannot ask a person from a plugin, so the call is refused: ask the person to approve it in VS Code or to make this change themselves, or do something that needs no approval.`
        : (answer.reason ?? answer.stop ?? 'Intent Governor refused this call.');
    return { exitCode: 0, stdout: json({ decision: 'deny', reason }), stderr: '' };
  }
  const notes = [answer.context, event.kind === 'tool' && event.phase === 'post' && answer.decision !== 'allow' ? answer.reason : undefined, answer.stop].filter((text): text is string => typeof text === 'string' && text !== '');
  const out: Record<string, unknown> = { decision: 'allow' };
  if (event.kind === 'tool' && event.phase === 'pre' && answer.updatedInput) out.args = answer.updatedInput;
  if (notes.length) out.context = notes.join('\n');
  if (answer.systemMessage) out.systemMessage = answer.systemMessage;
  return { exitCode: 0, stdout: json(out), stderr: '' };
}

export const opencodeDialect: HookDialect = {
  id: 'opencode',
  agentName: 'opencode',
  parse,
  mapTool(toolName, toolInput, place) {
    if (toolName.startsWith(OWN_MCP_PREFIX)) return { kind: 'passthrough' };
    // Another server's `<server>_<tool>` runs as the plan's mcp_tools allows every way the name splits at a '_'.
    const foreign = PASSTHROUGH.has(toolName) || Object.hasOwn(TABLE, toolName) ? undefined : joinedTool(toolName, '_');
    if (foreign) return { kind: 'refused', reason: `'${toolName}' is a tool of another MCP server (or another plugin): Intent Governor cannot see what it reads or changes, so it is refused unless the plan's mcp_tools allows it (governance fails closed). Use OpenCode's file and bash tools or the intent-governor tools.`, foreign };
    return mapTable(toolName, toolInput, place);
  },
  render,
  // The plugin throws on anything but a readable allow: the reason travels in both streams.
  renderFailure: (reason) => ({ exitCode: 2, stdout: json({ decision: 'deny', reason: `Intent Governor blocked this call: ${reason}` }), stderr: `Intent Governor blocked this call: ${reason}\n` }),
};
