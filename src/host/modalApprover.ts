import { userInfo } from 'node:os';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/hooks/approver';
import { approvalDetail, scopeExpansionDetail } from './approvalText';

export const APPROVE = 'Approve';
export const OPEN_DIFF = 'Open Diff…';
export const REJECT = 'Reject';
export const APPROVE_EXPANSION = 'Approve Expansion';

/**
 * The two things the approver needs from the editor, as a port so the queue and the button logic are tested
 * in plain Node; `approvalDialogs.ts` is the VS Code side.
 */
export interface ApprovalDialogs {
  /** A native modal; resolves to the clicked button's title, or undefined when dismissed. */
  modal(title: string, detail: string, buttons: string[]): Promise<string | undefined>;
  /** Opens the proposed change in a diff editor; resolves once it is shown. */
  openDiff(request: ApprovalRequest): Promise<void>;
}

/**
 * The human in the loop as native VS Code modals: Approve / Open Diff… / Reject for destructive calls, Approve
 * Expansion / Reject for scope expansions. Requests queue, one modal at a time, first come first served, so a
 * human never answers a question they cannot see. Anything but an explicit approval is a rejection.
 */
export class ModalApprover implements Approver {
  private queue: Promise<unknown> = Promise.resolve();
  /** A person answers every modal, so this approver may approve a repository's hook commands. */
  readonly interactive = true;
  private readonly approver: string;

  constructor(
    private readonly dialogs: ApprovalDialogs,
    userName: string = osUserName(),
  ) {
    this.approver = `modal:${userName}`;
  }

  approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const answer = this.queue.then(() => this.ask(request));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async ask(request: ApprovalRequest): Promise<ApprovalDecision> {
    if (request.kind === 'scope_expansion') {
      const choice = await this.dialogs.modal(request.title, scopeExpansionDetail(request), [APPROVE_EXPANSION, REJECT]);
      return this.decision(choice === APPROVE_EXPANSION);
    }
    const buttons = request.diff ? [APPROVE, OPEN_DIFF, REJECT] : [APPROVE, REJECT];
    const detail = approvalDetail(request);
    for (;;) {
      const choice = await this.dialogs.modal(request.title, detail, buttons);
      if (choice !== OPEN_DIFF) return this.decision(choice === APPROVE);
      // The diff editor cannot sit behind a modal, so show it first and ask again. A diff that cannot be
      // shown must not end the question: the modal comes back either way.
      await this.dialogs.openDiff(request).catch(() => undefined);
    }
  }

  private decision(approved: boolean): ApprovalDecision {
    return approved ? { approved, approver: this.approver } : { approved, approver: this.approver, reason: 'rejected in the approval dialog' };
  }
}

/** The OS account name; containers without a passwd entry make userInfo() throw. */
function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}
