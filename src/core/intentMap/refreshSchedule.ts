/** The clock and timers a schedule runs on: Node's, or a test's. */
export interface ScheduleTimers {
  now(): number;
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const nodeTimers: ScheduleTimers = {
  now: () => Date.now(),
  set: (run, ms) => {
    const timer = setTimeout(run, ms);
    // A pending refresh alone must not keep a CLI process alive; its door flushes before exiting.
    timer.unref();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** How much longer than its delay a run may wait for a quiet moment, in multiples of the delay. */
const MAX_WAIT_FACTOR = 10;

/**
 * Runs a job once requests have stopped for `delayMs`, once however often it is asked in between: a burst of
 * requests costs one run, after the burst, where an agent's pause is, not in the middle of its calls. A stream that
 * never pauses still gets a run within ten delays of its first request. A request during a run costs one more
 * run after it. Never two runs at once.
 */
export class RefreshSchedule {
  private timer: unknown;
  /** When the oldest request still waiting for a run came. */
  private waitingSince: number | undefined;
  private pending = false;
  private running: Promise<void> | undefined;

  /** `job` must not throw: it reports its own failures. */
  constructor(
    private readonly job: () => Promise<void>,
    private readonly delayMs: number,
    private readonly timers: ScheduleTimers = nodeTimers,
  ) {}

  request(): void {
    this.pending = true;
    if (this.running) return;
    const now = this.timers.now();
    this.waitingSince ??= now;
    const due = Math.min(now + this.delayMs, this.waitingSince + this.delayMs * MAX_WAIT_FACTOR);
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      void this.drain();
    }, Math.max(0, due - now));
  }

  /** Runs what is pending now instead of after the delay, and resolves when nothing is pending or running. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      this.timers.clear(this.timer);
      this.timer = undefined;
    }
    if (this.pending || this.running) await this.drain();
  }

  private drain(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (this.pending) {
          this.pending = false;
          this.waitingSince = undefined;
          await this.job();
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
