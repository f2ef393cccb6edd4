import { claudeStyleMapTool, parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from '../common/claudeStyleProtocol';
import { isRecord, mapByTable, missingInput, resolveAgainst, stringField, unknownEvent, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, ToolMapping } from '../common/nativeCall';
import { patchCalls } from '../common/patchCalls';
import { replaceCommandField } from '../common/shellConfinement';

/**
 * Factory Droid's hooks (`.factory/hooks.json`, Claude Code's shape without the `hooks` wrapper; @factory/cli
 * 0.225.2) speak Claude Code's protocol: snake_case JSON on stdin (`session_id`, `transcript_path`, `cwd`,
 * `permission_mode`, `hook_event_name`; PreToolUse adds `tool_name` and `tool_input`, PostToolUse `tool_response`,
 * a string; no tool call id), `hookSpecificOutput.permissionDecision` on stdout, exit 2 blocks with stderr as the
 * reason. Seen with the binary: exit 3 aborts the whole agent, any other exit code, a crash and a timeout let the
 * tool run, so every failure here is an exit 2 with a reason. A PreToolUse `updatedInput` is merged over the
 * model's input (`{...input, ...updatedInput}`).
 *
 * Its nine events have Claude Code's names; any other is unknown: refused.
 */
const EVENTS = new Set(['PreToolUse', 'PostToolUse', 'Notification', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd']);

function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (isRecord(payload) && typeof payload.hook_event_name === 'string' && !EVENTS.has(payload.hook_event_name)) return unknownEvent('Factory Droid', payload.hook_event_name);
  return parseClaudeStyle(payload);
}

/**
 * Droid's built-in tools that change nothing we govern (the 0.225.2 binary's `droid exec --list-tools` and the tools
 * it offers the model). `Task` starts a subagent, whose own tool calls fire PreToolUse under their own names (seen
 * with the binary); `TaskOutput`/`TaskStop` read and stop one; `Skill` loads a skill's instructions. Not here, so
 * refused as unknown: `StageSettingsChanges` (changes Droid's settings, hooks among them), `Loop`, `GenerateDroid`
 * (writes a droid file) and the mission tools.
 */
const PASSTHROUGH = new Set([
  'LS', 'Glob', 'Grep', 'TodoWrite', 'Task', 'TaskOutput', 'TaskStop', 'ToolSearch', 'Skill', 'FetchUrl', 'WebSearch', 'ExitSpecMode', 'AskUser',
]);

const invalid = (tool: string, what: string): ToolMapping => missingInput('Factory Droid', tool, what);

/** A file tool's path: absolute as the model sends it; a relative one against the working directory (the payload's `cwd`). "~" is left as given (the canonicaliser refuses it). */
function filePath(input: Record<string, unknown>, cwd: string): string | undefined {
  const path = stringField(input, 'file_path');
  return path === undefined ? undefined : resolveAgainst(cwd, path);
}

/**
 * Native tool → governed call: Create→write_file, Edit→edit_file (`old_str`/`new_str`, `change_all` every
 * occurrence; an empty old_str creates the file, so it is a write_file), Execute→run_command in the working
 * directory, Read→read_file, ApplyPatch (what Droid gives GPT models: the `*** Begin Patch` text in `input`)→a
 * write per added file and an edit per updated one.
 */
const TABLE: NativeToolTable = {
  Create(input, place) {
    const path = filePath(input, place.cwd);
    if (path === undefined || typeof input.content !== 'string') return invalid('Create', 'file_path and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.content } }] };
  },
  Edit(input, place) {
    const path = filePath(input, place.cwd);
    if (path === undefined || typeof input.old_str !== 'string' || typeof input.new_str !== 'string') return invalid('Edit', 'file_path, old_str and new_str');
    if (input.old_str === '') return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.new_str } }] };
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: [{ search: input.old_str, replace: input.new_str, all: input.change_all === true }] }] };
  },
  Execute(input, place) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('Execute', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  Read(input, place) {
    const path = filePath(input, place.cwd);
    return path === undefined ? invalid('Read', 'file_path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
  },
  ApplyPatch(input, place) {
    return patchCalls(input, { agent: 'Factory Droid', tool: 'ApplyPatch', textFields: ['input', 'patch'], resolve: (path) => resolveAgainst(place.cwd, path), shell: 'the Execute tool' });
  },
};

const mapTable = mapByTable('Factory Droid', PASSTHROUGH, TABLE);

const mapTool = claudeStyleMapTool("Factory Droid's file and Execute tools", mapTable);

const ASK_INSTEAD = "Factory Droid hands a hook's \"ask\" to its own permission level, which under --auto runs the call without asking anyone, so it is refused: ask the person to approve it in VS Code (with Intent Governor running there) or to run it themselves.";

/**
 * Claude's answers, with two changes. An "ask" is refused, saying who can approve it: Droid 0.225.2 treats it as
 * no decision and its autonomy level decides. A rewrite that leaves out one of the model's arguments is refused:
 * Droid merges `updatedInput` over the model's input, so the argument would stay and the call that ran would not
 * be the one judged.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind !== 'tool' || event.phase !== 'pre') return renderClaudeStyle(event, answer);
  if (answer.decision === 'ask') return renderClaudeStyle(event, { ...answer, decision: 'deny', reason: `${answer.reason ?? 'Intent Governor asks a human to approve this call.'} ${ASK_INSTEAD}`, updatedInput: undefined });
  if (answer.decision === 'allow' && answer.updatedInput) {
    const rewritten = answer.updatedInput;
    const dropped = Object.keys(event.toolInput).filter((key) => !Object.hasOwn(rewritten, key));
    if (dropped.length) {
      const reason = `A hook rewrote this ${event.toolName} call without ${dropped.join(', ')}, and Factory Droid keeps arguments a hook leaves out, so it cannot run the rewrite: refused. Make the change the hook asked for yourself.`;
      return renderClaudeStyle(event, { ...answer, decision: 'deny', reason, updatedInput: undefined });
    }
  }
  return renderClaudeStyle(event, answer);
}

// Execute runs a PreToolUse allow's updatedInput (verified with 0.225.2, test/agents/droidConfinedShell.agent.test.ts).
const confineShell = replaceCommandField({ Execute: 'command' });

export const droidDialect: HookDialect = { id: 'droid', agentName: 'factory-droid', parse, mapTool, render, renderFailure: renderClaudeStyleFailure, confineShell };
