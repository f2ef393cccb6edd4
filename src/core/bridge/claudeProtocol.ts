import type { HookDialect, HookEvent, HookReply } from './hookDialect';
import { isRecord } from './hookDialect';
import type { BridgeAnswer } from './nativeCall';

/**
 * The hook protocol of Claude Code (https://docs.claude.com/en/docs/claude-code/hooks), which VS Code's agent
 * hooks also speak (https://code.visualstudio.com/docs/agents/reference/hooks-reference): snake_case JSON on
 * stdin, `hookSpecificOutput` JSON on stdout, exit 2 blocks with stderr shown to the model.
 */
export function parseClaudeStyle(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const eventName = payload.hook_event_name ?? payload.hookEventName;
  if (typeof eventName !== 'string') return { ok: false, message: 'the hook input has no hook_event_name' };
  const sessionId = payload.session_id ?? payload.sessionId;
  const cwd = typeof payload.cwd === 'string' ? payload.cwd : undefined;
  if (eventName === 'PreToolUse' || eventName === 'PostToolUse') {
    if (typeof sessionId !== 'string' || sessionId === '') return { ok: false, message: `${eventName} input has no session_id` };
    if (typeof payload.tool_name !== 'string') return { ok: false, message: `${eventName} input has no tool_name` };
    if (!isRecord(payload.tool_input)) return { ok: false, message: `${eventName} input has no tool_input object` };
    const toolUseId = typeof payload.tool_use_id === 'string' ? payload.tool_use_id : undefined;
    return { ok: true, event: { kind: 'tool', phase: eventName === 'PreToolUse' ? 'pre' : 'post', eventName, sessionId, cwd, toolName: payload.tool_name, toolInput: payload.tool_input, toolUseId } };
  }
  if (eventName === 'SessionStart' || eventName === 'UserPromptSubmit') {
    return { ok: true, event: { kind: 'context', eventName, sessionId: typeof sessionId === 'string' ? sessionId : 'unknown', cwd } };
  }
  // Claude Code sends SessionEnd when a conversation ends (clear, logout, exit); it cannot block anything.
  if (eventName === 'SessionEnd') {
    if (typeof sessionId !== 'string' || sessionId === '') return { ok: false, message: 'SessionEnd input has no session_id' };
    return { ok: true, event: { kind: 'end', eventName, sessionId, cwd } };
  }
  return { ok: true, event: { kind: 'other', eventName } };
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

export function renderClaudeStyle(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind === 'tool' && event.phase === 'pre') {
    // Allow says nothing: the agent's own permission rules still apply; the governor only ever narrows them.
    if (answer.decision === 'allow') return { exitCode: 0, stdout: '', stderr: '' };
    return {
      exitCode: 0,
      stdout: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: answer.decision, permissionDecisionReason: answer.reason ?? 'Intent Governor refused this call.' } }),
      stderr: '',
    };
  }
  if (answer.context && (event.kind === 'context' || event.kind === 'tool')) {
    return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: event.eventName, additionalContext: answer.context } }), stderr: '' };
  }
  return { exitCode: 0, stdout: '', stderr: '' };
}

export function renderClaudeStyleFailure(reason: string): HookReply {
  return { exitCode: 2, stdout: '', stderr: `Intent Governor blocked this call: ${reason}\n` };
}
