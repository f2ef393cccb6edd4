import { exitWhy, firstLine, replyJson, type AgentCanary } from '../common/canary';

/**
 * Cursor's canary: a Write as its preToolUse hook receives it (https://cursor.com/docs/hooks), through our preToolUse
 * entry run with the shell in the workspace. Refused: exit 2, or `permission: "deny"` (the first schema's `decision:
 * "deny"` too); an entry with `failClosed: true` also blocks when the hook fails in any other way.
 */
export const cursorCanary: AgentCanary = {
  door: { kind: 'json', event: 'preToolUse', tool: 'Write', shell: 'sh' },
  payload: (call) => ({
    conversation_id: call.sessionId,
    generation_id: call.callId,
    model: 'intent-governor-doctor',
    hook_event_name: 'preToolUse',
    workspace_roots: [call.workspace],
    user_email: null,
    transcript_path: null,
    tool_name: 'Write',
    tool_input: { file_path: call.path, content: call.content },
    tool_use_id: call.callId,
    cwd: call.workspace,
  }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'Cursor runs command hooks only' };
    const answer = replyJson(reply.stdout);
    const reason = typeof answer?.agent_message === 'string' && answer.agent_message !== '' ? answer.agent_message : typeof answer?.reason === 'string' ? answer.reason : firstLine(reply.stderr);
    if (reply.exitCode === 2) return { blocked: true, reason: reason || '(exit 2)' };
    if (reply.exitCode === 0 && (answer?.permission === 'deny' || answer?.decision === 'deny')) return { blocked: true, reason: reason || 'denied' };
    if ((reply.exitCode !== 0 || answer === undefined) && reply.entry?.failClosed === true) return { blocked: true, reason: `${exitWhy(reply.exitCode, reply.stderr)}; the entry says failClosed, so Cursor blocks` };
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)}: Cursor runs the action when a hook fails unless its entry says failClosed` };
    return { blocked: false, why: typeof answer?.permission === 'string' ? `the hook answered permission "${answer.permission}"` : 'the hook exited 0 without a deny: Cursor runs the action' };
  },
};
