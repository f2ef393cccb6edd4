import { claudeStyleBlocks, type AgentCanary } from '../common/canary';

/**
 * VS Code's agent's canary: a create_file as its PreToolUse hook receives it
 * (https://code.visualstudio.com/docs/agents/reference/hooks-reference), through our PreToolUse entry run with the
 * shell in the workspace folder. Refused as Claude Code refuses: exit 2, or `permissionDecision: "deny"`.
 */
export const vscodeCanary: AgentCanary = {
  door: { kind: 'json', event: 'PreToolUse', tool: 'create_file', shell: 'sh' },
  payload: (call) => ({
    timestamp: new Date().toISOString(),
    session_id: call.sessionId,
    transcript_path: '',
    cwd: call.workspace,
    hook_event_name: 'PreToolUse',
    tool_name: 'create_file',
    tool_use_id: call.callId,
    tool_input: { filePath: call.path, content: call.content },
  }),
  blocks: (reply) => claudeStyleBlocks(reply, "VS Code's agent"),
};
