import { beforeDeadline } from '../beforeDeadline';
import { toolError, type ToolError } from '../toolError';
import type { ApprovalDecision, ApprovalRequest, Approver } from './approver';

/** Why a call its agent gave up on was refused; the governance log and the approval dialog say this. */
export const CANCELLED_REASON = 'cancelled: the agent stopped waiting';

/** The refusal a cancelled call ends with, so it is audited like any other refusal. */
export function cancelledCallError(tool: string): ToolError {
  return toolError(
    'HITL_REJECT',
    `Cancelled: the agent stopped waiting for this ${tool} call (its client timed out, cancelled or disconnected), so it was not carried out and nothing was changed. Call again if it is still wanted.`,
    { reason: 'cancelled' },
  );
}

/** No human decided: the agent gave up first. Never an approval, whatever the human clicks later. */
export function cancelledDecision(tool: string): ApprovalDecision {
  return { approved: false, approver: 'none', reason: CANCELLED_REASON, refusal: cancelledCallError(tool) };
}

/**
 * Asks `approver`, but stops waiting the moment `signal` aborts, whatever the approver does with it: a
 * cancelled call is not approved, and an answer that arrives after the abort is never used.
 */
export async function approveUnlessCancelled(approver: Approver, request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
  if (!signal) return approver.approve(request);
  if (signal.aborted) return cancelledDecision(request.tool);
  const answer = await beforeDeadline(approver.approve(request, { signal }), signal);
  return answer.settled && !signal.aborted ? answer.value : cancelledDecision(request.tool);
}
