import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/core/hooks/approver';

/**
 * A human who clicks Approve only when the test says so: after the agent (or its hook) has given up. The
 * answer must never be used, whatever it is.
 */
export class LateApprover implements Approver {
  readonly interactive = true;
  readonly requests: ApprovalRequest[] = [];
  private release!: (approved: boolean) => void;
  private readonly answer = new Promise<boolean>((resolve) => (this.release = resolve));
  private shown!: () => void;
  /** Resolves once the approval dialog would be on screen. */
  readonly asked = new Promise<void>((resolve) => (this.shown = resolve));

  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    this.shown();
    return { approved: await this.answer, approver: 'late-human' };
  }

  approveNow(): void {
    this.release(true);
  }
}

/** Polls `check` until it returns a value (a record in the log, a file on disk), failing after `ms`. */
export async function eventually<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
