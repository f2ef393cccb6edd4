import type { ApprovalRequest, Risk } from '../approval/approver';
import type { ApprovalAsk } from './hookTypes';
import type { ToolCall } from './toolCall';

const RISK_ORDER: Risk[] = ['low', 'medium', 'high'];

function higherRisk(a: Risk, b: Risk): Risk {
  // Stryker disable next-line EqualityOperator: at equal rank a and b are the same risk, so either answer is the same
  return RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b;
}

/** Folds every hook's ask into the one request a human sees: all reasons, the highest risk, the latest details. */
export function mergeAsks(call: ToolCall, mutationClass: string, asks: ApprovalAsk[]): ApprovalRequest {
  const request: ApprovalRequest = {
    kind: 'destructive',
    title: `Allow ${call.agent.name} to run ${call.tool}?`,
    tool: call.tool,
    files: [],
    risk: 'low',
    mutation_class: mutationClass,
    reasons: [],
    session_id: call.session_id,
  };
  for (const ask of asks) {
    const { reason, risk, files, ...details } = ask;
    request.reasons.push(reason);
    request.risk = higherRisk(request.risk, risk);
    for (const file of files ?? []) if (!request.files.includes(file)) request.files.push(file);
    for (const [key, value] of Object.entries(details)) {
      if (value !== undefined) (request as unknown as Record<string, unknown>)[key] = value;
    }
  }
  // A standing approval or a session-wide answer covers the approval gate's question only, never another hook's.
  if (!asks.every((ask) => ask.session_approvable)) delete request.session_approvable;
  if (!asks.every((ask) => ask.standing)) delete request.standing;
  return request;
}
