/** Our entries in Cursor's `.cursor/hooks.json` (version 1): a command per event. */
export function cursorHookEntries(command: string): Record<string, unknown[]> {
  const entry = { command };
  return { beforeShellExecution: [entry], beforeReadFile: [entry], afterFileEdit: [entry], beforeSubmitPrompt: [entry], stop: [entry] };
}
