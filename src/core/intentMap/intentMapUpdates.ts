import type { Result } from '../toolError';

/** What one rebuild of the intent map did. */
export interface IntentMapOutcome {
  /** Absolute path of the map. */
  path: string;
  /** False when the map already said exactly this. */
  written: boolean;
  text: string;
  intents: number;
  files: number;
}

/**
 * The port the post-chain tells that a log grew (a change landed, a call was refused), so that
 * `.orchestration/intent_map.md` follows; the inspector asks it for a current map before opening it.
 */
export interface IntentMapUpdates {
  /** Returns at once: the map is rebuilt in the background, once for a burst of changes. */
  changed(): void;
  /** Rebuilds now (after any rebuild under way); a failure is a value saying what happened and what to do. */
  refresh(): Promise<Result<IntentMapOutcome>>;
}
