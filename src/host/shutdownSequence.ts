import type { Logger } from '../core/logger';

interface Step {
  name: string;
  run(): Promise<void>;
}

/**
 * What must finish before the extension host exits: the flushes a synchronous dispose would cut short (records
 * still queued for the trace, the MCP server's calls being cancelled, the discovery file). `deactivate` awaits
 * `run()`; VS Code also disposes subscriptions without waiting, and `dispose()` joins the same single run.
 */
export class ShutdownSequence {
  private readonly steps: Step[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** Steps run last added first, like disposables: the server stops before the trace it writes to is closed. */
  add(name: string, run: () => Promise<void>): void {
    this.steps.unshift({ name, run });
  }

  run(): Promise<void> {
    this.running ??= this.runSteps();
    return this.running;
  }

  dispose(): void {
    void this.run();
  }

  private async runSteps(): Promise<void> {
    for (const step of this.steps) {
      try {
        await step.run();
      } catch (error) {
        // One step failing must not keep the others (the trace above all) from finishing.
        try {
          this.logger.error(`shutdown: ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        } catch {
          // the log channel may already be disposed at shutdown
        }
      }
    }
  }
}
