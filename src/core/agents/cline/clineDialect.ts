import { codexDialect } from '../codex/codexDialect';
import { isRecord, mapByTable, missingInput, resolveAgainst, stringField, unknownEvent, type AgentPlace, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, NativeCall, NativeEdit, ToolMapping } from '../common/nativeCall';
import { RESIDENT_SERVER_NAME } from '../claude/residentHook';
import { isToolName } from '../../tools/toolName';

/**
 * Cline's hook files (the `cline` CLI 3.0.65 and its @cline/core 0.0.86, verified against the binary): an
 * executable per event in `<workspace>/.clinerules/hooks/` (`PreToolUse`, `PostToolUse`, `TaskStart`, …, any of
 * the extensions .sh .js .py … or none), JSON on stdin, JSON on stdout. The payload names its event in
 * `hookName` (`tool_call`, `tool_result`, `agent_start`, `session_shutdown`, …), carries the tool's real input
 * in `tool_call.input` / `tool_result.input` (the legacy `preToolUse.parameters` has every value stringified),
 * the conversation in `taskId`, the session in `sessionContext.rootSessionId` and the workspace in
 * `workspaceRoots[0]` (the git root). The tools resolve relative paths and run commands in the session's working
 * directory, which is not in the payload but is the hook process's own: started in a subfolder, Cline runs
 * `pwd` there while `workspaceRoots[0]` names the root (verified). So the event carries no cwd and the hook's
 * working directory is used.
 *
 * What the model is offered (its first request): read_files, search_codebase, fetch_web_content, ask_question,
 * skills and submit_and_exit change no file (passed through); run_commands {commands: [...]} runs each string
 * from the working directory; editor {path, old_text?, new_text, insert_line?} creates, replaces or inserts; GPT
 * models get apply_patch {input} (Codex's patch grammar) instead of editor. spawn_agent and the team_* tools
 * start other agents: refused (see SUBAGENT_REASON). The names of the Cline VS Code extension's tools
 * (write_to_file, replace_in_file, execute_command, …) are mapped too, for hooks written against it.
 */
const PASSTHROUGH = new Set([
  'read_files', 'search_codebase', 'fetch_web_content', 'ask_question', 'skills', 'submit_and_exit',
  // The extension's read-only and conversational tools.
  'read_file', 'list_files', 'search_files', 'list_code_definition_names', 'ask_followup_question', 'attempt_completion',
  'plan_mode_respond', 'load_mcp_documentation', 'web_fetch', 'web_search', 'focus_chain', 'new_task', 'condense', 'summarize_task', 'report_bug',
]);

const SUBAGENT_REASON =
  'starts another agent whose work Intent Governor cannot follow through Cline\'s hook files, so it is refused (governance fails closed). Do the work yourself with run_commands and the editor or apply_patch tool, which Intent Governor judges.';

const invalid = (tool: string, what: string): ToolMapping => missingInput('Cline', tool, what);

function run(tool: string, commands: unknown, place: AgentPlace): ToolMapping {
  const list = typeof commands === 'string' ? [commands] : Array.isArray(commands) && commands.every((c) => typeof c === 'string') ? (commands as string[]) : undefined;
  if (!list || list.length === 0) return invalid(tool, 'command');
  return { kind: 'governed', calls: list.map((command) => ({ tool: 'run_command', input: { command, cwd: place.cwd } })) };
}

/** `editor`: create when there is nothing to replace and no line to insert at, else an edit judged on its path. */
function editor(input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  const path = stringField(input, 'path');
  if (path === undefined) return invalid('editor', 'path');
  if (typeof input.new_text !== 'string') return invalid('editor', 'new_text');
  const absolute = resolveAgainst(place.cwd, path);
  if (typeof input.insert_line === 'number') return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: absolute }, edits: [] }] };
  if (typeof input.old_text === 'string' && input.old_text !== '') {
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: absolute }, edits: [{ search: input.old_text, replace: input.new_text, all: false }] }] };
  }
  // Cline's editor creates the file with new_text when it does not exist and refuses to overwrite one that does.
  return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: absolute, content: input.new_text } }] };
}

// The extension writes `------- SEARCH` … `=======` … `+++++++ REPLACE`; it still reads the older `<<<<<<<` / `>>>>>>>` markers.
const BLOCK = /^(?:-{3,}|<{3,}) ?SEARCH>?[ \t]*\n([\s\S]*?)\n?^={3,}[ \t]*\n([\s\S]*?)\n?^(?:\+{3,}|>{3,}) ?REPLACE>?[ \t]*$/gmu;

