/** What became of work raced against a deadline: its value, or that the deadline came first. */
export type BeforeDeadline<T> = { settled: true; value: T } | { settled: false };

/**
 * Waits for `work` until `deadline` aborts, whichever comes first. An answer that must leave in time cannot count
 * on every step below it to honour the signal: this makes the deadline hold whatever the work does. A rejection
 * of `work` is passed on; the work itself is not stopped (its own signal does that, where it listens).
 */
export function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<BeforeDeadline<T>> {
  if (deadline.aborted) return Promise.resolve({ settled: false });
  return new Promise<BeforeDeadline<T>>((resolve, reject) => {
    const onAbort = () => resolve({ settled: false });
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        deadline.removeEventListener('abort', onAbort);
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        deadline.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A call's deadline: aborts when `parent` does or `ms` have passed, whichever comes first; `dispose` once the call
 * is answered. What AbortSignal.any with AbortSignal.timeout gives, for less than half the cost per call (no weak
 * references to track, no timer left running after the answer).
 */
export class CallDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort = () => this.controller.abort(this.parent.reason);

  constructor(
    private readonly parent: AbortSignal,
    ms: number,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new DOMException('The call missed its deadline.', 'TimeoutError')), ms);
    if (parent.aborted) this.onParentAbort();
    else parent.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}
