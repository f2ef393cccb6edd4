import { toolError, type ToolError } from '../toolError';
import type { ApprovalDecision, ApprovalRequest, Approver } from './approver';

/** Why a headless governor refused a call that needs a person: nobody was there to ask. */
export const NO_HUMAN_REASON = 'needs a person, and no human is available to ask here (headless)';

/**
 * The refusal of a call that needs a person's approval where nobody can be asked (a hook with no VS Code
 * window serving the workspace, `governor mcp --approve never`). It must not say a human rejected it: none
 * was asked. `howToApprove` tells the person where the same call would be asked.
 */
export function headlessRefusal(tool: string, howToApprove: string, why: readonly string[] = []): ToolError {
  const because = why.length > 0 ? ` (${why.join('; ')})` : '';
  return toolError(
    'HITL_REJECT',
    `Not approved: this ${tool} call needs a person's approval${because}, and this governor runs headless, with no human to ask, so nobody was asked and nothing was changed. ${howToApprove} Do not retry it unchanged; tell the user it needs their approval.`,
    { approver: 'none', reason: 'headless' },
  );
}

/**
 * A write or edit asked only because of the approval mode: the person may also let such changes land without
 * asking, at every door alike, by choosing destructive-only where the mode is set.
 */
const MODE_HINT = "Writes and edits inside the intent's scope land without asking under approval mode destructive-only: the intent's approval: in .orchestration/active_intents.yaml, or intentGovernor.approval in .vscode/settings.json.";

/** An approver for a governor nobody watches: every question is refused, saying so and how to approve. */
export function headlessApprover(howToApprove: string): Approver {
  return {
    async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
      const modeAsked = request.reasons.some((reason) => /^Approval mode every-change/.test(reason));
      return { approved: false, approver: 'none', reason: NO_HUMAN_REASON, refusal: headlessRefusal(request.tool, modeAsked ? `${howToApprove} ${MODE_HINT}` : howToApprove, request.reasons) };
    },
  };
}
