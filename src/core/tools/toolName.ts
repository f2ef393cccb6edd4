/** The governed tools by name: one definition file each in this folder, one entry each in toolRegistry.ts. */
export type ToolName =
  | 'list_intents'
  | 'select_active_intent'
  | 'read_file'
  | 'list_files'
  | 'write_file'
  | 'edit_file'
  | 'delete_file'
  | 'run_command'
  | 'request_scope_expansion';

/** Each governed tool's name, typed: a tool added to ToolName cannot be left out here. */
const TOOL_NAMES: Readonly<Record<ToolName, true>> = {
  list_intents: true,
  select_active_intent: true,
  read_file: true,
  list_files: true,
  write_file: true,
  edit_file: true,
  delete_file: true,
  run_command: true,
  request_scope_expansion: true,
};

/** Whether `name` is a governed tool: the governor's own MCP server offers exactly these and judges them itself. */
export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOL_NAMES, name);
}
