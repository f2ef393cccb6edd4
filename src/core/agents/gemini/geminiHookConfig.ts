import { commandWithUnposted } from '../common/unpostedTools';
import { NO_DECLARED_HOOKS, postHooked, type DeclaredHooks } from '../../userHooks/declaredHooks';

/**
 * Our entries in Gemini CLI's `.gemini/settings.json` `hooks` (docs/hooks/reference.md of @google/gemini-cli):
 * a matcher group per event, command hooks only, `timeout` in milliseconds (above the bridge's --timeout-ms, so
 * the governor answers "blocked" before Gemini CLI gives up on it: a hook that times out lets the tool run).
 * Gemini CLI runs the command with `bash -c` and runs the tool when its hook exits with anything but 0, or with 2
 * and nothing on stderr: the shared command (agentHookCommand) blocks with exit 2 and a reason on every failure.
 */
const GEMINI_TIMEOUT_MS = 120_000;

/** Shown in Gemini CLI's /hooks panel, and the name `/hooks disable` takes. */
export const GEMINI_HOOK_NAME = 'intent-governor';

/**
 * Gemini CLI's file tools whose AfterTool the install leaves out, each with the governed tools it amounts to (a
 * `replace` with an empty old_string creates the file). Each hook Gemini CLI runs is a process of its own (about
 * 6-9 ms of its time), so the resident governor completes these changes itself once the file holds them
 * (selfCompletions.ts): the BeforeTool command says so (unpostedTools.ts). read_file's post stays (it records what
 * the model read: the read-to-write lock), and so does the shell's (a confined command's changes).
 */
const SELF_COMPLETED: Record<string, string[]> = { write_file: ['write_file'], replace: ['edit_file', 'write_file'] };

/**
 * The tools whose AfterTool is left out: none when the user's hooks may need their post (a PostToolUse hook the
 * governor runs for Gemini CLI that may match them, or a hook file it cannot read).
 */
export function geminiUnposted(declared: DeclaredHooks): string[] {
  if (declared.unreadable) return [];
  return Object.entries(SELF_COMPLETED)
    .filter(([tool, governed]) => !postHooked(declared.hooks, tool, governed))
    .map(([tool]) => tool);
}

/**
 * Every tool (matcher "*": an unknown tool or another MCP server's must reach the governor to be refused) before
 * it runs; after it runs, every tool but the unposted ones (Gemini CLI tests a matcher as a JavaScript regular
 * expression, unanchored, so `^(?!(?:write_file|replace)$)` leaves exactly those out); and the lifecycle events the
 * user's hooks and the intent handshake need. Not PreCompress: Gemini CLI 0.61 fires it before every model turn,
 * which would start a process per turn for an advisory event.
 */
export function geminiHookEntries(command: string, declared: DeclaredHooks = NO_DECLARED_HOOKS): Record<string, unknown[]> {
  const hook = { name: GEMINI_HOOK_NAME, type: 'command', timeout: GEMINI_TIMEOUT_MS };
  const hooks = [{ ...hook, command }];
  const wanted = geminiUnposted(declared);
  // A command that cannot say which posts are left out (Windows' form) keeps them all.
  const preCommand = wanted.length ? commandWithUnposted(command, wanted) : undefined;
  const unposted = preCommand === undefined ? [] : wanted;
  const always = [{ hooks }];
  return {
    BeforeTool: [{ matcher: '*', hooks: [{ ...hook, command: preCommand ?? command }] }],
    AfterTool: [{ matcher: unposted.length ? `^(?!(?:${unposted.join('|')})$)` : '*', hooks }],
    SessionStart: always,
    BeforeAgent: always,
    AfterAgent: always,
    SessionEnd: always,
    Notification: always,
  };
}
