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
 * Every tool (matcher "*": an unknown tool or another MCP server's must reach the governor to be refused) before
 * and after it runs, and the lifecycle events the user's hooks and the intent handshake need. Not PreCompress:
 * Gemini CLI 0.61 fires it before every model turn, which would start a process per turn for an advisory event.
 */
export function geminiHookEntries(command: string): Record<string, unknown[]> {
  const hooks = [{ name: GEMINI_HOOK_NAME, type: 'command', command, timeout: GEMINI_TIMEOUT_MS }];
  const everyTool = [{ matcher: '*', hooks }];
  const always = [{ hooks }];
  return { BeforeTool: everyTool, AfterTool: everyTool, SessionStart: always, BeforeAgent: always, AfterAgent: always, SessionEnd: always, Notification: always };
}
