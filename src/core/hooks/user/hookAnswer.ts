/**
 * A hook's JSON answer, in our short form (`decision`, `reason`, `modify`, `additionalContext`) or in Claude
 * Code's hook protocol (`continue`/`stopReason`, `decision: "block"|"approve"`, `hookSpecificOutput` with
 * `permissionDecision`, `permissionDecisionReason`, `updatedInput`, `additionalContext`). Every refusal either
 * form can express is a refusal: the most severe signal in the answer wins, so no spelling reads as allow.
 */
export interface HookAnswer {
  decision: 'allow' | 'deny' | 'ask';
  reason?: string;
  context?: string;
  /** The input the hook wants the call to have instead (our `modify`, Claude's `updatedInput`). */
  updatedInput?: Record<string, unknown>;
}

const SEVERITY = { allow: 0, ask: 1, deny: 2 } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The answer, or why it is not one (a malformed answer is a failure, never an allow). */
export function readHookAnswer(answer: Record<string, unknown>): HookAnswer | string {
  const specific = answer.hookSpecificOutput;
  if (specific !== undefined && !isRecord(specific)) return "returned a 'hookSpecificOutput' that is not an object";
  const signals: { decision: HookAnswer['decision']; reason?: string }[] = [];
  if (answer.continue === false) signals.push({ decision: 'deny', reason: text(answer.stopReason) ?? 'the hook stopped the agent (continue: false)' });
  const reason = text(answer.reason);
  switch (answer.decision) {
    case undefined:
    case 'allow':
    case 'approve':
      break;
    case 'deny':
    case 'block':
      signals.push({ decision: 'deny', reason });
      break;
    case 'ask':
      signals.push({ decision: 'ask', reason });
      break;
    default:
      return `returned an unknown decision '${String(answer.decision)}'`;
  }
  const permission = specific?.permissionDecision;
  if (permission !== undefined) {
    if (permission !== 'allow' && permission !== 'deny' && permission !== 'ask') return `returned an unknown permissionDecision '${String(permission)}'`;
    signals.push({ decision: permission, reason: text(specific?.permissionDecisionReason) ?? reason });
  }
  const modify = answer.modify ?? specific?.updatedInput;
  if (modify !== undefined && !isRecord(modify)) return "returned a changed input ('modify' or 'updatedInput') that is not an object";
  const contexts = [answer.additionalContext, specific?.additionalContext, answer.systemMessage].filter((c): c is string => typeof c === 'string' && c !== '');
  const worst = signals.reduce<{ decision: HookAnswer['decision']; reason?: string }>((a, b) => (SEVERITY[b.decision] > SEVERITY[a.decision] ? b : a), { decision: 'allow' });
  const why = worst.reason ?? reason;
  return {
    decision: worst.decision,
    ...(why !== undefined ? { reason: why } : {}),
    ...(contexts.length ? { context: contexts.join('\n') } : {}),
    ...(modify !== undefined ? { updatedInput: modify as Record<string, unknown> } : {}),
  };
}
