import { AGENT_TIMEOUT_S } from '../common/hookConfig';

/**
 * Our entries in Qwen Code's `.qwen/settings.json` `hooks` (Claude Code's shape: a matcher group per event, command
 * hooks only). `timeout` is in seconds (Qwen Code 0.24.4 reads a value of 1000 or more as milliseconds), above the
 * bridge's --timeout-ms, so the governor answers "blocked" before Qwen Code gives up on it: a hook that times out
 * lets the tool run. Qwen Code runs the command with `bash -c` and runs the tool when its hook exits with anything
 * but 0, or with 2 and nothing on stderr: the shared command (agentHookCommand) blocks with exit 2 and a reason on
 * every failure.
 */
const QWEN_TIMEOUT_S = AGENT_TIMEOUT_S;

/** Shown in Qwen Code's /hooks panel, and the name its `hooks.disabled` list takes. */
export const QWEN_HOOK_NAME = 'intent-governor';

/** Events only the user's hooks (.orchestration/hooks.json, ~/.intent-governor/hooks.json) answer: forwarded so they hold for Qwen Code too. */
const LIFECYCLE = ['PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification'];

/**
 * Every tool (matcher "*": an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, the intent handshake (SessionStart, UserPromptSubmit), SessionEnd, and the lifecycle events
 * the user's hooks may need.
 */
export function qwenHookEntries(command: string): Record<string, unknown[]> {
  const hooks = [{ name: QWEN_HOOK_NAME, type: 'command', command, timeout: QWEN_TIMEOUT_S }];
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
