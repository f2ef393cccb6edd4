/**
 * Our entries in Codex CLI's `.codex/hooks.json` (https://developers.openai.com/codex/hooks): a matcher group per
 * event, command hooks only, `timeout` in seconds (above the bridge's --timeout-ms, so the governor answers
 * "blocked" before Codex gives up on it: a hook that times out lets the tool run).
 */
const CODEX_TIMEOUT_S = 120;
/** Codex cuts a SessionEnd hook off after 3 s whatever it asks for, and warns about a longer one. */
const CODEX_SESSION_END_S = 3;

/**
 * Codex runs a tool when its hook fails in any way but exit 2 with a reason on stderr, so a hook command that
 * cannot start (node missing, the bundle moved) would let every call through. `|| exit 2` turns that into a block
 * with the shell's error as the reason. Windows' shell has no `||`.
 */
export function codexHookCommand(command: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? command : `${command} || exit 2`;
}

/**
 * Every tool (no matcher: an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, Codex's own permission prompt, and the lifecycle events the user's hooks and the intent
 * handshake need.
 */
export function codexHookEntries(command: string, platform: NodeJS.Platform = process.platform): Record<string, unknown[]> {
  const hook = { type: 'command', command: codexHookCommand(command, platform) };
  const group = [{ hooks: [{ ...hook, timeout: CODEX_TIMEOUT_S }] }];
  const events = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];
  return { ...Object.fromEntries(events.map((event) => [event, group])), SessionEnd: [{ hooks: [{ ...hook, timeout: CODEX_SESSION_END_S }] }] };
}
