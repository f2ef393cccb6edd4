import { claudeStyleMapTool, parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from '../common/claudeStyleProtocol';
import { isRecord, mapByTable, missingInput, resolveAgainst, stringField, unknownEvent, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, ToolMapping } from '../common/nativeCall';

/**
 * Qwen Code's hooks (`hooks` in `.qwen/settings.json`; @qwen-code/qwen-code 0.24.4) speak Claude Code's protocol:
 * snake_case JSON on stdin (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`,
 * `permission_mode`, `prompt_id`; tool events add `tool_name`, `tool_input`, `tool_use_id` (the same in the pre and
 * the post of one call) and `tool_call_id`; inside a subagent every event adds `agent_id`), one JSON object on
 * stdout (`hookSpecificOutput.permissionDecision` deny/ask, or a top-level `decision: "deny"`/`"block"`), exit 2
 * blocks with stderr as the reason. Seen with the 0.24.4 binary (test/agents/qwen.agent.test.ts): exit 2 with
 * nothing on stderr, any other non-zero exit, a crash and a timeout all let the tool run, so every failure here is
 * an exit 2 with a reason; headless (-p), an "ask" is refused with its reason, interactive it goes to Qwen Code's
 * confirmation dialog, and the call it runs once approved is the one the hook saw.
 *
 * The events it shares with Claude Code are read as Claude Code's; the ones only Qwen Code has (MessageDisplay,
 * StopFailure, SessionDelete, TodoCreated, TodoCompleted, UserPromptExpansion, PostToolBatch, …) are not installed,
 * and arrive as unknown events: refused.
 */
const EVENTS = new Set([
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop',
  'SubagentStart', 'SubagentStop', 'PermissionRequest', 'PermissionDenied', 'PreCompact', 'Notification',
]);

function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (isRecord(payload) && typeof payload.hook_event_name === 'string' && !EVENTS.has(payload.hook_event_name)) return unknownEvent('Qwen Code', payload.hook_event_name);
  return parseClaudeStyle(payload);
}

/**
 * Qwen Code's built-in tools that change nothing we govern: the 0.24.4 binary's tool list (offered to the model,
 * or deferred behind tool_search) and its read-only relatives. `agent` starts a subagent and `tool_call` runs a
 * deferred tool: the calls they make fire PreToolUse under their own names (seen with the binary), so they are
 * judged there. Not here, so refused as unknown: tools that write or run something the hooks cannot see
 * (`monitor` runs a command, `enter_worktree`/`exit_worktree` make and remove git worktrees, `save_memory`,
 * `cron_create`/`cron_delete`/`loop_wakeup`, `record_artifact`, `image_gen`, `exec`, the team tools).
 */
const PASSTHROUGH = new Set([
  'glob', 'grep_search', 'search_file_content', 'list_directory', 'web_fetch', 'web_search', 'todo_write', 'agent', 'task',
  'list_agents', 'task_stop', 'task_list', 'task_create', 'task_update', 'send_message', 'skill', 'tool_search', 'tool_call',
  'get_goal', 'update_goal', 'propose_goal', 'report_findings', 'ask_user_question', 'enter_plan_mode', 'exit_plan_mode',
  'zoom_image', 'display_image', 'read_mcp_resource', 'structured_output', 'lsp', 'cron_list',
]);

const invalid = (tool: string, what: string): ToolMapping => missingInput('Qwen Code', tool, what);

/**
 * Qwen Code's file tools take absolute paths only (a relative one fails before any hook runs: "File path must be
 * absolute"); one that reached the hook anyway is resolved against the working directory, "~" left as given
 * (the canonicaliser refuses it).
 */
function filePath(input: Record<string, unknown>, field: string, cwd: string): string | undefined {
  const path = stringField(input, field);
  return path === undefined ? undefined : resolveAgainst(cwd, path);
}

/**
 * Native tool → governed call: write_file→write_file, edit→edit_file (replace_all is every occurrence; an empty
 * old_string creates the file, so it is a write_file), run_shell_command→run_command in `directory` (absolute, as
 * Qwen Code requires) or the working directory, read_file→read_file. notebook_edit changes a notebook cell by id,
 * which cannot be judged as a file change before it runs: refused, naming what to use instead.
 */
const TABLE: NativeToolTable = {
  write_file(input, place) {
    const path = filePath(input, 'file_path', place.cwd);
    if (path === undefined || typeof input.content !== 'string') return invalid('write_file', 'file_path and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.content } }] };
  },
  edit(input, place) {
    const path = filePath(input, 'file_path', place.cwd);
    if (path === undefined || typeof input.old_string !== 'string' || typeof input.new_string !== 'string') return invalid('edit', 'file_path, old_string and new_string');
    if (input.old_string === '') return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.new_string } }] };
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: [{ search: input.old_string, replace: input.new_string, all: input.replace_all === true }] }] };
  },
  run_shell_command(input, place) {
    const command = stringField(input, 'command');
    if (command === undefined) return invalid('run_shell_command', 'command');
    const dir = stringField(input, 'directory');
    return { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: dir ? resolveAgainst(place.cwd, dir) : place.cwd } }] };
  },
  read_file(input, place) {
    const path = filePath(input, 'file_path', place.cwd);
    return path === undefined ? invalid('read_file', 'file_path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
  },
  notebook_edit() {
    return { kind: 'refused', reason: "Qwen Code's notebook_edit changes a notebook cell by its id, which Intent Governor cannot judge as a file change before it runs, so it is refused. Write the whole notebook with write_file instead." };
  },
};

const mapTable = mapByTable('Qwen Code', PASSTHROUGH, TABLE);

const mapTool = claudeStyleMapTool("Qwen Code's file and shell tools", mapTable);

/**
 * Claude's answers, but a PreToolUse answer that rewrites the call is refused: Qwen Code 0.24.4 runs the model's
 * input whatever a hook returns (`updatedInput` and `tool_input` alike, seen with the binary), so the call that
 * would run is not the one that was judged.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind === 'tool' && event.phase === 'pre' && answer.decision !== 'deny' && answer.updatedInput) {
    const reason = `A hook rewrote this ${event.toolName} call, and Qwen Code runs a call as the model sent it whatever a hook returns, so the rewrite cannot run: refused. Make the change the hook asked for yourself.`;
    return renderClaudeStyle(event, { ...answer, decision: 'deny', reason, updatedInput: undefined });
  }
  return renderClaudeStyle(event, answer);
}

export const qwenDialect: HookDialect = { id: 'qwen', agentName: 'qwen-code', parse, mapTool, render, renderFailure: renderClaudeStyleFailure };
