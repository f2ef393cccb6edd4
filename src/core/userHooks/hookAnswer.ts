import { readHookJson } from './hookOutput';

/**
 * A hook's JSON answer in the shape the `.orchestration/hooks.yaml` pre-hooks use: read by `readHookJson`
 * (Claude Code's whole output protocol and our short form), with "said nothing" as allow and the user-facing
 * systemMessage folded into the context. Kept until those hooks run through the hook runner.
 */
export interface HookAnswer {
  decision: 'allow' | 'deny' | 'ask';
  reason?: string;
  context?: string;
  /** The input the hook wants the call to have instead (our `modify`, Claude's `updatedInput`). */
  updatedInput?: Record<string, unknown>;
}

/** The answer, or why it is not one (a malformed answer is a failure, never an allow). */
export function readHookAnswer(answer: Record<string, unknown>): HookAnswer | string {
  const read = readHookJson('PreToolUse', answer);
  if (typeof read === 'string') return read;
  const contexts = [read.context, read.systemMessage].filter((c): c is string => c !== undefined);
  return {
    decision: read.decision === 'none' ? 'allow' : read.decision,
    ...(read.reason !== undefined ? { reason: read.reason } : {}),
    ...(contexts.length ? { context: contexts.join('\n') } : {}),
    ...(read.updatedInput !== undefined ? { updatedInput: read.updatedInput } : {}),
  };
}
