/**
 * The port the post-chain tells that a log grew (a change landed, a call was refused), so that
 * `.orchestration/intent_map.md` follows. `changed` returns at once: the map is rebuilt in the background.
 */
export interface IntentMapUpdates {
  changed(): void;
}
