import type { ApprovalDecision, ApprovalRequest } from '../approval/approver';
import type { SessionsSnapshot } from '../sessions/workspaceSessions';

/**
 * What the serving window and the other windows of one workspace say to each other over the serving window's
 * loopback server. Every route needs the MCP bearer token AND the relay key (an agent holds the first, never
 * the second), because whoever can speak here can answer approvals.
 */
export const RELAY_PATH = '/relay';
/** GET: newline-delimited JSON events for one window, open for as long as the window is there. */
export const RELAY_EVENTS_PATH = `${RELAY_PATH}/events`;
/** POST {window, focused}: the window gained or lost focus. */
export const RELAY_FOCUS_PATH = `${RELAY_PATH}/focus`;
/** POST {window, id, decision}: the human's answer to an `ask`. */
export const RELAY_ANSWER_PATH = `${RELAY_PATH}/answer`;
/** POST {window, action, session, intent?}: the person acted on one of the serving window's agent sessions. */
export const RELAY_SESSION_PATH = `${RELAY_PATH}/session`;
/** POST {window, intent: "<id>" | null}: the person picked (or cleared) the workspace's intent in that window. */
export const RELAY_INTENT_PATH = `${RELAY_PATH}/intent`;
/** The header that carries the relay key. */
export const RELAY_KEY_HEADER = 'x-intent-governor-relay-key';

/** Serving window → one window, one JSON object per line. */
export type RelayEvent =
  /** First line of every stream: the window is attached. */
  | { type: 'ready' }
  | { type: 'ask'; id: string; request: ApprovalRequest }
  /** The agent stopped waiting (or the request moved elsewhere): drop the question. */
  | { type: 'cancel'; id: string }
  /** A message that needs no answer ("an agent waits for approval in another window"). */
  | { type: 'notice'; message: string }
  /** The serving window's live agent sessions, on attach and whenever they change: for the Agent Sessions view. */
  | { type: 'sessions'; snapshot: SessionsSnapshot }
  /** Nothing happened: keeps an idle stream open (Node's fetch gives up on a body silent for 5 minutes). */
  | { type: 'heartbeat' };

/** How often an idle relay stream carries a heartbeat: well inside fetch's 300 s body timeout. */
export const RELAY_HEARTBEAT_MS = 30_000;

export interface FocusReport {
  window: string;
  focused: boolean;
}

export interface AnswerReport {
  window: string;
  id: string;
  decision: ApprovalDecision;
}

/** A window id is ours to choose but ends up in logs and maps: short and plain. */
export function isWindowId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

/**
 * An answer from another window, checked field by field: only `approved: true` with a named approver approves;
 * anything else is a rejection (fail closed), keeping what the window said about why.
 */
export function decisionFrom(value: unknown): ApprovalDecision {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const approver = typeof v.approver === 'string' && v.approver.length > 0 ? v.approver : 'none';
  if (v.approved === true && approver !== 'none') return { ...(v as object), approved: true, approver } as ApprovalDecision;
  const reason = typeof v.reason === 'string' ? v.reason : 'the other window sent no approval';
  return { ...(v as object), approved: false, approver, reason } as ApprovalDecision;
}
