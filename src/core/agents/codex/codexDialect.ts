import { claudeStyleMapTool, parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from '../common/claudeStyleProtocol';
import { patchCalls } from '../common/patchCalls';
import { replaceCommandField } from '../common/shellConfinement';
import { mapByTable, missingInput, resolveAgainst, stringField, type AgentPlace, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, ToolMapping } from '../common/nativeCall';

/**
 * OpenAI Codex CLI's hooks (https://developers.openai.com/codex/hooks, verified against codex-cli 0.169.0):
 * `.codex/hooks.json`, command hooks only, Claude Code's payload fields (snake_case `session_id`, `cwd`,
 * `hook_event_name`, `tool_name`, `tool_input`, `tool_use_id`, plus `turn_id`, `model`, `permission_mode`,
 * `transcript_path`) and answers, with Codex's own limits on the answer (see `render`).
 *
 * What the model is offered (its first request) and what a hook sees of each:
 * - exec_command {cmd, workdir, …} reaches hooks as `Bash` {command}; the payload's `cwd` is the command's
 *   working directory (its `workdir` already applied), so the command is judged there.
 * - apply_patch (a freeform tool: the patch text) reaches hooks as `apply_patch` {command: patch}; paths in the
 *   patch are relative to the payload's `cwd` (the session's working directory). Each file it touches is judged.
 * - view_image {path} reads a file into the model's context: judged as a read of that path.
 * - write_stdin (keystrokes into a running exec_command session) fires no hook in 0.169.0; the entry below
 *   refuses it should a later version send it.
 * - request_user_input, get_goal/create_goal/update_goal, tool_search, web_search (run by the model's server),
 *   update_plan and the subagent tools (namespace multi_agent_v1, or collaboration with [features] multi_agent_v2;
 *   hooks get `spawn_agent` or `multi_agent_v1wait_agent`) change no file: passed through. A subagent's own tool
 *   calls come through the hooks.
 * - Tools behind features still in development (request_permissions, code mode's exec/wait) are not in the table:
 *   refused as unknown, like any tool a later version adds.
 * - MCP tools arrive as `mcp__<server>__<tool>`: the governor's own pass, any other server's are refused unless a plan's mcp_tools names it.
 */
const SUBAGENT_TOOLS: Record<string, string[]> = {
  multi_agent_v1: ['spawn_agent', 'send_input', 'resume_agent', 'wait_agent', 'close_agent'],
  // [features] multi_agent_v2
  collaboration: ['spawn_agent', 'followup_task', 'send_message', 'wait_agent', 'interrupt_agent', 'list_agents'],
};
const PASSTHROUGH = new Set([
  'request_user_input', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search', 'update_plan', 'sleep',
  'list_mcp_resources', 'list_mcp_resource_templates',
  // A namespaced tool reaches hooks as its name, or as namespace and name run together.
  ...Object.entries(SUBAGENT_TOOLS).flatMap(([namespace, names]) => names.flatMap((name) => [name, `${namespace}${name}`])),
]);

const invalid = (tool: string, what: string): ToolMapping => missingInput('Codex', tool, what);

/** apply_patch: a write per added file, an edit per updated one (patchCalls). */
function applyPatch(input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  return patchCalls(input, { agent: 'Codex', tool: 'apply_patch', textFields: ['command', 'input', 'patch'], resolve: (path) => resolveAgainst(place.cwd, path), shell: 'a shell command', lenientTrailingContext: true });
}

/** Codex's tools as its hooks name them, each mapped to the governed calls it amounts to. */
const TABLE: NativeToolTable = {
  Bash(input, place) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('Bash', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  apply_patch: applyPatch,
  view_image(input, place) {
    const path = stringField(input, 'path');
    return path === undefined ? invalid('view_image', 'path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path: resolveAgainst(place.cwd, path) } }] };
  },
  write_stdin(input) {
    // An empty write only polls a running command's output.
    if (typeof input.chars !== 'string' || input.chars === '') return { kind: 'passthrough' };
    return { kind: 'refused', reason: 'write_stdin types into a running command, where Intent Governor cannot see what runs, so it is refused. Run each command on its own with exec_command.' };
  },
  read_mcp_resource() {
    return { kind: 'refused', reason: 'read_mcp_resource reads through another MCP server, which Intent Governor cannot see, so it is refused (governance fails closed). Read workspace files with a shell command instead.' };
  },
};

const mapTable = mapByTable('Codex', PASSTHROUGH, TABLE);

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * Codex's PreToolUse answers: `permissionDecision: "deny"` with a non-empty reason blocks, and `"allow"` with
 * `updatedInput` runs the rewritten input (both verified with 0.169.0). Codex takes `"ask"`, a bare `"allow"`,
 * `continue: false` and `stopReason` there as an invalid answer and runs the tool anyway, so a call that needs a
 * person's approval, or a stop, is refused here with the reason (a refusal, never a silent allow). Every other
 * event is answered as Claude Code's hooks are, which Codex reads the same way.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind !== 'tool' || event.phase !== 'pre') return renderClaudeStyle(event, answer);
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  if (answer.stop !== undefined || answer.decision !== 'allow') {
    const asked = (answer.reason ?? 'Intent Governor asks a human to approve this call.').trimEnd();
    const reason =
      answer.decision === 'ask'
        ? `${asked}${/[.!?]$/u.test(asked) ? '' : '.'} Codex cannot ask a person from a hook, so the call is refused: ask the person to approve it in VS Code or to make this change themselves, or do something that needs no approval.`
        : (answer.reason ?? answer.stop ?? 'Intent Governor refused this call.');
    Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: reason });
  } else if (answer.updatedInput) Object.assign(specific, { permissionDecision: 'allow', updatedInput: answer.updatedInput });
  if (answer.context) specific.additionalContext = answer.context;
  const out: Record<string, unknown> = {};
  if (answer.systemMessage) out.systemMessage = answer.systemMessage;
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

export const codexDialect: HookDialect = {
  id: 'codex',
  agentName: 'codex-cli',
  parse: parseClaudeStyle,
  mapTool: claudeStyleMapTool("Codex's shell and apply_patch tools", mapTable),
  render,
  // exec_command (Bash to hooks) runs an allow's updatedInput (verified with 0.169.0, test/agents/codexConfinedShell.agent.test.ts).
  confineShell: replaceCommandField({ Bash: 'command' }),
  // Exit 2 with the reason on stderr blocks a Codex tool call; any other failure Codex would ignore and run the tool.
  renderFailure: renderClaudeStyleFailure,
};
