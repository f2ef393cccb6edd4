import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from '../common/claudeStyleProtocol';
import { isRecord, mapByTable, missingInput, stringField, type HookDialect, type HookEvent, type HookReply, type NativeToolTable } from '../common/hookDialect';
import type { BridgeAnswer, NativeCall, NativeEdit, ToolMapping } from '../common/nativeCall';
import { joinedTool } from '../../approval/mcpToolPattern';
import { readVscodePatch } from './vscodePatch';
import { parseShell } from '../../commands/shellSyntax';

/**
 * VS Code's own agent (Copilot Chat 0.67 in VS Code 1.139) runs `.github/hooks/*.json` with Claude Code's hook
 * protocol (https://code.visualstudio.com/docs/agents/reference/hooks-reference): every hook sees every tool
 * (matchers are ignored), `tool_name` is the name the model called and `tool_input` its camelCase arguments.
 * The tools and their input fields below are those VS Code 1.139 offers the model: the `languageModelTools` of
 * its built-in chat extension (extensions/copilot/package.json, names as its ToolName enum sends them) and the
 * tools the workbench registers itself (terminal, tasks, tests, rename, usages, todo list, subagent, questions).
 *
 * Paths: VS Code's file tools resolve a path through the prompt-path service, which takes an absolute path or a
 * URI and nothing else ("Invalid file path"), so a relative path is refused here too. Hooks run in the workspace
 * folder (the payload's `cwd`), where the agent's terminal starts.
 */

/** Tools that change no workspace file and run nothing the governor could judge. */
const PASSTHROUGH = new Set([
  // Searches and reads of what the workspace, the editor and its language servers know.
  'file_search', 'grep_search', 'semantic_search', 'search_workspace_symbols', 'vscode_listCodeUsages', 'list_code_usages', 'list_dir',
  'read_project_structure', 'get_errors', 'get_changed_files', 'test_search', 'testFailure', 'test_failure', 'get_search_view_results',
  'copilot_getNotebookSummary', 'read_notebook_cell_output',
  // Outside the workspace: VS Code's docs, the web, GitHub, the marketplace, Copilot's own session store.
  'get_vscode_api', 'fetch_webpage', 'github_repo', 'github_text_search', 'vscode_searchExtensions_internal', 'get_project_setup_info',
  'session_store_sql', 'resolve_memory_file_uri',
  // Output of terminals and tasks the agent started (each judged when it started), and stopping one.
  'get_terminal_output', 'terminal_last_command', 'terminal_selection', 'get_task_output', 'kill_terminal',
  // The conversation itself: plans, questions and confirmations for the person, todo lists, tool discovery, modes.
  'manage_todo_list', 'vscode_askQuestions', 'vscode_reviewPlan', 'vscode_get_confirmation', 'vscode_get_confirmation_with_options',
  'vscode_get_terminal_confirmation', 'vscode_get_modified_files_confirmation', 'tool_search', 'switch_agent', 'skill', 'think', 'inline_chat_exit',
  // Only plans a notebook and tells the model to create it with create_file, which is judged.
  'create_new_jupyter_notebook',
  // Subagents run their own tool calls with the request's hooks, so each of those is judged.
  'runSubagent', 'search_subagent', 'explore_subagent', 'execution_subagent',
]);

/**
 * The intent-governor language model tools (`intent-governor_<tool>` in package.json) and MCP tools: governed by
 * the pipeline they call, so not judged twice. VS Code names an MCP tool `mcp_<server>_<tool>`, the server name
 * lowercased and cut to 13 characters ("intent-govern"), or to 12 plus a number when two servers share that cut;
 * before the server answered, its label "Intent Governor" gives "intent_govern".
 */
const OWN_TOOL = /^(?:intent-governor_|mcp_intent[-_]gove(?:rn|r\d|\d\d)_)/u;

/**
 * The longest server part of VS Code's MCP tool name (see OWN_TOOL): another server's tool `mcp_<server>_<tool>`
 * reads every way the name splits at a '_' within it, and the plan names the server as VS Code cut it.
 */
