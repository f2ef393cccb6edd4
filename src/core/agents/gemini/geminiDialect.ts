import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isRecord, mapByTable, missingInput, stringField, unknownEvent, type AgentPlace, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, ToolMapping } from '../common/nativeCall';
import { joinedTool } from '../../approval/mcpToolPattern';
import { RESIDENT_SERVER_NAME } from '../claude/residentHook';
import { replaceCommandField } from '../common/shellConfinement';

/**
 * Gemini CLI's hooks (`hooks` in `.gemini/settings.json`; docs/hooks/reference.md of @google/gemini-cli 0.61):
 * snake_case JSON on stdin (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`; BeforeTool
 * and AfterTool add `tool_name`, `tool_input`, AfterTool `tool_response {llmContent, returnDisplay, error?}`),
 * one JSON object on stdout (`decision: "deny"` + `reason`, `hookSpecificOutput.tool_input`, `additionalContext`,
 * `continue: false`), exit 2 blocks with stderr as the reason. Any other exit code is only a warning to Gemini
 * CLI and the tool runs, so every failure here is an exit 2.
 *
 * Its events in Claude Code's terms, the names user hooks are written for: BeforeTool/AfterTool are
 * PreToolUse/PostToolUse (PostToolUseFailure when the tool reported an error), BeforeAgent is UserPromptSubmit,
 * AfterAgent is Stop, PreCompress is PreCompact; SessionStart, SessionEnd and Notification keep their names.
 * BeforeModel, AfterModel and BeforeToolSelection have no counterpart and get no opinion.
 */
const TOOL_EVENTS: Record<string, 'pre' | 'post'> = { BeforeTool: 'pre', AfterTool: 'post' };
const CONTEXT_EVENTS: Record<string, string> = { SessionStart: 'SessionStart', BeforeAgent: 'UserPromptSubmit', AfterAgent: 'Stop', PreCompress: 'PreCompact', Notification: 'Notification' };
const COMMON_FIELDS = new Set(['session_id', 'cwd', 'hook_event_name', 'tool_name', 'tool_input']);

function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const eventName = payload.hook_event_name;
  if (typeof eventName !== 'string') return { ok: false, message: 'the hook input has no hook_event_name' };
  const sessionId = typeof payload.session_id === 'string' && payload.session_id !== '' ? payload.session_id : undefined;
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  const fields = Object.fromEntries(Object.entries(payload).filter(([key]) => !COMMON_FIELDS.has(key)));
  const phase = Object.hasOwn(TOOL_EVENTS, eventName) ? TOOL_EVENTS[eventName] : undefined;
  if (phase) {
    if (sessionId === undefined) return { ok: false, message: `${eventName} input has no session_id` };
    if (typeof payload.tool_name !== 'string') return { ok: false, message: `${eventName} input has no tool_name` };
    if (!isRecord(payload.tool_input)) return { ok: false, message: `${eventName} input has no tool_input object` };
    // A tool that failed runs the user's PostToolUseFailure hooks, not their PostToolUse ones (as in Claude Code).
    const failed = phase === 'post' && isRecord(payload.tool_response) && payload.tool_response.error !== undefined && payload.tool_response.error !== null;
    // Gemini CLI sends no call id: the hook flow keys the call by a hash of its name and input, the same in both phases.
    return { ok: true, event: { kind: 'tool', phase, eventName: failed ? 'PostToolUseFailure' : eventName, sessionId, cwd, toolName: payload.tool_name, toolInput: payload.tool_input, fields } };
  }
  if (eventName === 'SessionEnd') {
    if (sessionId === undefined) return { ok: false, message: 'SessionEnd input has no session_id' };
    return { ok: true, event: { kind: 'end', eventName, sessionId, cwd, fields } };
  }
  if (Object.hasOwn(CONTEXT_EVENTS, eventName)) {
    return { ok: true, event: { kind: 'context', eventName, hookEvent: CONTEXT_EVENTS[eventName], sessionId: sessionId ?? 'unknown', cwd, fields } };
  }
  return unknownEvent('Gemini CLI', eventName);
}

/**
 * Gemini CLI's built-in tools that change nothing we govern (the list the 0.61 binary offers the model, plus the
 * documented ones it offers in other modes: interactive, plan mode, the experimental tracker, subagents).
 * `invoke_agent` starts a subagent, whose own tool calls come through the hooks like any other;
 * `search_file_content` is grep_search's legacy name.
 */
const PASSTHROUGH = new Set([
  'list_directory', 'glob', 'grep_search', 'search_file_content', 'read_many_files', 'web_fetch', 'google_web_search',
  'update_topic', 'write_todos', 'ask_user', 'enter_plan_mode', 'exit_plan_mode', 'activate_skill', 'get_internal_docs',
  'list_background_processes', 'read_background_output', 'invoke_agent', 'complete_task', 'list_mcp_resources', 'read_mcp_resource',
  'tracker_create_task', 'tracker_update_task', 'tracker_get_task', 'tracker_list_tasks', 'tracker_add_dependency', 'tracker_visualize',
]);

