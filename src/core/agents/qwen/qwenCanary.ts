import { exitWhy, firstLine, replyJson, type AgentCanary } from '../common/canary';
import { isRecord } from '../common/hookDialect';

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Qwen Code's canary: a write_file as its PreToolUse hook receives it (captured from the 0.24.4 binary,
 * test/fixtures/hooks/qwen/), run as Qwen Code runs command hooks: `bash -c` in the payload's cwd, with
 * QWEN_PROJECT_DIR, CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR and QWEN_CODE_SESSION_ID set. Refused: exit 2 with a
 * reason on stderr, or on exit 0 `hookSpecificOutput.permissionDecision: "deny"` (or "ask", which headless is
 * refused), a top-level `decision: "deny"`/`"block"`, or `continue: false`. Exit 2 with nothing on stderr, and any
 * other exit code, let the tool run.
 */
export const qwenCanary: AgentCanary = {
  door: { kind: 'json', event: 'PreToolUse', tool: 'write_file', shell: 'bash' },
  payload: (call) => ({
    session_id: call.sessionId,
    transcript_path: '',
    cwd: call.workspace,
    hook_event_name: 'PreToolUse',
    timestamp: new Date().toISOString(),
    permission_mode: 'yolo',
    tool_name: 'write_file',
    tool_input: { file_path: call.path, content: call.content },
    tool_use_id: call.callId,
    tool_call_id: call.callId,
  }),
  env: (call) => ({ QWEN_PROJECT_DIR: call.workspace, CLAUDE_PROJECT_DIR: call.workspace, GEMINI_PROJECT_DIR: call.workspace, QWEN_CODE_SESSION_ID: call.sessionId }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'Qwen Code is governed through command hooks only' };
    if (reply.exitCode === 2) {
      const reason = firstLine(reply.stderr);
      return reason ? { blocked: true, reason } : { blocked: false, why: 'the hook exited 2 with nothing on stderr: Qwen Code runs the tool' };
    }
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)}: Qwen Code reads it as a warning and runs the tool` };
    const answer = replyJson(reply.stdout);
    const specific = answer && isRecord(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
    if (specific.permissionDecision === 'deny' || specific.permissionDecision === 'ask') return { blocked: true, reason: str(specific.permissionDecisionReason) ?? str(answer?.reason) ?? 'denied' };
    if (answer?.decision === 'deny' || answer?.decision === 'block') return { blocked: true, reason: str(answer.reason) ?? 'denied' };
    if (answer?.continue === false) return { blocked: true, reason: str(answer.stopReason) ?? 'stopped' };
    return { blocked: false, why: 'the hook exited 0 without a deny: Qwen Code runs the tool' };
  },
};
