import { AGENT_TIMEOUT_S } from '../common/hookConfig';

/** VS Code's agent reads every `.github/hooks/*.json` (GitHub Copilot CLI too: see copilotStandIn). */
export const VSCODE_HOOK_FILE = '.github/hooks/intent-governor.json';

const LIFECYCLE = ['Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];

/** A command hook per event, in VS Code's Claude-like shape without matcher groups. */
export function vscodeHookEntries(command: string): Record<string, unknown[]> {
  const entry = { type: 'command', command, timeout: AGENT_TIMEOUT_S };
  return { PreToolUse: [entry], PostToolUse: [entry], SessionStart: [entry], UserPromptSubmit: [entry], ...Object.fromEntries(LIFECYCLE.map((event) => [event, [entry]])) };
}