/** replace_in_file's `diff`: SEARCH/REPLACE blocks, each an edit of the first match; a diff with none is refused. */
export function searchReplaceBlocks(diff: string): NativeEdit[] {
  return [...diff.replace(/\r\n/gu, '\n').matchAll(BLOCK)].map((m) => ({ search: m[1], replace: m[2], all: false }));
}

const TABLE: NativeToolTable = {
  run_commands: (input, place) => run('run_commands', input.commands, place),
  editor,
  // Codex's grammar, paths relative to the workspace root, where Cline applies them.
  apply_patch: (input, place) => codexDialect.mapTool('apply_patch', input, place),
  spawn_agent: () => ({ kind: 'refused', reason: `spawn_agent ${SUBAGENT_REASON}` }),
  execute_command: (input, place) => run('execute_command', input.command, place),
  write_to_file(input, place) {
    const path = stringField(input, 'path');
    const content = stringField(input, 'content');
    if (path === undefined) return invalid('write_to_file', 'path');
    if (content === undefined) return invalid('write_to_file', 'content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: resolveAgainst(place.cwd, path), content } }] };
  },
  replace_in_file(input, place) {
    const path = stringField(input, 'path');
    const diff = stringField(input, 'diff');
    if (path === undefined) return invalid('replace_in_file', 'path');
    if (diff === undefined) return invalid('replace_in_file', 'diff');
    const edits = searchReplaceBlocks(diff);
    if (edits.length === 0) {
      return { kind: 'refused', reason: "Intent Governor cannot find a SEARCH/REPLACE block in this replace_in_file diff, so it is refused. Send blocks as '------- SEARCH' … '=======' … '+++++++ REPLACE'." };
    }
    const call: NativeCall = { tool: 'edit_file', input: { path: resolveAgainst(place.cwd, path) }, edits };
    return { kind: 'governed', calls: [call] };
  },
  browser_action: () => ({ kind: 'refused', reason: 'browser_action drives a browser Intent Governor cannot see, so it is refused (governance fails closed). Use run_commands for what you need to check.' }),
  use_mcp_tool: mcpTool,
};

/**
 * The extension's use_mcp_tool {server_name, tool_name, arguments} names the server and the tool apart: the
 * governor's own server judges its tools itself, another server's run as the plan's mcp_tools allows.
 */
function mcpTool(input: Record<string, unknown>): ToolMapping {
  const server = stringField(input, 'server_name');
  const tool = stringField(input, 'tool_name');
  if (!server || !tool) return invalid('use_mcp_tool', 'server_name and tool_name');
  if (server === RESIDENT_SERVER_NAME && isToolName(tool)) return { kind: 'passthrough' };
  return { kind: 'refused', reason: `'${tool}' is a tool of another MCP server ('${server}'): Intent Governor cannot see what it reads or changes, so it is refused unless the plan's mcp_tools allows it (governance fails closed). Use run_commands and the editor, or the intent-governor tools.`, foreign: { server, tool } };
}

const mapTable = mapByTable('Cline', PASSTHROUGH, TABLE);

/** Cline's hook names: the ones of its hook files' payloads and the file names they come from. */
const PRE = new Set(['tool_call', 'PreToolUse']);
const POST = new Set(['tool_result', 'PostToolUse']);
const END = new Set(['session_shutdown', 'SessionShutdown']);
const CONTEXT: Record<string, string> = {
  agent_start: 'SessionStart', TaskStart: 'SessionStart', agent_resume: 'SessionStart', TaskResume: 'SessionStart',
  prompt_submit: 'UserPromptSubmit', UserPromptSubmit: 'UserPromptSubmit',
  agent_end: 'Stop', TaskComplete: 'Stop', agent_abort: 'Stop', TaskCancel: 'Stop', agent_error: 'Stop', TaskError: 'Stop', PreCompact: 'PreCompact',
};

/** `preToolUse.parameters` has each value as a string, JSON for anything but a string: turned back into values. */
function parameters(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (typeof v !== 'string') return [key, v];
      try {
        const parsed: unknown = JSON.parse(v);
        return [key, typeof parsed === 'object' && parsed !== null ? parsed : v];
      } catch {
        return [key, v];
      }
    }),
  );
}

