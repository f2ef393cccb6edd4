/**
 * Runs a job some time after it is first asked for, once however often it is asked in between: a burst of
 * requests costs one run, and a request during a run costs one more run after it. Never two runs at once.
 */
export class RefreshSchedule {
  private timer: NodeJS.Timeout | undefined;
  private pending = false;
  private running: Promise<void> | undefined;

  /** `job` must not throw: it reports its own failures. */
  constructor(
    private readonly job: () => Promise<void>,
    private readonly delayMs: number,
  ) {}

  request(): void {
    this.pending = true;
    if (this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.delayMs);
    // A pending refresh alone must not keep a CLI process alive; its door flushes before exiting.
    this.timer.unref();
  }

  /** Runs what is pending now instead of after the delay, and resolves when nothing is pending or running. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending || this.running) await this.drain();
  }

  private drain(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (this.pending) {
          this.pending = false;
          await this.job();
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
