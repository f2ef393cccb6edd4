/** How a hook's last run ended, for `governor hooks list` and *Show Hooks*. */
export interface HookRunRecord {
  /** `allow`, `deny`, `ask`, `none` (said nothing), `failed: <why>`, `skipped: <why>` (not approved, once). */
  result: string;
  durationMs: number;
  /** ISO time the run ended. */
  at: string;
}

/** A run log that keeps nothing: `governor decide` only judges, and a judgement is no run a listing should show. */
export const NO_RUN_LOG: HookRunLog = { record: async () => undefined, read: async () => ({}) };

/** Last run per hook identity (the hash of its definition), per workspace; kept outside the repository (it changes on every call). */
export interface HookRunLog {
  record(root: string, hookId: string, run: HookRunRecord): Promise<void>;
  read(root: string): Promise<Record<string, HookRunRecord>>;
}
