/**
 * Our entries in GitHub Copilot CLI's `.github/hooks/intent-governor-copilot.json` (hooks reference, version 1):
 * camelCase events, so Copilot CLI sends its own payloads with its own tool names (configured in PascalCase it
 * would send VS Code's format with Claude Code's tool names). `command` is the cross-platform field (Copilot CLI
 * takes it where `bash`/`powershell` are absent). `timeoutSec` is above the bridge's --timeout-ms: a hook that
 * times out lets the tool run (verified with 1.0.102).
 */
const COPILOT_TIMEOUT_S = 120;

/** A file of its own beside VS Code's: Copilot CLI reads every .github/hooks/*.json. */
export const COPILOT_HOOK_FILE = '.github/hooks/intent-governor-copilot.json';

/** Every tool before and after it runs (no matcher: every tool, MCP tools included), and the lifecycle events. */
const EVENTS = ['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'userPromptSubmitted', 'agentStop', 'subagentStart', 'subagentStop', 'preCompact', 'sessionEnd'];

/**
 * Copilot CLI 1.0.102 denies a call whose hook fails, but its reference calls a failing hook a warning that lets the
 * tool run: the shared command (agentHookCommand) prints Copilot's deny on stdout for every failure, so it holds
 * either way.
 */
export function copilotHookEntries(command: string): Record<string, unknown[]> {
  const entry = { type: 'command', command, timeoutSec: COPILOT_TIMEOUT_S };
  return Object.fromEntries(EVENTS.map((event) => [event, [entry]]));
}