const VSCODE_SERVER_CUT = 13;

const invalid = (tool: string, what: string): ToolMapping => missingInput('VS Code', tool, what);

function refused(reason: string): ToolMapping {
  return { kind: 'refused', reason };
}

/**
 * VS Code keeps the agent's terminal between calls while every hook payload says it runs in the workspace
 * folder: a command that leaves the shell somewhere else (a top-level `cd`, `pushd`, `popd`) would make the next
 * command be judged where it does not run, so it is refused. `(cd dir && cmd)` runs in a subshell and is fine.
 */
function movesTerminal(tool: string, command: string): ToolMapping | undefined {
  const parsed = parseShell(command);
  if (!parsed.ok) return undefined; // the command policy refuses what it cannot parse
  if (parsed.leaves !== null && parsed.leaves.every((dir) => dir === '')) return undefined;
  return {
    kind: 'refused',
    reason: `This ${tool} command changes the terminal's directory for later commands, where Intent Governor could not judge them, so it is refused. Run it in a subshell, e.g. (cd dir && command), or use paths from the workspace folder.`,
  };
}

/** The absolute path a VS Code tool would act on, or the reason it would not act on a workspace file. */
function toolPath(tool: string, value: string): { ok: true; path: string } | { ok: false; mapping: ToolMapping } {
  if (isAbsolute(value)) return { ok: true, path: value };
  if (/^file:/iu.test(value)) {
    try {
      return { ok: true, path: fileURLToPath(value) };
    } catch {
      // not a file path after all: refused below
    }
  }
  const scheme = /^([a-z][\w+.-]*):/iu.exec(value)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'file') {
    return { ok: false, mapping: refused(`VS Code's ${tool} was given ${JSON.stringify(value)}, a ${scheme}: resource rather than a file of the workspace, so Intent Governor refuses it. Work on the file's absolute path in the workspace instead.`) };
  }
  return { ok: false, mapping: refused(`VS Code's ${tool} was given ${JSON.stringify(value)}, but its tools take an absolute path (they refuse a relative one), so Intent Governor refuses it too. Use the file's absolute path.`) };
}

/**
 * A change whose new text the tool works out only when it runs: the bridge judges it as a write of the file as
 * it stands (scope, protection, intent, stale basis) and traces what the tool left behind.
 */
function changeOf(tool: string, given: string | undefined, what: string): ToolMapping {
  if (given === undefined) return invalid(tool, what);
  const path = toolPath(tool, given);
  return path.ok ? { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [] }] } : path.mapping;
}

function replacement(value: unknown): { path: string; edit: NativeEdit } | undefined {
  if (!isRecord(value)) return undefined;
  const path = stringField(value, 'filePath');
  if (path === undefined || typeof value.oldString !== 'string' || typeof value.newString !== 'string') return undefined;
  return { path, edit: { search: value.oldString, replace: value.newString, all: false } };
}

/** A word the shell reads back as exactly `value`. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** apply_patch {input}: a write per added file, a change per updated one; deletions and moves are left to the terminal. */
function applyPatch(input: Record<string, unknown>): ToolMapping {
  const text = stringField(input, 'input');
  if (text === undefined) return invalid('apply_patch', 'input (the patch text)');
  const patch = readVscodePatch(text);
  if (!patch.ok) return refused(`Intent Governor cannot read this apply_patch input (${patch.message}), so it is refused. Send a patch in the '*** Begin Patch' … '*** End Patch' format with absolute paths.`);
  const calls: NativeCall[] = [];
  for (const file of patch.files) {
    const path = toolPath('apply_patch', file.path);
    if (!path.ok) return path.mapping;
    if (file.kind === 'delete') {
      return refused(`This patch deletes ${file.path}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Leave the deletion out of the patch and delete the file with run_in_terminal (rm), which Intent Governor judges.`);
    }
    if (file.kind === 'update' && file.moveTo !== undefined) {
      return refused(`This patch moves ${file.path} to ${file.moveTo}, which Intent Governor cannot check as part of a patch, so the whole patch is refused. Rename the file with run_in_terminal (git mv or mv), which Intent Governor judges, then patch it at its new path.`);
    }
    calls.push(file.kind === 'add' ? { tool: 'write_file', input: { path: path.path, content: file.content } } : { tool: 'edit_file', input: { path: path.path }, edits: [] });
  }
  return { kind: 'governed', calls };
}

