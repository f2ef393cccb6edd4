import { userInfo } from 'node:os';
import type { ApprovalDecision, ApprovalRequest, ApproveOptions, Approver } from '../../core/approval/approver';
import { cancelledDecision } from '../../core/approval/cancellation';
import { toolError } from '../../core/toolError';
import { approvalDetail, scopeExpansionDetail } from './approvalText';

export const APPROVE = 'Approve';
export const APPROVE_FOR_SESSION = 'Approve for this Session';
export const OPEN_DIFF = 'Open Diff…';
export const REJECT = 'Reject';
export const APPROVE_EXPANSION = 'Approve Expansion';

/** Requests waiting behind the one on screen; past this a new one is refused at once rather than piling up. */
export const MAX_WAITING = 16;
/** Characters of diff a request keeps while it waits: a human may take minutes, and many may be queued. */
export const MAX_DIFF_CHARS = 64 * 1024;

/**
 * What the approver needs from the editor, as a port so the queue and the button logic are tested in plain
 * Node; `approvalDialogs.ts` is the VS Code side.
 */
export interface ApprovalDialogs {
  /**
   * A native modal; resolves to the clicked button's title, or undefined when dismissed. The first button is the
   * primary one, focused, so Enter picks it; Escape picks Reject (or dismisses, when Reject is the first).
   */
  modal(title: string, detail: string, buttons: string[]): Promise<string | undefined>;
  /** Opens the proposed change in a diff editor; resolves once it is shown. */
  openDiff(request: ApprovalRequest): Promise<void>;
  /** A non-modal message that needs no answer. */
  notice(message: string): void;
}

/** The button the human chose: Approve, Approve for this Session, or anything else (a rejection). */
type Answer = 'once' | 'session' | 'reject';

/** One request in the queue; `settle` answers the caller once, so a cancelled request can be answered early. */
interface Pending {
  request: ApprovalRequest;
  settled: boolean;
  settle(decision: ApprovalDecision): void;
  fail(error: unknown): void;
}

/**
 * The human in the loop as native VS Code modals: Approve / Approve for this Session / Open Diff… / Reject for
 * destructive calls (the session-wide answer only where the request allows it), Approve Expansion / Reject for
 * scope expansions. Requests queue, one modal at a time, first come first served, so a
 * human never answers a question they cannot see. Anything but an explicit approval is a rejection.
 *
 * A request whose agent stops waiting is rejected at once: taken off the queue if it is not shown yet; if its
 * modal is on screen (VS Code cannot close it from code), a later click is told the request expired.
 */
export class ModalApprover implements Approver {
  private readonly waiting: Pending[] = [];
  private showing = false;
  /** A person answers every modal, so this approver may approve a repository's hook commands. */
  readonly interactive = true;
  private readonly approver: string;

  constructor(
    private readonly dialogs: ApprovalDialogs,
    userName: string = osUserName(),
  ) {
    this.approver = `modal:${userName}`;
  }

