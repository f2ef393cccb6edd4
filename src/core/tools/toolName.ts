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
