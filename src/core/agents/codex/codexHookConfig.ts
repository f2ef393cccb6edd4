/**
 * Our entries in Codex CLI's `.codex/hooks.json` (https://developers.openai.com/codex/hooks): a matcher group per
 * event, command hooks only, `timeout` in seconds (above the bridge's --timeout-ms, so the governor answers
 * "blocked" before Codex gives up on it: a hook that times out lets the tool run). Codex runs a tool when its hook
 * fails in any way but exit 2 with a reason on stderr: the shared command (agentHookCommand) blocks that way on
 * every failure.
 */
const CODEX_TIMEOUT_S = 120;
/** Codex cuts a SessionEnd hook off after 3 s whatever it asks for, and warns about a longer one. */
const CODEX_SESSION_END_S = 3;

/**
 * Every tool (no matcher: an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, Codex's own permission prompt, and the lifecycle events the user's hooks and the intent
 * handshake need.
 */
export function codexHookEntries(command: string): Record<string, unknown[]> {
  const hook = { type: 'command', command };
  const group = [{ hooks: [{ ...hook, timeout: CODEX_TIMEOUT_S }] }];
  const events = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];
  return { ...Object.fromEntries(events.map((event) => [event, group])), SessionEnd: [{ hooks: [{ ...hook, timeout: CODEX_SESSION_END_S }] }] };
}
