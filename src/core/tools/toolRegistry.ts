import { deleteFile } from './deleteFile';
import { editFile } from './editFile';
import { listFiles } from './listFiles';
import { listIntents } from './listIntents';
import { readFile } from './readFile';
import { requestScopeExpansion } from './requestScopeExpansion';
import { runCommand } from './runCommand';
import { selectActiveIntent } from './selectActiveIntent';
import type { ToolDefinition } from './toolDefinition';
import type { ToolName } from './toolName';
import { writeFile } from './writeFile';

/** Every governed tool; MCP, language model tools and the hook bridge all read this table. */
export const TOOLS: Readonly<Record<ToolName, ToolDefinition>> = {
  list_intents: listIntents,
  select_active_intent: selectActiveIntent,
  read_file: readFile,
  list_files: listFiles,
  write_file: writeFile,
  edit_file: editFile,
  delete_file: deleteFile,
  run_command: runCommand,
  request_scope_expansion: requestScopeExpansion,
};

export function findTool(name: string): ToolDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(TOOLS, name) ? TOOLS[name as ToolName] : undefined;
}