/** Gemini CLI names an MCP tool `mcp_<server>_<tool>`; the governor's own server judges its tools itself. */
const OWN_MCP_PREFIX = `mcp_${RESIDENT_SERVER_NAME}_`;

const invalid = (tool: string, what: string): ToolMapping => missingInput('Gemini CLI', tool, what);

/**
 * A file tool's path as Gemini CLI 0.61 resolves it (resolveDefensiveToolPath): NULs dropped, then against its
 * working directory (the payload's `cwd`); a leading "@" (the prompt's file-reference syntax) is dropped unless a
 * file or folder of that literal name exists. "~" is not expanded: Gemini CLI writes to a folder named "~".
 */
export function geminiToolPath(given: string, cwd: string): string {
  const clean = given.replace(/\0/g, '');
  return resolve(cwd, withoutAtSign(clean, cwd));
}

function withoutAtSign(clean: string, cwd: string): string {
  // A path that does not start with @ is taken as given, without a look at the disk.
  if (!clean.startsWith('@') || clean.length === 1 || existsSync(resolve(cwd, clean))) return clean;
  const stripped = clean.slice(1).replace(/^[\\/]+/, '');
  if (clean.startsWith('@/') || clean.startsWith('@\\')) return stripped || clean;
  const first = stripped.split(/[\\/]/)[0];
  if (!first) return clean;
  return existsSync(resolve(cwd, `@${first}`)) ? clean : stripped;
}

/**
 * `replace` resolves a relative path differently (pathCorrector.correctPath): the file under the working directory
 * if it exists, else any one file in the workspace whose path ends with the given one. That search cannot be
 * judged before it runs, so an edit that would depend on it is refused; creating a new file (empty old_string)
 * lands at the working directory as write_file does.
 */
function replaceTarget(given: string, cwd: string, creates: boolean): { ok: true; path: string } | { ok: false; mapping: ToolMapping } {
  if (isAbsolute(given)) return { ok: true, path: given.replace(/\0/g, '') };
  const clean = withoutAtSign(given.replace(/\0/g, ''), cwd);
  const direct = join(cwd, clean);
  if (creates || existsSync(direct)) return { ok: true, path: resolve(direct) };
  return {
    ok: false,
    mapping: {
      kind: 'refused',
      reason: `Gemini CLI's replace was given the relative path ${JSON.stringify(given)}, and there is no such file under ${cwd}: Gemini CLI would then edit whichever workspace file's path ends with it, which Intent Governor cannot judge in advance, so it is refused. Give the file's absolute path.`,
    },
  };
}

/**
 * Native tool → governed call: write_file→write_file, replace→edit_file (allow_multiple is every occurrence;
 * an empty old_string creates the file, so it is a write_file), run_shell_command→run_command in
 * `dir_path` resolved against the working directory (else the working directory), read_file→read_file.
 */
const TABLE: NativeToolTable = {
  write_file(input, place) {
    const given = stringField(input, 'file_path');
    if (given === undefined || typeof input.content !== 'string') return invalid('write_file', 'file_path and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: geminiToolPath(given, place.cwd), content: input.content } }] };
  },
  replace(input, place) {
    const given = stringField(input, 'file_path');
    if (given === undefined || typeof input.old_string !== 'string' || typeof input.new_string !== 'string') return invalid('replace', 'file_path, old_string and new_string');
    const creates = input.old_string === '';
    const target = replaceTarget(given, place.cwd, creates);
    if (!target.ok) return target.mapping;
    if (creates) return { kind: 'governed', calls: [{ tool: 'write_file', input: { path: target.path, content: input.new_string } }] };
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: target.path }, edits: [{ search: input.old_string, replace: input.new_string, all: input.allow_multiple === true }] }] };
  },
  run_shell_command(input, place) {
    const command = stringField(input, 'command');
    if (command === undefined) return invalid('run_shell_command', 'command');
    const dir = stringField(input, 'dir_path');
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: dir ? resolve(place.cwd, dir) : place.cwd } }] };
  },
  read_file(input, place) {
    const given = stringField(input, 'file_path');
    return given === undefined ? invalid('read_file', 'file_path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path: geminiToolPath(given, place.cwd) } }] };
  },
};

const mapTable = mapByTable('Gemini CLI', PASSTHROUGH, TABLE);

