import type { ApprovalDecision, ApprovalRequest } from '../approval/approver';
import type { KeptTarget } from '../pipeline/agentCall';
import type { AppliedChange, RecordAs, ToolOutput } from '../pipeline/hookTypes';
import type { NativeToolUse } from '../pipeline/toolCall';
import type { ErrorCode, ToolError } from '../toolError';
import type { AgentInfo } from '../trace/traceSink';

/** A call as every door hands it to `Governor.run`; the governor assigns the invocation id when the door has none. */
export interface ToolCallRequest {
  tool: string;
  input: unknown;
  session_id: string;
  agent: AgentInfo;
  invocation_id?: string;
  /** The agent's own tool this call stands for (the hook bridge): user hooks see and match its name and input. */
  native?: NativeToolUse;
}

/**
 * What the door needs of the governor: run the tool here (`execute`), let the agent's own tool run it
 * (`authorize`, then `record` its outcome), or only `judge` it. Every mode is the same flow, stopped or
 * continued at one of its steps: validate → pre-chain → human → tool → post-chain.
 */
export type RunOptions = ExecuteOptions | AuthorizeOptions | JudgeOptions | RecordOptions;

/** The whole flow; a human is asked when the chain asks. `signal`: the agent stopped waiting, so the call is refused, never carried out late. */
export interface ExecuteOptions {
  mode: 'execute';
  signal?: AbortSignal;
}

/**
 * Everything but the tool, for a call the agent's own tool runs once we answer. The input is as that tool will
 * run it (absolute paths, its own edits; see pipeline/agentCall.ts). A refusal goes through the post-chain like any
 * other; an allowed call's change is recorded by a later `record`.
 */
export interface AuthorizeOptions {
  mode: 'authorize';
  /** false: nobody can be asked here, so `ask` goes back to the agent, whose own UI asks its person. */
  askHuman: boolean;
  signal?: AbortSignal;
  /** The door already refused the call (a tool it cannot map, a user hook's block): the chain is not run, the refusal is recorded. */
  refusal?: ToolError;
}

/** Validation and the pre-chain only: nobody is asked, nothing is written, nothing is traced (`governor decide`). */
export interface JudgeOptions {
  mode: 'judge';
}

/**
 * The post-chain for what an agent's own tool did after `authorize` let it: the read ledger, the trace and the hooks
 * see a successful call with these changes. Either the door knows the output (a reconciliation read the file), or
 * the governor reads what the tool left at the call's path and asks the door what was there before (`before`).
 */
export type RecordOptions = {
  mode: 'record';
  approval?: ApprovalDecision;
  /** A change whose post event never came, recorded under the intent of its PreToolUse and marked as reconciled. */
  recordAs?: RecordAs;
} & ({ output: NativeOutput } | { before: (left: LeftBehind) => KnownBefore | undefined });

export interface NativeOutput {
  data: Record<string, unknown>;
  changes: AppliedChange[];
}

/** What an agent's tool left at its target, as the `record` mode read it (text and hash absent: no file). */
export interface LeftBehind {
  abs: string;
  rel: string;
  text?: string;
  hash: string | null;
}

/** What the file held before, as the door kept it: its text, or only its hash (the change then covers the whole file). */
export interface KnownBefore {
  before?: string;
  before_hash?: string;
}

export type GovernedResult =
  | { ok: true; invocation_id: string; output: ToolOutput; context: string[] }
  | { ok: false; invocation_id: string; error: ToolError; context: string[] };

/** What the pre-chain would do with a call, without running it or asking anyone. */
export interface DecisionReport {
  decision: 'allow' | 'deny' | 'ask';
  code?: ErrorCode;
  message?: string;
  hook?: string;
  request?: ApprovalRequest;
  context: string[];
}

/**
 * What `authorize` answers: `ask` only when the door said no human can be asked here, so the agent's own UI must
 * ask. `target`: the file the call changes as this call read it, for the door to trace the change against. A deny
 * with `unjudged` was refused before it was judged (its file could not be read, its edit does not apply): nothing is
 * recorded, and its message is the whole reason.
 */
export type Authorization =
  | { decision: 'allow'; invocation_id: string; context: string[]; approval?: ApprovalDecision; target?: KeptTarget }
  | { decision: 'ask'; invocation_id: string; context: string[]; request: ApprovalRequest; target?: KeptTarget }
  | { decision: 'deny'; invocation_id: string; context: string[]; error: ToolError; unjudged?: true };

/** What `Governor.run` answers in each mode. */
export type RunResult<O extends RunOptions> = O extends ExecuteOptions ? GovernedResult : O extends AuthorizeOptions ? Authorization : O extends JudgeOptions ? DecisionReport : void;
