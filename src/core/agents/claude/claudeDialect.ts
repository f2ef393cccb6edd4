import { homedir } from 'node:os';
import { join } from 'node:path';
import { claudeStyleMapTool, parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from '../common/claudeStyleProtocol';
import { isRecord, mapByTable, missingInput, resolveAgainst, stringField, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, NativeEdit, ToolMapping } from '../common/nativeCall';
import { replaceCommandField } from '../common/shellConfinement';

/**
 * Claude Code's tools that read nothing we govern and change nothing (https://docs.claude.com/en/docs/claude-code/settings#tools-available-to-claude).
 * `Agent`/`Task` start a subagent, whose own tool calls come through the hooks like any other.
 */
export const CLAUDE_READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'Task', 'Agent', 'ExitPlanMode', 'EnterPlanMode', 'BashOutput', 'KillShell',
  'SlashCommand', 'Skill', 'AskUserQuestion', 'ToolSearch', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TaskOutput', 'TaskStop',
  'ListAgents', 'ReportFindings', 'ScheduleWakeup',
]);

/** The governor's own MCP tools are governed by the server that answers them; no second judgement here. */
export { OWN_MCP_PREFIX } from '../common/claudeStyleProtocol';

const invalid = (tool: string, what: string): ToolMapping => missingInput('Claude Code', tool, what);

function filePath(input: Record<string, unknown>, cwd: string): string | undefined {
  const path = stringField(input, 'file_path');
  if (path === undefined) return undefined;
  // Claude Code expands "~" and "~/…" to the home directory; "~user" it leaves alone, and so does the canonicaliser (refused).
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
  return resolveAgainst(cwd, expanded);
}

function edit(value: unknown): NativeEdit | undefined {
  if (!isRecord(value) || typeof value.old_string !== 'string' || typeof value.new_string !== 'string') return undefined;
  return { search: value.old_string, replace: value.new_string, all: value.replace_all === true };
}

/**
 * Native tool → governed call: Write→write_file, Edit/MultiEdit→edit_file, Bash→run_command, Read→read_file.
 * Claude Code resolves a relative file_path against its working directory (the payload's `cwd`), expands "~" to
 * the home directory, and runs Bash in that same directory; so does the bridge.
 */
const TABLE: NativeToolTable = {
  Write(input, place) {
    const path = filePath(input, place.cwd);
    if (path === undefined || typeof input.content !== 'string') return invalid('Write', 'file_path and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.content } }] };
  },
  Edit(input, place) {
    const path = filePath(input, place.cwd);
    const one = edit(input);
    if (path === undefined || !one) return invalid('Edit', 'file_path, old_string and new_string');
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: [one] }] };
  },
  MultiEdit(input, place) {
    const path = filePath(input, place.cwd);
    const edits = Array.isArray(input.edits) ? input.edits.map(edit) : [];
    if (path === undefined || edits.length === 0 || edits.some((e) => e === undefined)) return invalid('MultiEdit', 'file_path and edits');
    return { kind: 'governed', calls: [{ tool: 'edit_file', input: { path }, edits: edits as NativeEdit[] }] };
  },
  Bash(input, place) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('Bash', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  Read(input, place) {
    const path = filePath(input, place.cwd);
    return path === undefined ? invalid('Read', 'file_path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
  },
};

const mapTable = mapByTable('Claude Code', CLAUDE_READ_ONLY_TOOLS, TABLE);

/**
 * Claude's answers, with one addition: an `ask` carries `updatedInput` too, which Claude Code shows its person and
 * runs once approved (its hooks reference: "combine with ask to show the modified input"; verified with 2.1.330),
 * so an approved shell command still runs confined.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  const reply = renderClaudeStyle(event, answer);
  if (event.kind !== 'tool' || event.phase !== 'pre' || answer.decision !== 'ask' || !answer.updatedInput) return reply;
  const out = JSON.parse(reply.stdout) as { hookSpecificOutput: Record<string, unknown> };
  out.hookSpecificOutput.updatedInput = answer.updatedInput;
  return { ...reply, stdout: `${JSON.stringify(out)}\n` };
}

export const claudeDialect: HookDialect = {
  id: 'claude',
  agentName: 'claude-code',
  parse: parseClaudeStyle,
  mapTool: claudeStyleMapTool("Claude Code's file and terminal tools", mapTable),
  render,
  renderFailure: renderClaudeStyleFailure,
  // Bash runs a PreToolUse allow's (and an approved ask's) updatedInput (verified with 2.1.330, test/agents/claudeConfinedShell.agent.test.ts).
  confineShell: replaceCommandField({ Bash: 'command' }),
};
