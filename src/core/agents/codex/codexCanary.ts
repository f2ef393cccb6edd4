import { exitWhy, firstLine, replyJson, type AgentCanary } from '../common/canary';
import { isRecord } from '../common/hookDialect';

/**
 * Codex CLI's canary: an apply_patch adding one file, as its PreToolUse hook receives it
 * (https://developers.openai.com/codex/hooks), through our PreToolUse entry run with the shell in the session's
 * directory. Refused (verified with 0.169.0): exit 2 with a reason on stderr, or `permissionDecision: "deny"` with a
 * non-empty reason; anything else, an "ask" included, runs the tool.
 */
export const codexCanary: AgentCanary = {
  door: { kind: 'json', event: 'PreToolUse', tool: 'apply_patch', shell: 'sh' },
  payload: (call) => ({
    session_id: call.sessionId,
    turn_id: call.callId,
    transcript_path: '',
    cwd: call.workspace,
    hook_event_name: 'PreToolUse',
    model: 'intent-governor-doctor',
    permission_mode: 'default',
    tool_name: 'apply_patch',
    tool_input: { command: `*** Begin Patch\n*** Add File: ${call.relativePath}\n${call.content.replace(/\n$/u, '').split('\n').map((line) => `+${line}`).join('\n')}\n*** End Patch\n` },
    tool_use_id: call.callId,
  }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'Codex CLI is governed through command hooks only' };
    if (reply.exitCode === 2) {
      const reason = firstLine(reply.stderr);
      return reason ? { blocked: true, reason } : { blocked: false, why: 'the hook exited 2 with nothing on stderr: Codex runs the tool' };
    }
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)}: Codex runs the tool` };
    const specific = replyJson(reply.stdout)?.hookSpecificOutput;
    const reason = isRecord(specific) && typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : '';
    if (isRecord(specific) && specific.permissionDecision === 'deny' && reason.trim() !== '') return { blocked: true, reason };
    return { blocked: false, why: 'the hook exited 0 without a deny and a reason: Codex runs the tool' };
  },
};
