/**
 * Our entries in GitHub Copilot CLI's `.github/hooks/intent-governor-copilot.json` (hooks reference, version 1):
 * camelCase events, so Copilot CLI sends its own payloads with its own tool names (configured in PascalCase it
 * would send VS Code's format with Claude Code's tool names). `command` is the cross-platform field (Copilot CLI
 * takes it where `bash`/`powershell` are absent). `timeoutSec` is above the bridge's --timeout-ms: a hook that
 * times out lets the tool run, while one that exits non-zero or cannot start denies it (verified with 1.0.102).
 */
const COPILOT_TIMEOUT_S = 120;

/** Every tool before and after it runs (no matcher: every tool, MCP tools included), and the lifecycle events. */
const EVENTS = ['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'userPromptSubmitted', 'agentStop', 'subagentStart', 'subagentStop', 'preCompact', 'sessionEnd'];

export function copilotHookEntries(command: string): Record<string, unknown[]> {
  const entry = { type: 'command', command, timeoutSec: COPILOT_TIMEOUT_S };
  return Object.fromEntries(EVENTS.map((event) => [event, [entry]]));
}
