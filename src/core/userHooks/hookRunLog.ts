/** How a hook's last run ended, for `governor hooks list` and *Show Hooks*. */
export interface HookRunRecord {
  /** `allow`, `deny`, `ask`, `none` (said nothing), `failed: <why>`, `skipped: <why>` (not approved, once). */
  result: string;
  durationMs: number;
  /** ISO time the run ended. */
  at: string;
}

/** Last run per hook id, per workspace; kept outside the repository (it changes on every call). */
export interface HookRunLog {
  record(root: string, hookId: string, run: HookRunRecord): Promise<void>;
  read(root: string): Promise<Record<string, HookRunRecord>>;
}
