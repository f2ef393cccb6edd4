/**
 * Intent Governor's own hook commands, recognised by their shape wherever they turn up: in an agent's hook file
 * (install and uninstall replace only ours), and among the Claude-format hooks the user-hook engine loads (ours are
 * the door, not a user hook to run twice). No list of agents is kept here: the shape is the same for every agent.
 */

/** Where committed hook files name this user's launcher: the shell expands it, so no path of this machine is written. */
export const LAUNCHER_SHELL_PATH = '${INTENT_GOVERNOR_HOME:-$HOME/.intent-governor}/bin/governor-hook';

/** Our command in the form this version writes (`ig_l=…; … "$ig_l" hook <agent> …`). */
const CURRENT = /^ig_l="\$\{INTENT_GOVERNOR_HOME:-\$HOME\/\.intent-governor\}\/bin\/governor-hook";.*?\$\("\$ig_l" hook [a-z][a-z0-9-]*\b/su;
/** The form older versions wrote (`node "/abs/dist/hook.js" hook <agent> …`, possibly with `|| exit 2` or `|| echo …`). */
const OLD = /^node "[^"]+" hook [a-z][a-z0-9-]*\b/u;

/** Our hook command, whichever agent and version wrote it. */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && (CURRENT.test(command) || OLD.test(command));
}

/** The resident governor's MCP server name in Claude Code's config, and the tool its `mcp_tool` hooks call. */
export const RESIDENT_SERVER_NAME = 'intent-governor';
export const RESIDENT_HOOK_TOOL = 'agent_hook';

/**
 * Our `mcp_tool` hook (Claude Code reaching the resident governor, whichever of our tools it calls): never a user's
 * hook to run or to refuse on.
 */
export function isOurMcpToolHook(hook: Record<string, unknown>): boolean {
  return hook.type === 'mcp_tool' && hook.server === RESIDENT_SERVER_NAME;
}