  approve(request: ApprovalRequest, options: ApproveOptions = {}): Promise<ApprovalDecision> {
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve(cancelledDecision(request.tool));
    if (this.waiting.length >= MAX_WAITING) return Promise.resolve(queueFull(request));
    return new Promise<ApprovalDecision>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(pending);
        if (index >= 0) this.waiting.splice(index, 1); // not shown yet: it never will be
        pending.settle(cancelledDecision(request.tool));
      };
      const pending: Pending = {
        request: bounded(request),
        settled: false,
        settle(decision) {
          if (pending.settled) return;
          pending.settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(decision);
        },
        fail(error) {
          if (pending.settled) return;
          pending.settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(pending);
      this.showNext();
    });
  }

  private showNext(): void {
    if (this.showing) return;
    const pending = this.waiting.shift();
    if (!pending) return;
    this.showing = true;
    this.ask(pending)
      .then(
        (answer) => {
          // The caller has its answer already (the agent stopped waiting): the click changes nothing, say so.
          if (pending.settled) this.dialogs.notice(expiredNotice(pending.request));
          else pending.settle(this.decision(answer));
        },
        (error: unknown) => pending.fail(error),
      )
      .finally(() => {
        this.showing = false;
        this.showNext();
      });
  }

  /** What the human answered; a request that expired while its modal was open is not shown again. */
  private async ask(pending: Pending): Promise<Answer> {
    const { request } = pending;
    if (request.kind === 'scope_expansion') {
      const choice = await this.dialogs.modal(request.title, scopeExpansionDetail(request), [APPROVE_EXPANSION, REJECT]);
      return choice === APPROVE_EXPANSION ? 'once' : 'reject';
    }
    const buttons = approvalButtons(request);
    const detail = approvalDetail(request);
    for (;;) {
      const choice = await this.dialogs.modal(request.title, detail, buttons);
      if (choice !== OPEN_DIFF || pending.settled) return choice === APPROVE ? 'once' : choice === APPROVE_FOR_SESSION && request.session_approvable ? 'session' : 'reject';
      // The diff editor cannot sit behind a modal, so show it first and ask again. A diff that cannot be
      // shown must not end the question: the modal comes back either way.
      await this.dialogs.openDiff(request).catch(() => undefined);
    }
  }

  private decision(answer: Answer): ApprovalDecision {
    if (answer === 'reject') return { approved: false, approver: this.approver, reason: 'rejected in the approval dialog' };
    return answer === 'session' ? { approved: true, approver: this.approver, for_session: true } : { approved: true, approver: this.approver };
  }
}

/**
 * The buttons in their order, the first being what Enter picks. A write or edit keeps Approve first; anything else
 * (a delete, a command, another server's tool) and any high-risk request puts Reject first, so a key pressed by
 * habit never approves what cannot be undone.
 */
export function approvalButtons(request: ApprovalRequest): string[] {
  const approvals = [APPROVE, ...(request.session_approvable ? [APPROVE_FOR_SESSION] : []), ...(request.diff ? [OPEN_DIFF] : [])];
  return rejectByDefault(request) ? [REJECT, ...approvals] : [...approvals, REJECT];
}

function rejectByDefault(request: ApprovalRequest): boolean {
  const fileChange = request.mutation_class === 'write' || request.mutation_class === 'edit';
  return !fileChange || request.risk === 'high';
}

/** Refused without asking: a human cannot usefully answer an unbounded backlog, and each entry holds memory. */
function queueFull(request: ApprovalRequest): ApprovalDecision {
  const reason = `too many approvals are waiting (${MAX_WAITING} already queued for the human)`;
  return {
    approved: false,
    approver: 'none',
    reason,
    refusal: toolError('HITL_REJECT', `Too many approvals are waiting for the human (${MAX_WAITING} already queued), so this ${request.tool} call was refused without being shown. Wait for the pending ones to be answered, then call again.`, {
      reason: 'approval_queue_full',
    }),
  };
}

/** A copy of the request whose diff is at most MAX_DIFF_CHARS, cut at a line end, saying so. */
function bounded(request: ApprovalRequest): ApprovalRequest {
  const diff = request.diff;
  if (diff === undefined || diff.length <= MAX_DIFF_CHARS) return request;
  const lineEnd = diff.lastIndexOf('\n', MAX_DIFF_CHARS - 1);
  const kept = diff.slice(0, lineEnd > 0 ? lineEnd + 1 : MAX_DIFF_CHARS);
  const note = `… diff cut at ${MAX_DIFF_CHARS / 1024} KB of ${Math.ceil(diff.length / 1024)} KB: the change is too large to keep whole while it waits for approval.\n`;
  return { ...request, diff: kept + note, diff_cut: true };
}

function expiredNotice(request: ApprovalRequest): string {
  const what = request.files.length ? `${request.tool} of ${request.files.join(', ')}` : request.tool;
  return `That approval request (${what}) had expired: the agent stopped waiting for it, so your answer was not used and nothing was changed.`;
}

/** The OS account name; containers without a passwd entry make userInfo() throw. */
function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}
