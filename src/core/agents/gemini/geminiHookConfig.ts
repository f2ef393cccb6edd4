/**
 * Our entries in Gemini CLI's `.gemini/settings.json` `hooks` (docs/hooks/reference.md of @google/gemini-cli):
 * a matcher group per event, command hooks only, `timeout` in milliseconds (above the bridge's --timeout-ms, so
 * the governor answers "blocked" before Gemini CLI gives up on it: a hook that times out lets the tool run).
 */
const GEMINI_TIMEOUT_MS = 120_000;

/** Shown in Gemini CLI's /hooks panel, and the name `/hooks disable` takes. */
export const GEMINI_HOOK_NAME = 'intent-governor';

/**
 * Gemini CLI runs a tool when its hook exits with anything but 0 or 2 (a "warning"), so a hook command that
 * cannot start (node missing, the bundle moved) would let every call through. `|| exit 2` turns that into a
 * block with the shell's error as the reason. Windows PowerShell 5.1, Gemini CLI's shell there, has no `||`.
 */
export function geminiHookCommand(command: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? command : `${command} || exit 2`;
}

/**
 * Every tool (matcher "*": an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, and the lifecycle events the user's hooks and the intent handshake need. Not PreCompress:
 * Gemini CLI 0.61 fires it before every model turn, which would start a process per turn for an advisory event.
 */
export function geminiHookEntries(command: string, platform: NodeJS.Platform = process.platform): Record<string, unknown[]> {
  const hooks = [{ name: GEMINI_HOOK_NAME, type: 'command', command: geminiHookCommand(command, platform), timeout: GEMINI_TIMEOUT_MS }];
  const everyTool = [{ matcher: '*', hooks }];
  const always = [{ hooks }];
  return { BeforeTool: everyTool, AfterTool: everyTool, SessionStart: always, BeforeAgent: always, AfterAgent: always, SessionEnd: always, Notification: always };
}