/**
 * Each tool the agent may call, by the name the model uses, with the fields (from its input schema) that hold
 * the path or the command.
 */
const TABLE: NativeToolTable = {
  /** create_file {filePath, content}: writes the whole file. */
  create_file(input) {
    const given = stringField(input, 'filePath');
    if (given === undefined || typeof input.content !== 'string') return invalid('create_file', 'filePath and content');
    const path = toolPath('create_file', given);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'write_file', input: { path: path.path, content: input.content } }] } : path.mapping;
  },
  /** replace_string_in_file {filePath, oldString, newString}. */
  replace_string_in_file(input) {
    const one = replacement(input);
    if (!one) return invalid('replace_string_in_file', 'filePath, oldString and newString');
    const path = toolPath('replace_string_in_file', one.path);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [one.edit] }] } : path.mapping;
  },
  /** multi_replace_string_in_file {explanation, replacements: [{filePath, oldString, newString}]}. */
  multi_replace_string_in_file(input) {
    const all = Array.isArray(input.replacements) ? input.replacements.map(replacement) : [];
    if (all.length === 0 || all.some((r) => r === undefined)) return invalid('multi_replace_string_in_file', 'replacements [{filePath, oldString, newString}]');
    // One governed edit per file, its replacements in the order given.
    const byPath = new Map<string, NativeEdit[]>();
    for (const r of all as { path: string; edit: NativeEdit }[]) {
      const path = toolPath('multi_replace_string_in_file', r.path);
      if (!path.ok) return path.mapping;
      byPath.set(path.path, [...(byPath.get(path.path) ?? []), r.edit]);
    }
    const calls: NativeCall[] = [...byPath].map(([path, edits]) => ({ tool: 'edit_file', input: { path }, edits }));
    return { kind: 'governed', calls };
  },
  /** insert_edit_into_file {explanation, filePath, code}: a model merges `code` ("…existing code…" markers) into the file. */
  insert_edit_into_file: (input) => changeOf('insert_edit_into_file', stringField(input, 'filePath'), 'filePath'),
  /** edit_notebook_file {filePath, cellId, editType, newCode, language}: VS Code rewrites the notebook's JSON. */
  edit_notebook_file(input) {
    const given = stringField(input, 'filePath');
    if (given !== undefined && /^untitled:/iu.test(given)) {
      return refused(`VS Code's edit_notebook_file was given ${JSON.stringify(given)}, a notebook that is not a file in the workspace yet, so Intent Governor refuses it. Create the notebook in the workspace with create_file, then edit it there.`);
    }
    return changeOf('edit_notebook_file', given, 'filePath');
  },
  /** apply_patch {input, explanation}: a V4A patch naming each file by its absolute path. */
  apply_patch: applyPatch,
  /** create_directory {dirPath}: a mkdir, judged as the command it amounts to (protected and scope checks of the folder). */
  create_directory(input, place) {
    const given = stringField(input, 'dirPath');
    if (given === undefined) return invalid('create_directory', 'dirPath');
    const path = toolPath('create_directory', given);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'run_command', input: { command: `mkdir -p -- ${shellWord(path.path)}`, cwd: place.cwd } }] } : path.mapping;
  },
  /**
   * run_in_terminal {command, explanation, goal, mode, isBackground, timeout}: runs in the agent's terminal, which
   * starts in the workspace folder. That terminal is kept between calls, so a `cd` in an earlier call moves it.
   */
  run_in_terminal(input, place) {
    const command = stringField(input, 'command');
    if (command === undefined) return invalid('run_in_terminal', 'command');
    return movesTerminal('run_in_terminal', command) ?? { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  /**
   * send_to_terminal {id, command, waitForOutput}: types `command` and Enter into a terminal the agent started.
   * Whatever reads it (the shell, or a prompt of the running program), it is judged as a command there; Enter
   * alone and Ctrl+C/D/\ (which VS Code sends as the signal) only answer or stop what already runs.
   */
  send_to_terminal(input, place) {
    const command = stringField(input, 'command');
    if (command === undefined) return invalid('send_to_terminal', 'command');
    if (command.trim() === '' || /^[\u0003\u0004\u001c]$/u.test(command.trim())) return { kind: 'passthrough' };
    return movesTerminal('send_to_terminal', command) ?? { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  /** read_file {filePath, startLine, endLine}. */
  read_file: (input) => readOf('read_file', stringField(input, 'filePath')),
  /** view_image {filePath}: the image goes into the model's context, as a read would. */
  view_image: (input) => readOf('view_image', stringField(input, 'filePath')),
  /**
   * memory {command, path, old_path, new_path, …}: notes under the virtual folder /memories/, kept in VS Code's
   * storage for the extension (user, workspace and session scopes) or in GitHub's Copilot memory, never in the
   * workspace; VS Code refuses any other path. Passed through, and refused if it ever names another one.
   */
  memory(input) {
    const paths = ['path', 'old_path', 'new_path'].map((field) => input[field]).filter((value) => value !== undefined);
    const outside = paths.find((value) => typeof value !== 'string' || !/^\/memories(?:\/|$)/u.test(value) || value.split('/').includes('..'));
    if (outside !== undefined) return refused(`VS Code's memory tool was given ${JSON.stringify(outside)}, outside its /memories/ folder, so Intent Governor refuses it. Memory paths start with /memories/.`);
    return { kind: 'passthrough' };
  },
  /** create_and_run_task {workspaceFolder, task: {label, type, command, args, …}}. */
  create_and_run_task(input) {
    const task = isRecord(input.task) ? input.task : {};
    const command = [stringField(task, 'command') ?? '', ...(Array.isArray(task.args) ? task.args.filter((a): a is string => typeof a === 'string') : [])].join(' ').trim();
    const run = command === '' ? 'its command' : `\`${command}\``;
    return refused(`VS Code's create_and_run_task writes the task into .vscode/tasks.json (protected: a task runs code) and then runs the first task labelled ${JSON.stringify(String(task.label ?? ''))}, which need not be this one, so Intent Governor refuses it. Run ${run} with run_in_terminal instead, which Intent Governor checks.`);
  },
  /** run_task {workspaceFolder, id}: a task from tasks.json or an extension, its command out of sight. */
  run_task: (input) => refused(`VS Code's run_task runs the task ${JSON.stringify(String(input.id ?? ''))}, whose command Intent Governor cannot see, so it is refused. Run the task's command with run_in_terminal instead, which Intent Governor checks.`),
  /** runTests {files, testNames, mode, coverageFiles}: run by the test extensions, their commands out of sight. */
  runTests: () => refused("VS Code's runTests runs tests through the test extensions, whose commands Intent Governor cannot see, so it is refused. Run the test command with run_in_terminal instead (for example npm test), which Intent Governor checks."),
  /** run_notebook_cell {filePath, cellId, reason, continueOnError}: the cell's code runs in the notebook's kernel. */
  run_notebook_cell: () => refused("VS Code's run_notebook_cell runs a cell's code in the notebook's kernel, where Intent Governor cannot see it, so it is refused. Put the code in a script and run it with run_in_terminal, which Intent Governor checks, or ask the person to run the cell."),
  /** vscode_renameSymbol {symbol, newName, uri | filePath, lineContent}: the language server picks the files. */
  vscode_renameSymbol: (input) =>
    refused(`VS Code's vscode_renameSymbol renames ${JSON.stringify(String(input.symbol ?? ''))} in every file the language server finds, which Intent Governor cannot know before it runs, so it is refused. Find the usages with vscode_listCodeUsages and change each file with replace_string_in_file or multi_replace_string_in_file, which Intent Governor checks.`),
  /** run_vscode_command {commandId, name, args}: any command of VS Code or an extension. */
  run_vscode_command: (input) =>
    refused(`VS Code's run_vscode_command would run the command ${JSON.stringify(String(input.commandId ?? ''))}, which can change files, settings and extensions where Intent Governor cannot see it, so it is refused. Ask the person to run it, or make the change with the file and terminal tools.`),
  /** install_extension {id, name}: the extension's code would run with the editor's rights. */
  install_extension: (input) =>
    refused(`VS Code's install_extension would install ${JSON.stringify(String(input.id ?? ''))}, whose code runs outside every check Intent Governor makes, so it is refused. Ask the person to install it if it is needed.`),
  /** create_new_workspace {query}: scaffolds a project and may open another folder in this window. */
  create_new_workspace: () => newWorkspace('create_new_workspace'),
  /** setup_tools_createNewWorkspace (no input): chat setup's scaffolding tool. */
  setup_tools_createNewWorkspace: () => newWorkspace('setup_tools_createNewWorkspace'),
  /** edit_files: a placeholder VS Code tells the model never to call. */
  edit_files: () => refused("VS Code's edit_files is a placeholder that changes nothing it says, so Intent Governor refuses it. Use create_file, replace_string_in_file or insert_edit_into_file."),
};

function readOf(tool: string, given: string | undefined): ToolMapping {
  if (given === undefined) return invalid(tool, 'filePath');
  const path = toolPath(tool, given);
  return path.ok ? { kind: 'governed', calls: [{ tool: 'read_file', input: { path: path.path } }] } : path.mapping;
}

function newWorkspace(tool: string): ToolMapping {
  return refused(`VS Code's ${tool} scaffolds a project and may open another folder, outside the workspace Intent Governor governs, so it is refused. Create the project's files here with create_file and run_in_terminal, or ask the person to create and open the new folder.`);
}

const mapTable = mapByTable('VS Code', PASSTHROUGH, TABLE);

function mapTool(toolName: string, toolInput: Record<string, unknown>, place: Parameters<HookDialect['mapTool']>[2]): ToolMapping {
  if (OWN_TOOL.test(toolName)) return { kind: 'passthrough' };
  if (toolName.startsWith('mcp_')) {
    const foreign = joinedTool(toolName.slice('mcp_'.length), '_', VSCODE_SERVER_CUT);
    const reason = `'${toolName}' is a tool of an MCP server other than Intent Governor's: Intent Governor cannot see what it reads or changes, so it is refused unless the plan's mcp_tools allows it (governance fails closed). Use VS Code's file and terminal tools or the intent-governor tools.`;
    return { kind: 'refused', reason, ...(foreign ? { foreign } : {}) };
  }
  return mapTable(toolName, toolInput, place);
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * VS Code reads a PreToolUse answer's `updatedInput` whatever the decision, and an `allow` skips its own
 * confirmation. So an allow says nothing (VS Code's own approval still applies), a rewritten input travels
 * without one, and with an `ask` too, so the person approves the input that will run. Other events are
 * answered as Claude Code's are.
 */
function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind !== 'tool' || event.phase !== 'pre') return renderClaudeStyle(event, answer);
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  if (answer.decision !== 'allow') Object.assign(specific, { permissionDecision: answer.decision, permissionDecisionReason: answer.reason ?? 'Intent Governor refused this call.' });
  if (answer.updatedInput && answer.decision !== 'deny') specific.updatedInput = answer.updatedInput;
  if (answer.context) specific.additionalContext = answer.context;
  const out: Record<string, unknown> = {};
  if (answer.stop !== undefined) Object.assign(out, { continue: false, stopReason: answer.stop });
  if (answer.systemMessage) out.systemMessage = answer.systemMessage;
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return { exitCode: 0, stdout: Object.keys(out).length ? json(out) : '', stderr: '' };
}

export const vscodeDialect: HookDialect = {
  id: 'vscode',
  agentName: 'vscode-agent',
  parse: parseClaudeStyle,
  mapTool,
  render,
  // Exit 2 blocks: VS Code hands the stderr text to the model as the denial's reason.
  renderFailure: renderClaudeStyleFailure,
};