function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const hookName = payload.hookName;
  if (typeof hookName !== 'string') return { ok: false, message: 'the hook input has no hookName' };
  const context = isRecord(payload.sessionContext) ? payload.sessionContext : {};
  const sessionId = [context.rootSessionId, payload.taskId].find((v): v is string => typeof v === 'string' && v !== '');
  const { hookName: _n, sessionContext: _c, ...fields } = payload;
  if (PRE.has(hookName) || POST.has(hookName)) {
    if (sessionId === undefined) return { ok: false, message: `${hookName} input has no taskId` };
    const call = isRecord(payload.tool_call) ? payload.tool_call : isRecord(payload.tool_result) ? payload.tool_result : {};
    const legacy = isRecord(payload.preToolUse) ? payload.preToolUse : isRecord(payload.postToolUse) ? payload.postToolUse : {};
    const toolName = typeof call.name === 'string' ? call.name : legacy.toolName;
    if (typeof toolName !== 'string') return { ok: false, message: `${hookName} input has no tool name` };
    const toolInput = isRecord(call.input) ? call.input : parameters(legacy.parameters);
    if (!toolInput) return { ok: false, message: `${hookName} input has no tool input object` };
    const pre = PRE.has(hookName);
    const failed = !pre && (typeof call.error === 'string' || legacy.success === false);
    const toolUseId = typeof call.id === 'string' ? call.id : undefined;
    return { ok: true, event: { kind: 'tool', phase: pre ? 'pre' : 'post', eventName: pre ? 'PreToolUse' : failed ? 'PostToolUseFailure' : 'PostToolUse', sessionId, toolName, toolInput, toolUseId, fields } };
  }
  if (END.has(hookName)) {
    if (sessionId === undefined) return { ok: false, message: `${hookName} input has no taskId` };
    return { ok: true, event: { kind: 'end', eventName: hookName, sessionId, fields } };
  }
  const hookEvent = Object.hasOwn(CONTEXT, hookName) ? CONTEXT[hookName] : undefined;
  if (hookEvent) return { ok: true, event: { kind: 'context', eventName: hookName, hookEvent, sessionId: sessionId ?? 'unknown', fields } };
  return unknownEvent('Cline', hookName);
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * Cline's hook answer: `{cancel, errorMessage, contextModification, overrideInput}`. `cancel: true` is the only
 * refusal a hook file can give, and it ends the whole task (Cline 3.0.65 turns it into a stop, not a skipped
 * tool), with the reason as the task's error; so a deny, and an ask (a hook cannot ask a person), cancel the
 * task. An allow with a rewritten input runs `overrideInput`. Context goes in `contextModification`, which Cline
 * gives the model on its next turn.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  const out: Record<string, unknown> = {};
  const refused = event.kind === 'tool' && event.phase === 'pre' && answer.decision !== 'allow';
  if (answer.stop !== undefined || refused || (answer.decision === 'deny' && event.kind !== 'end')) {
    const reason = answer.stop ?? answer.reason ?? 'Intent Governor refused this call.';
    const asked = answer.decision === 'ask' && answer.stop === undefined;
    out.cancel = true;
    out.errorMessage = asked ? `${reason.trimEnd()} Cline cannot ask a person from a hook, so the task is stopped: approve the change in VS Code or make it yourself, then resume.` : reason;
  } else {
    if (event.kind === 'tool' && event.phase === 'pre' && answer.updatedInput) out.overrideInput = answer.updatedInput;
    const context = [answer.context, answer.systemMessage].filter(Boolean).join('\n');
    if (context) out.contextModification = context;
  }
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

export const clineDialect: HookDialect = {
  id: 'cline',
  agentName: 'cline',
  parse,
  mapTool(toolName, toolInput, place) {
    if (toolName.startsWith('team_')) return { kind: 'refused', reason: `${toolName} ${SUBAGENT_REASON}` };
    return mapTable(toolName, toolInput, place);
  },
  render,
  // Cline runs the tool when a hook prints no JSON, crashes or times out: a failure is a cancel in JSON, exit 0.
  renderFailure: (reason) => ({ exitCode: 0, stdout: json({ cancel: true, errorMessage: `Intent Governor blocked this call: ${reason}` }), stderr: '' }),
};
