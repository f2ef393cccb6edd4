/**
 * Our entries in Cursor's `.cursor/hooks.json` (https://cursor.com/docs/hooks): the file is
 * `{ "version": 1, "hooks": { "<event>": [ { "command", "timeout"?, "failClosed"?, "matcher"? } ] } }`, one flat
 * entry per hook, `timeout` in seconds, no matcher (every tool, so an unknown one or another MCP server's reaches
 * the governor and is refused).
 *
 * Cursor runs the action when a hook fails in any other way than exit 2 (a crash, a timeout, output it cannot
 * read) unless the entry says `"failClosed": true`, so every entry that can stop an action says it. The timeout
 * is above the bridge's --timeout-ms (110 s), so the governor answers "blocked" before Cursor gives up on it.
 *
 * Installed: every gate (preToolUse for every tool, and the gates Cursor had before it: beforeShellExecution,
 * beforeReadFile, beforeMCPExecution; a call both reach is judged twice, the stricter answer wins), one post event
 * per call (postToolUse and postToolUseFailure: afterFileEdit, afterShellExecution and afterMCPExecution report
 * the same calls again and would trace each edit twice, so they are not installed; the dialect still answers
 * them), and the lifecycle events the intent handshake and the user's hooks need.
 */
const CURSOR_TIMEOUT_S = 120;

/** Events whose answer can stop an action: a failure of the hook blocks. */
export const CURSOR_GATE_EVENTS = ['preToolUse', 'beforeShellExecution', 'beforeReadFile', 'beforeMCPExecution', 'beforeSubmitPrompt', 'sessionStart', 'subagentStart'] as const;

/** Events after the fact or around the session: nothing to block, a failure must not stop the agent. */
export const CURSOR_OBSERVE_EVENTS = ['postToolUse', 'postToolUseFailure', 'subagentStop', 'preCompact', 'stop', 'sessionEnd'] as const;

/**
 * `command` is the hook command as installed for every agent (the shared layer makes a hook that cannot start or
 * answer exit 2 with the dialect's refusal, which Cursor reads as a block even without `failClosed`).
 */
export function cursorHookEntries(command: string): Record<string, unknown[]> {
  return {
    ...Object.fromEntries(CURSOR_GATE_EVENTS.map((event) => [event, [{ command, timeout: CURSOR_TIMEOUT_S, failClosed: true }]])),
    ...Object.fromEntries(CURSOR_OBSERVE_EVENTS.map((event) => [event, [{ command, timeout: CURSOR_TIMEOUT_S }]])),
  };
}
