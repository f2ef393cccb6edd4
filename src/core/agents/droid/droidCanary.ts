import { claudeStyleBlocks, type AgentCanary } from '../common/canary';

/**
 * Factory Droid's canary: a Create as its PreToolUse hook receives it (captured from the 0.225.2 binary,
 * test/fixtures/hooks/droid/), run as Droid runs command hooks: `bash -c` in the session's cwd, with
 * FACTORY_PROJECT_DIR, DROID_PROJECT_DIR and CLAUDE_PROJECT_DIR set. Droid reads the reply as Claude Code does:
 * exit 2 blocks with stderr as the reason, exit 0 with `hookSpecificOutput.permissionDecision: "deny"` blocks;
 * any other exit code lets the tool run (3 aborts the whole agent, which the installed command never answers).
 */
export const droidCanary: AgentCanary = {
  door: { kind: 'json', event: 'PreToolUse', tool: 'Create', shell: 'bash' },
  payload: (call) => ({
    session_id: call.sessionId,
    transcript_path: '',
    cwd: call.workspace,
    permission_mode: 'auto-high',
    hook_event_name: 'PreToolUse',
    tool_name: 'Create',
    tool_input: { file_path: call.path, content: call.content },
  }),
  env: (call) => ({ FACTORY_PROJECT_DIR: call.workspace, DROID_PROJECT_DIR: call.workspace, CLAUDE_PROJECT_DIR: call.workspace }),
  blocks: (reply) => claudeStyleBlocks(reply, 'Factory Droid'),
};
