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

/** The deny a shell prints when the hook process cannot start; no single quote inside, it is quoted with them. */
const CANNOT_START = JSON.stringify({
  permissionDecision: 'deny',
  permissionDecisionReason: 'Intent Governor could not start its hook (is node on the PATH, and the extension or CLI still installed where the hook file says?), so the call is refused. Ask the person to run governor hooks install --agent copilot again.',
});

/**
 * Copilot CLI 1.0.102 denies a call whose hook cannot start, but its reference calls a failing hook a warning that
 * lets the tool run; printing the deny when the command fails holds either way. Our hook itself exits non-zero only
 * with nothing on stdout, so the two never mix. Windows: PowerShell before 7 has no `||`.
 */
export function copilotHookCommand(command: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? command : `${command} || echo '${CANNOT_START}'`;
}

export function copilotHookEntries(command: string, platform: NodeJS.Platform = process.platform): Record<string, unknown[]> {
  const entry = { type: 'command', command: copilotHookCommand(command, platform), timeoutSec: COPILOT_TIMEOUT_S };
  return Object.fromEntries(EVENTS.map((event) => [event, [entry]]));
}
