/**
 * Tool calls a door has started and not yet finished. A door that stops (a server closing, stdin ending) first
 * cancels them, then waits here so their outcomes reach the trace before it is closed.
 */
export class InflightCalls {
  private readonly calls = new Set<Promise<void>>();

  track(call: Promise<unknown>): void {
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.calls.add(settled);
    void settled.then(() => this.calls.delete(settled));
  }

  /** Resolves once every call tracked so far has finished (a failed call counts as finished). */
  async settled(): Promise<void> {
    await Promise.all([...this.calls]);
  }
}
