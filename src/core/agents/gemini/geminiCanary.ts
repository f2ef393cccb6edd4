import { exitWhy, firstLine, replyJson, type AgentCanary } from '../common/canary';

/**
 * Gemini CLI's canary: a write_file as its BeforeTool hook receives it (docs/hooks/reference.md of @google/gemini-cli),
 * run as Gemini CLI 0.61 runs command hooks: `bash -c` in the payload's cwd, with GEMINI_PROJECT_DIR, GEMINI_CWD,
 * GEMINI_SESSION_ID and CLAUDE_PROJECT_DIR set. Refused: exit 2 (stderr the reason), or `decision: "deny"`/`"block"`
 * or `continue: false` on exit 0; any other exit code is a warning and the tool runs.
 */
export const geminiCanary: AgentCanary = {
  door: { kind: 'json', event: 'BeforeTool', tool: 'write_file', shell: 'bash' },
  payload: (call) => ({
    session_id: call.sessionId,
    transcript_path: '',
    cwd: call.workspace,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'write_file',
    tool_input: { file_path: call.relativePath, content: call.content },
  }),
  env: (call) => ({ GEMINI_PROJECT_DIR: call.workspace, GEMINI_CWD: call.workspace, GEMINI_SESSION_ID: call.sessionId, CLAUDE_PROJECT_DIR: call.workspace }),
  blocks(reply) {
    if (reply.via !== 'process') return { blocked: false, why: 'Gemini CLI is governed through command hooks only' };
    if (reply.exitCode === 2) return { blocked: true, reason: firstLine(reply.stderr) || '(exit 2)' };
    if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)}: Gemini CLI reads it as a warning and runs the tool` };
    const answer = replyJson(reply.stdout);
    if (answer?.decision === 'deny' || answer?.decision === 'block') return { blocked: true, reason: typeof answer.reason === 'string' ? answer.reason : 'denied' };
    if (answer?.continue === false) return { blocked: true, reason: typeof answer.stopReason === 'string' ? answer.stopReason : 'stopped' };
    return { blocked: false, why: 'the hook exited 0 without a deny: Gemini CLI runs the tool' };
  },
};
