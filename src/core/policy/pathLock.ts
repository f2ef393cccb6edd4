/**
 * Per-key async mutex: calls for one key run one at a time, in arrival order; other keys run freely.
 * It serialises check-and-write inside this process only; other processes are caught by the re-check
 * right before the rename (see optimisticLock.ts).
 */
export class PathLocks {
  /** The promise the next caller for a key waits on; removed when its last holder leaves. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Chained on the previous tail, so waiters are released strictly first come, first served.
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key); // nobody queued behind us
    }
  }

  /** Keys currently held or waited on (for diagnostics and tests: 0 when idle). */
  get size(): number {
    return this.tails.size;
  }
}
