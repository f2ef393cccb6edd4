import { exitWhy, firstLine, replyJson, type AgentCanary } from '../common/canary';

/**
 * GitHub Copilot CLI's canary: a create as its camelCase preToolUse hook receives it (hooks reference, version 1),
 * through our preToolUse entry run with the shell in the repository, with COPILOT_CLI=1 and COPILOT_PROJECT_DIR set
 * as Copilot CLI sets them. Refused: `permissionDecision: "deny"` on stdout. A hook that exits non-zero is skipped
 * by its reference (1.0.102 denies it), so only the deny counts here.
 */
export const copilotCanary: AgentCanary = {
  door: { kind: 'json', event: 'preToolUse', tool: 'create', shell: 'sh' },
  payload: (call) => ({ sessionId: call.sessionId, timestamp: Date.now(), cwd: call.workspace, toolName: 'create', toolArgs: { path: call.path, file_text: call.content } }),
  env: (call) => ({ COPILOT_CLI: '1', COPILOT_PROJECT_DIR: call.workspace }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'GitHub Copilot CLI is governed through command hooks only' };
    const answer = replyJson(reply.stdout);
    if (answer?.permissionDecision === 'deny') return { blocked: true, reason: typeof answer.permissionDecisionReason === 'string' ? answer.permissionDecisionReason : firstLine(reply.stderr) || 'denied' };
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)} without a deny on stdout: Copilot CLI's reference skips such a hook and runs the tool` };
    return { blocked: false, why: typeof answer?.permissionDecision === 'string' ? `the hook answered permissionDecision "${answer.permissionDecision}"` : 'the hook printed no deny: Copilot CLI runs the tool' };
  },
};
