import { fileUriPath, isRecord, resolveAgainst, stringField, type AgentPlace, type HookDialect, type HookEvent, type HookReply } from '../common/hookDialect';
import type { BridgeAnswer, NativeEdit, ToolMapping } from '../../bridge/nativeCall';

/**
 * Cursor's hooks (`.cursor/hooks.json`, https://cursor.com/docs/agent/hooks): one event per kind of action,
 * fields at the top level, `workspace_roots` instead of `cwd`, and a JSON answer
 * `{"permission": "allow"|"deny"|"ask", "userMessage", "agentMessage"}` for the `before…` events.
 * Governed here: beforeShellExecution {command, cwd} → run_command, beforeReadFile {file_path} → read_file,
 * afterFileEdit {file_path, edits[{old_string, new_string}]} → the trace. Cursor has no documented event
 * before a file edit in the version 1 hooks, so its edits can be traced but not refused.
 *
 * Paths: Cursor sends absolute paths; a relative one is taken against the workspace root (`workspace_roots[0]`),
 * where Cursor's agent works, and a command runs in the `cwd` its event names (else that root).
 */
function parse(payload: unknown): ReturnType<HookDialect['parse']> {
  if (!isRecord(payload)) return { ok: false, message: 'the hook input is not a JSON object' };
  const eventName = payload.hook_event_name;
  if (typeof eventName !== 'string') return { ok: false, message: 'the hook input has no hook_event_name' };
  const sessionId = typeof payload.conversation_id === 'string' && payload.conversation_id !== '' ? payload.conversation_id : undefined;
  const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
  const cwd = roots[0];
  const tool = (phase: 'pre' | 'post', toolName: string): ReturnType<HookDialect['parse']> =>
    sessionId === undefined
      ? { ok: false, message: `${eventName} input has no conversation_id` }
      : { ok: true, event: { kind: 'tool', phase, eventName, sessionId, cwd, toolName, toolInput: payload, toolUseId: typeof payload.generation_id === 'string' ? `${payload.generation_id}:${eventName}:${String(payload.file_path ?? payload.command ?? '')}` : undefined } };
  switch (eventName) {
    case 'beforeShellExecution':
    case 'beforeReadFile':
      return tool('pre', eventName);
    case 'afterFileEdit':
      return tool('post', eventName);
    case 'beforeSubmitPrompt':
      return { ok: true, event: { kind: 'context', eventName, hookEvent: 'UserPromptSubmit', sessionId: sessionId ?? 'unknown', cwd, fields: typeof payload.prompt === 'string' ? { prompt: payload.prompt } : {} } };
    case 'stop':
      return { ok: true, event: { kind: 'context', eventName, hookEvent: 'Stop', sessionId: sessionId ?? 'unknown', cwd, fields: {} } };
    default:
      return { ok: true, event: { kind: 'other', eventName } };
  }
}

function edits(value: unknown): NativeEdit[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: NativeEdit[] = [];
  for (const e of value) {
    if (!isRecord(e) || typeof e.old_string !== 'string' || typeof e.new_string !== 'string') return undefined;
    out.push({ search: e.old_string, replace: e.new_string, all: false });
  }
  return out;
}

function mapTool(toolName: string, input: Record<string, unknown>, place: AgentPlace): ToolMapping {
  const refused = (what: string): ToolMapping => ({ kind: 'refused', reason: `Cursor's ${toolName} hook input has no ${what}, so Intent Governor refuses it.` });
  const path = (value: string | undefined) => (value === undefined ? undefined : (fileUriPath(value) ?? resolveAgainst(place.workspace, value)));
  if (toolName === 'beforeShellExecution') {
    const command = stringField(input, 'command');
    const cwd = path(stringField(input, 'cwd') || undefined) ?? place.workspace;
    return command === undefined ? refused('command') : { kind: 'governed', calls: [{ tool: 'run_command', input: { command, cwd } }] };
  }
  if (toolName === 'beforeReadFile') {
    const file = path(stringField(input, 'file_path'));
    return file === undefined ? refused('file_path') : { kind: 'governed', calls: [{ tool: 'read_file', input: { path: file } }] };
  }
  if (toolName === 'afterFileEdit') {
    const file = path(stringField(input, 'file_path'));
    const list = edits(input.edits);
    return file === undefined || list === undefined ? refused('file_path and edits') : { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: file }, edits: list }] };
  }
  return { kind: 'refused', reason: `Intent Governor does not know Cursor's hook event '${toolName}', so it is refused (fail closed).` };
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

function render(event: HookEvent, answer: BridgeAnswer): HookReply {
  if (event.kind === 'tool' && event.phase === 'pre') {
    // Only a shell command's rewrite travels back (`updated_input`); Cursor would read the original file otherwise.
    if (answer.updatedInput && event.eventName !== 'beforeShellExecution') {
      const reason = `A hook rewrote this ${event.eventName} call and Cursor cannot run the rewritten input, so it is refused. Make the change the hook asked for yourself.`;
      return { exitCode: 0, stdout: json({ permission: 'deny', userMessage: reason, agentMessage: reason }), stderr: '' };
    }
    const permission = event.eventName === 'beforeReadFile' && answer.decision === 'ask' ? 'deny' : answer.decision;
    const body: Record<string, unknown> = { permission };
    const message = answer.reason ?? answer.context ?? answer.systemMessage;
    if (message) {
      body.userMessage = answer.reason ?? answer.systemMessage ?? message;
      body.agentMessage = message;
    }
    if (answer.updatedInput && typeof answer.updatedInput.command === 'string') body.updated_input = { command: answer.updatedInput.command };
    return { exitCode: 0, stdout: json(body), stderr: '' };
  }
  if (event.kind === 'context') {
    if (answer.decision === 'deny' || answer.stop !== undefined) return { exitCode: 0, stdout: json({ continue: false, userMessage: answer.reason ?? answer.stop }), stderr: '' };
    return { exitCode: 0, stdout: json({ continue: true }), stderr: '' };
  }
  return { exitCode: 0, stdout: '', stderr: '' };
}

function renderFailure(reason: string): HookReply {
  const message = `Intent Governor blocked this call: ${reason}`;
  return { exitCode: 2, stdout: json({ permission: 'deny', continue: false, userMessage: message, agentMessage: message }), stderr: `${message}\n` };
}

export const cursorDialect: HookDialect = { id: 'cursor', agentName: 'cursor', parse, mapTool, render, renderFailure };
