import type { ToolError } from '../toolError';
import type { ApprovalDecision, ApprovalRequest, Risk } from '../approval/approver';
import type { CallFacts } from './callFacts';
import type { ToolCall } from './toolCall';

/** Part of an approval request a hook contributes; the engine merges every ask into one request. */
export interface ApprovalAsk extends Partial<Omit<ApprovalRequest, 'reasons' | 'risk'>> {
  reason: string;
  risk: Risk;
}

export type PreDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; error: ToolError }
  | { kind: 'ask'; ask: ApprovalAsk }
  | { kind: 'modify'; input: Record<string, unknown> };

export interface PreHookResult {
  decision: PreDecision;
  /** Extra text for the model, e.g. the intent's constraints. */
  context?: string;
}

/** What a pre-hook sees: the call (with any earlier modification applied) and facts computed once per call. */
export interface PreHookContext {
  call: ToolCall;
  facts: CallFacts;
  signal: AbortSignal;
}

export interface PreHook {
  name: string;
  /** Milliseconds before the hook counts as failed (deny, HOOK_ERROR). */
  timeoutMs?: number;
  /** Built-in guards; a `modify` is only honoured from hooks that run before the first guard. */
  guard?: boolean;
  run(context: PreHookContext): Promise<PreHookResult> | PreHookResult;
}

/** How a governed call ended. */
export type CallOutcome =
  | { status: 'success'; output: ToolOutput; approval?: ApprovalDecision; recordAs?: RecordAs }
  | { status: 'blocked'; error: ToolError; approval?: ApprovalDecision }
  | { status: 'error'; error: ToolError; approval?: ApprovalDecision };

export interface PostHookContext {
  call: ToolCall;
  facts: CallFacts;
  outcome: CallOutcome;
}

/**
 * A post-hook may add text for the model (a user hook's additionalContext after the call), or replace the text
 * the model reads back (a user hook's updatedToolOutput: a redaction; the record keeps what happened).
 */
export type PostHookResult = { context?: string; outputText?: string } | undefined | void;

/** What the post-chain adds to a call's answer. */
export interface PostChainResult {
  context: string[];
  /** The last post-hook's replacement of the output text, if any. */
  outputText?: string;
}

export interface PostHook {
  name: string;
  timeoutMs?: number;
  run(context: PostHookContext): Promise<PostHookResult> | PostHookResult;
}

/** A file a governed tool changed, for the trace: contents before and after (undefined = absent). */
export interface AppliedChange {
  path: string;
  before?: string;
  after?: string;
  /** A file that existed, known only by its hash (a reconciled native change): its ranges cover the whole file. */
  before_hash?: string;
}

/**
 * An agent's native change recorded after its post event never came: under the intent its session had at
 * PreToolUse (the session may be gone), and marked as reconciled (`metadata.reconciled`).
 */
export interface RecordAs {
  intent_id?: string;
  intent_scope?: string[];
  reconciled: string;
}

/** A tool's success: text for the model, structured data for programs, and what it changed. */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
  changes?: AppliedChange[];
  /** The write path already appended the trace record (write-ahead), so the post-chain must not add another. */
  recorded?: boolean;
}
