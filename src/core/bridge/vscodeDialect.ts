import { parseClaudeStyle, renderClaudeStyle, renderClaudeStyleFailure } from './claudeProtocol';
import { isAbsolute } from 'node:path';
import { fileUriPath, isRecord, mapByTable, stringField, type HookDialect, type NativeToolTable } from './hookDialect';
import type { NativeCall, NativeEdit, ToolMapping } from './nativeCall';

/**
 * VS Code's agent (1.139) runs `.github/hooks/*.json` with the Claude-compatible protocol, but its tools have
 * their own names and camelCase inputs: create_file {filePath, content}, replace_string_in_file {filePath,
 * oldString, newString}, multi_replace_string_in_file {replacements[]}, run_in_terminal {command},
 * read_file {filePath, startLine, endLine} (https://code.visualstudio.com/docs/agents/reference/hooks-reference,
 * tool names as VS Code sends them in captured hook payloads).
 *
 * Paths: VS Code's file tools take an absolute path or a `file:` URI and fail on anything else ("Invalid file
 * path": its prompt-path service resolves only those, never a relative path), so a relative path is refused here
 * too. run_in_terminal runs in the agent's terminal, which starts in the workspace folder: the payload's `cwd`.
 */
const PASSTHROUGH = new Set([
  'file_search', 'grep_search', 'semantic_search', 'list_dir', 'get_errors', 'get_changed_files', 'test_search',
  'fetch_webpage', 'manage_todo_list', 'think', 'get_terminal_output', 'terminal_last_command', 'terminal_selection',
  'search_workspace_symbols', 'list_code_usages', 'vscode_searchExtensions_internal', 'runSubagent',
]);

function invalid(tool: string, what: string): ToolMapping {
  return { kind: 'refused', reason: `VS Code's ${tool} call has no ${what}, so Intent Governor cannot check it and refuses it.` };
}

/** The absolute path a VS Code tool would act on, or the reason it would fail (and so is refused). */
function toolPath(tool: string, value: string): { ok: true; path: string } | { ok: false; mapping: ToolMapping } {
  const path = isAbsolute(value) ? value : fileUriPath(value);
  if (path !== undefined) return { ok: true, path };
  return {
    ok: false,
    mapping: { kind: 'refused', reason: `VS Code's ${tool} was given ${JSON.stringify(value)}, but its tools take an absolute path (they refuse a relative one), so Intent Governor refuses it too. Use the file's absolute path.` },
  };
}

function replacement(value: unknown): { path: string; edit: NativeEdit } | undefined {
  if (!isRecord(value)) return undefined;
  const path = stringField(value, 'filePath');
  if (path === undefined || typeof value.oldString !== 'string' || typeof value.newString !== 'string') return undefined;
  return { path, edit: { search: value.oldString, replace: value.newString, all: false } };
}

const TABLE: NativeToolTable = {
  create_file(input) {
    const given = stringField(input, 'filePath');
    if (given === undefined || typeof input.content !== 'string') return invalid('create_file', 'filePath and content');
    const path = toolPath('create_file', given);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'write_file', input: { path: path.path, content: input.content } }] } : path.mapping;
  },
  replace_string_in_file(input) {
    const one = replacement(input);
    if (!one) return invalid('replace_string_in_file', 'filePath, oldString and newString');
    const path = toolPath('replace_string_in_file', one.path);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: path.path }, edits: [one.edit] }] } : path.mapping;
  },
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
  run_in_terminal(input, place) {
    const command = stringField(input, 'command');
    return command === undefined ? invalid('run_in_terminal', 'command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd: place.cwd } }] };
  },
  read_file(input) {
    const given = stringField(input, 'filePath');
    if (given === undefined) return invalid('read_file', 'filePath');
    const path = toolPath('read_file', given);
    return path.ok ? { kind: 'governed', calls: [{ tool: 'read_file', input: { path: path.path } }] } : path.mapping;
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
