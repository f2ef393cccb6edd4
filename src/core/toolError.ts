/** Every refusal an agent can receive; the model reads `code` to decide what to do next. */
export type ErrorCode =
  | 'NO_ACTIVE_INTENT'
  | 'INTENT_NOT_FOUND'
  | 'INTENT_NOT_ACTIVE'
  | 'INTENTS_FILE_INVALID'
  | 'SCOPE_VIOLATION'
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'PROTECTED_PATH'
  | 'STALE_FILE'
  | 'PRECONDITION_REQUIRED'
  | 'HITL_REJECT'
  | 'COMMAND_DENIED'
  | 'HOOK_BLOCKED'
  | 'HOOK_ERROR'
  | 'SIGNING_REQUIRED'
  /** This governor's signing key is in .orchestration/signers/revoked/: nothing is signed with it, so nothing changes. */
  | 'SIGNING_KEY_REVOKED'
  /** A post (PostToolUse) that is not the post of a pre this governor answered: nothing is recorded for it. */
  | 'UNMATCHED_POST'
  | 'INVALID_INPUT';

/** The JSON an agent receives instead of a result: what happened and what to do next. */
export interface ToolError {
  type: 'tool_error';
  code: ErrorCode;
  message: string;
  meta?: Record<string, unknown>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ToolError };

export function toolError(code: ErrorCode, message: string, meta?: Record<string, unknown>): ToolError {
  return meta === undefined ? { type: 'tool_error', code, message } : { type: 'tool_error', code, message, meta };
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: ToolError): Result<T> {
  return { ok: false, error };
}

export function isToolError(value: unknown): value is ToolError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as ToolError).type === 'tool_error' &&
    typeof (value as ToolError).code === 'string' &&
    typeof (value as ToolError).message === 'string'
  );
}
