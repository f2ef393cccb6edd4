import { AGENT_TIMEOUT_S } from '../common/hookConfig';

/**
 * Our entries in Factory Droid's `.factory/hooks.json` (Claude Code's shape, the events at the top of the file: a
 * matcher group per event, command hooks only). `timeout` is in seconds (Droid's default is 60), above the bridge's
 * --timeout-ms, so the governor answers "blocked" before Droid gives up on it: a hook that times out lets the tool
 * run. Droid runs the command with `bash -c` and runs the tool when its hook exits with anything but 2 (3 aborts
 * the agent): the shared command (agentHookCommand) blocks with exit 2 and a reason on every failure.
 *
 * The file, not `.factory/settings.json`'s `hooks`: Droid takes an event's hooks from hooks.json when that file
 * lists the event and from settings.json only when it does not (seen with 0.225.2), so ours there would be
 * dropped by anyone's hooks.json.
 */
const DROID_TIMEOUT_S = AGENT_TIMEOUT_S;

/**
 * Events only the user's hooks (.orchestration/hooks.json, ~/.intent-governor/hooks.json) answer: forwarded so they
 * hold for Droid too. Not Stop or SubagentStop: Droid 0.225.2 reads their exit 2 as "keep going" and asks the model
 * again, so a hook that fails (no launcher on a teammate's clone) would loop the agent without end (seen: 44 Stop
 * hooks in 15 s).
 */
const LIFECYCLE = ['PreCompact', 'Notification'];

/**
 * Every tool (matcher "*": an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, the intent handshake (SessionStart, UserPromptSubmit), SessionEnd, and the lifecycle events
 * the user's hooks may need.
 */
export function droidHookEntries(command: string): Record<string, unknown[]> {
  const hooks = [{ type: 'command', command, timeout: DROID_TIMEOUT_S }];
  const always = [{ hooks }];
  return {
    PreToolUse: [{ matcher: '*', hooks }],
    PostToolUse: [{ matcher: '*', hooks }],
    SessionStart: always,
    UserPromptSubmit: always,
    SessionEnd: always,
    ...Object.fromEntries(LIFECYCLE.map((event) => [event, always])),
  };
}