function mapTool(toolName: string, toolInput: Record<string, unknown>, place: AgentPlace): ToolMapping {
  if (toolName.startsWith(OWN_MCP_PREFIX)) return { kind: 'passthrough' };
  if (toolName.startsWith('mcp_')) {
    // `mcp_<server>_<tool>`: Gemini CLI's name does not mark where the server's ends, so it reads every way it splits at a '_'.
    const foreign = joinedTool(toolName.slice('mcp_'.length), '_');
    return { kind: 'refused', reason: `'${toolName}' is a tool of another MCP server: Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). Use Gemini CLI's file and shell tools or the intent-governor tools.`, ...(foreign ? { foreign } : {}) };
  }
  return mapTable(toolName, toolInput, place);
}

const ASK_INSTEAD = 'Gemini CLI cannot hold a call for a person\'s answer in every mode, so it is refused: ask the person to approve it in VS Code (with Intent Governor running there) or to run it themselves.';

const json = (value: unknown) => `${JSON.stringify(value)}\n`;
const joined = (...texts: (string | undefined)[]) => texts.filter((t): t is string => typeof t === 'string' && t !== '').join('\n') || undefined;

/**
 * Gemini CLI merges a hook's `tool_input` over the model's arguments in its documented contract (0.61 replaces
 * them), so a rewrite that drops an argument cannot be carried either way: the names it would leave behind.
 */
function droppedKeys(original: Record<string, unknown>, rewritten: Record<string, unknown>): string[] {
  return Object.keys(original).filter((key) => !Object.hasOwn(rewritten, key));
}

/** The answer in Gemini CLI's words; an allow with nothing to say prints nothing, so its own approval rules still apply. */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  const out: Record<string, unknown> = {};
  const native = event.kind === 'tool' ? (event.phase === 'pre' ? 'BeforeTool' : 'AfterTool') : event.eventName;
  const specific: Record<string, unknown> = { hookEventName: native };
  let systemMessage = answer.systemMessage;
  if (event.kind === 'tool' && event.phase === 'pre') {
    if (answer.updatedInput && answer.decision !== 'deny') {
      const dropped = droppedKeys(event.toolInput, answer.updatedInput);
      if (dropped.length) {
        const reason = `A hook rewrote this ${event.toolName} call without ${dropped.join(', ')}, and Gemini CLI keeps arguments a hook leaves out, so it cannot run the rewrite: refused. Make the change the hook asked for yourself.`;
        return { exitCode: 0, stdout: json({ decision: 'deny', reason }), stderr: '' };
      }
      specific.tool_input = answer.updatedInput;
    }
    if (answer.decision === 'deny') Object.assign(out, { decision: 'deny', reason: answer.reason ?? 'Intent Governor refused this call.' });
    // Gemini CLI 0.61 takes a hook's "ask" to its confirmation dialog, and headless (-p) it waits for an answer
    // that never comes: the agent hangs. So a call that needs a person is refused, saying who can approve it.
    else if (answer.decision === 'ask') Object.assign(out, { decision: 'deny', reason: `${answer.reason ?? 'Intent Governor asks a human to approve this call.'} ${ASK_INSTEAD}` });
    else if (specific.tool_input) out.decision = 'allow';
    // BeforeTool has no channel to the model but its reason: other context is for the person.
    systemMessage = joined(systemMessage, answer.context);
  } else if (event.kind === 'tool' || event.eventName === 'SessionStart' || event.eventName === 'BeforeAgent') {
    // AfterTool appends this to the tool's result; SessionStart and BeforeAgent add it to the prompt.
    if (answer.context) specific.additionalContext = answer.context;
    if (answer.decision === 'deny' && event.eventName !== 'SessionStart') Object.assign(out, { decision: 'deny', reason: answer.reason ?? 'Blocked by a hook.' });
  } else if (event.eventName === 'AfterAgent' && answer.decision === 'deny') {
    // The reason goes back to the model as a new prompt: the turn goes on, as a Stop hook's block does in Claude Code.
    Object.assign(out, { decision: 'deny', reason: answer.reason ?? 'Blocked by a hook.' });
    systemMessage = joined(systemMessage, answer.context);
  } else {
    // SessionEnd, Notification, PreCompress: advisory events, nothing reaches the model.
    systemMessage = joined(systemMessage, answer.context, answer.decision === 'deny' ? answer.reason : undefined);
  }
  if (answer.stop !== undefined) Object.assign(out, { continue: false, stopReason: answer.stop });
  if (systemMessage) out.systemMessage = systemMessage;
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

function renderFailure(reason: string): HookReply {
  return { exitCode: 2, stdout: '', stderr: `Intent Governor blocked this call: ${reason}\n` };
}

// run_shell_command runs a BeforeTool allow's tool_input (verified with 0.61.0, test/agents/geminiConfinedShell.agent.test.ts).
const confineShell = replaceCommandField({ run_shell_command: 'command' });

export const geminiDialect: HookDialect = { id: 'gemini', agentName: 'gemini-cli', parse, mapTool, render, renderFailure, confineShell };
