/**
 * The Claude Code tool each governed tool does the work of. Hooks are mostly written for Claude Code (matcher
 * `Write|Edit`, `Bash`): matching them against these names too makes such a hook hold for every agent and door.
 */
const CLAUDE_NAMES: Record<string, string> = {
  write_file: 'Write',
  edit_file: 'Edit',
  run_command: 'Bash',
  read_file: 'Read',
  list_files: 'Glob',
};

/** The names a tool event is matched against: the agent's own name first, then the governed tools and their Claude names. */
export function matchNames(native: string | undefined, governed: readonly string[]): string[] {
  const names = native === undefined ? [] : [native];
  for (const tool of governed) for (const name of [tool, CLAUDE_NAMES[tool]]) if (name !== undefined && !names.includes(name)) names.push(name);
  return names;
}
