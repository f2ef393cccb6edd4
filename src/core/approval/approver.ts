import type { StandingApproval } from './standingApprovals';
import type { ChangeClass } from '../changeClass/changeClass';
import type { ToolError } from '../toolError';

/** How bad it is if a human approves this by mistake. */
export type Risk = 'low' | 'medium' | 'high';

/** What a human is asked to decide: enough to judge without opening anything else. */
export interface ApprovalRequest {
  kind: 'destructive' | 'scope_expansion';
  title: string;
  intent_id?: string;
  tool: string;
  files: string[];
  risk: Risk;
  /** The operation: write, edit, delete, command, scope. */
  mutation_class: string;
  /** For a file change: AST_REFACTOR or INTENT_EVOLUTION, the rule that decided and why. */
  change_class?: ChangeClass;
  /** Why the chain asks, one line per hook that asked. */
  reasons: string[];
  /** Unified diff of the proposed change (may be long; UIs show the first lines). */
  diff?: string;
  /** The diff was cut to bound what a queued request holds: it is no longer a patch that applies. */
  diff_cut?: boolean;
  command?: string;
  /** For scope expansion: the globs to add and the agent's reason. */
  globs?: string[];
  agent_reason?: string;
  /** The governance session that made the call. */
  session_id?: string;
  /**
   * The human may answer "Approve for this Session": a write or edit inside the bound intent's scope in a trusted
   * workspace, and nothing else in the chain asked. Set only when every hook that asked allows it.
   */
  session_approvable?: boolean;
  /** A standing approval already covers this (set only when it covers every hook's ask): no human is asked. */
  standing?: StandingApproval;
}

export interface ApprovalDecision {
  approved: boolean;
  /** Who decided: a user name, `modal`, `cli:--approve always`, a test approver's name; `none` when nobody did. */
  approver: string;
  reason?: string;
  /**
   * Set when no human decided (the agent stopped waiting, too many approvals were queued): the refusal the
   * agent gets instead of "a human rejected".
   */
  refusal?: ToolError;
  /** The human chose "Approve for this Session": honoured only for a request that is `session_approvable`. */
  for_session?: boolean;
  /** The standing approval that allowed the call instead of a human (`approver` is who granted it). */
  standing?: StandingApproval;
  /** The standing approval this answer granted, for the session's later changes. */
  granted?: StandingApproval;
}

export interface ApproveOptions {
  /** Aborted when the agent stops waiting: the approver drops the question and the answer counts as a no. */
  signal?: AbortSignal;
}

/** The human-in-the-loop port: a native modal in the host, a policy in the CLI, a script in tests. */
export interface Approver {
  /**
   * True only when a person answers each request as it comes (the VS Code modal). Absent or false (a CLI
   * policy, a headless door) never approves what only a person may, such as running a repository's hook command.
   */
  readonly interactive?: boolean;
  approve(request: ApprovalRequest, options?: ApproveOptions): Promise<ApprovalDecision>;
}
