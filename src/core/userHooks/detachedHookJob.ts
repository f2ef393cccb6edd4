import type { HookEventFacts } from './hookInput';

/** A background hook handed to another process: enough to find the same hook again and run it as it would have run here. */
export interface DetachedHookJob {
  root: string;
  door: string;
  hookId: string;
  /** The hook must still be exactly the one approved when the job was made. */
  approvalHash: string;
  sessionKey: string;
  facts: HookEventFacts;
  intentId?: string;
}

/** Starts background hooks in a process of their own (a one-shot hook process must not wait for them, nor kill them). */
export interface HookJobLauncher {
  launch(job: DetachedHookJob): void;
}
