import { parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from './claudeProtocol';
import { isRecord, mapByTable, stringField, type HookDialect, type NativeToolTable } from './hookDialect';
import type { NativeCall, NativeEdit, ToolMapping } from './nativeCall';

/**
 * VS Code's agent (1.139) runs `.github/hooks/*.json` with the Claude-compatible protocol, but its tools have
 * their own names and camelCase inputs: create_file {filePath, content}, replace_string_in_file {filePath,
 * oldString, newString}, multi_replace_string_in_file {replacements[]}, run_in_terminal {command},
 * read_file {filePath, startLine, endLine} (https://code.visualstudio.com/docs/agents/reference/hooks-reference,
 * tool names as VS Code sends them in captured hook payloads).
 */
const PASSTHROUGH = new Set([
  'file_search', 'grep_search', 'semantic_search', 'list_dir', 'get_errors', 'get_changed_files', 'test_search',
  'fetch_webpage', 'manage_todo_list', 'think', 'get_terminal_output', 'terminal_last_command', 'terminal_selection',
  'search_workspace_symbols', 'list_code_usages', 'vscode_searchExtensions_internal', 'runSubagent',
]);

function invalid(tool: string, what: string): ToolMapping {
  return { kind: 'refused', reason: `VS Code's ${tool} call has no ${what}, so Intent Governor cannot check it and refuses it.` };
}

function replacement(value: unknown): { path: string; edit: NativeEdit } | undefined {
  if (!isRecord(value)) return undefined;
  const path = stringField(value, 'filePath');
  if (path === undefined || typeof value.oldString !== 'string' || typeof value.newString !== 'string') return undefined;
  return { path, edit: { search: value.oldString, replace: value.newString, all: false } };
}

const TABLE: NativeToolTable = {
  create_file(input) {
    const path = stringField(input, 'filePath');
    if (path === undefined || typeof input.content !== 'string') return invalid('create_file', 'filePath and content');
    return { kind: 'governed', calls: [{ tool: 'write_file', input: { path, content: input.content } }] };
  },
  replace_string_in_file(input) {
    const one = replacement(input);
    return one ? { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: one.path }, edits: [one.edit] }] } : invalid('replace_string_in_file', 'filePath, oldString and newString');
  },
  multi_replace_string_in_file(input) {
    const all = Array.isArray(input.replacements) ? input.replacements.map(replacement) : [];
    if (all.length === 0 || all.some((r) => r === undefined)) return invalid('multi_replace_string_in_file', 'replacements [{filePath, oldString, newString}]');
    // One governed edit per file, its replacements in the order given.
    const byPath = new Map<string, NativeEdit[]>();
    for (const r of all as { path: string; edit: NativeEdit }[]) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.edit]);
    const calls: NativeCall[] = [...byPath].map(([path, edits]) => ({ tool: 'edit_file', input: { path }, edits }));
    return { kind: 'governed', calls };
  },
  run_in_terminal(input) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('run_in_terminal', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command } }] };
  },
  read_file(input) {
    const path = stringField(input, 'filePath');
    return path === undefined ? invalid('read_file', 'filePath') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path } }] };
  },
};

export const vscodeDialect: HookDialect = {
  id: 'vscode',
  agentName: 'vscode-agent',
  parse: parseClaudeStyle,
  mapTool: mapByTable('VS Code', PASSTHROUGH, TABLE),
  render: renderClaudeStyle,
  renderFailure: renderClaudeStyleFailure,
};
