import type { WorkspaceSessions } from '../sessions/workspaceSessions';
import type { WindowApprovalRouter } from './windowApprovalRouter';

/** A busy agent changes its session many times a second: the other windows get one update per burst. */
export const SESSIONS_BROADCAST_MS = 150;

/**
 * While this window serves the folder (`serving()`), every change to its agent sessions reaches the other
 * windows' Agent Sessions views, the newest state once per burst. Returns the stop.
 */
export function broadcastSessions(sessions: WorkspaceSessions, router: () => WindowApprovalRouter | undefined, serving: () => boolean, delayMs = SESSIONS_BROADCAST_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopListening = sessions.onDidChange(() => {
    if (!serving() || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (serving()) router()?.broadcast({ type: 'sessions', snapshot: sessions.snapshot() });
    }, delayMs);
  });
  return () => {
    stopListening();
    if (timer !== undefined) clearTimeout(timer);
  };
}
