import { exitWhy, replyJson, type AgentCanary } from '../common/canary';
import { clineHookFile, isOurClineHook } from './clineHookFiles';

/**
 * Cline's canary: an editor call creating a file, as its PreToolUse hook file receives it (the `cline` CLI 3.0.65),
 * through our `.clinerules/hooks/PreToolUse.sh` run as Cline runs a hook file (the interpreter of its `#!` line) in
 * the workspace. Refused: `cancel: true` on stdout, the only refusal a hook file can give; anything else runs the tool.
 */
export const clineCanary: AgentCanary = {
  door: { kind: 'script', file: clineHookFile('PreToolUse'), isOurs: isOurClineHook },
  payload: (call) => ({
    clineVersion: '',
    timestamp: new Date().toISOString(),
    taskId: call.sessionId,
    sessionContext: { rootSessionId: call.sessionId },
    workspaceRoots: [call.workspace],
    workspaceInfo: { rootPath: call.workspace, hint: 'intent-governor-doctor' },
    userId: 'unknown',
    agent_id: call.sessionId,
    parent_agent_id: null,
    hookName: 'tool_call',
    iteration: 1,
    tool_call: { id: call.callId, name: 'editor', input: { path: call.path, new_text: call.content } },
    preToolUse: { toolName: 'editor', parameters: { path: call.path, new_text: call.content } },
  }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'Cline is governed through hook files only' };
    const answer = replyJson(reply.stdout);
    if (answer?.cancel === true) return { blocked: true, reason: typeof answer.errorMessage === 'string' ? answer.errorMessage : 'cancelled' };
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)} without a cancel: Cline runs the tool` };
    return { blocked: false, why: 'the hook printed no cancel: Cline runs the tool' };
  },
};
