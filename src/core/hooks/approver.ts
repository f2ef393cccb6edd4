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
  mutation_class: string;
  /** Why the chain asks, one line per hook that asked. */
  reasons: string[];
  /** Unified diff of the proposed change (may be long; UIs show the first lines). */
  diff?: string;
  command?: string;
  /** For scope expansion: the globs to add and the agent's reason. */
  globs?: string[];
  agent_reason?: string;
}

export interface ApprovalDecision {
  approved: boolean;
  /** Who decided: a user name, `modal`, `cli:--approve always`, a test approver's name. */
  approver: string;
  reason?: string;
}

/** The human-in-the-loop port: a native modal in the host, a policy in the CLI, a script in tests. */
export interface Approver {
  /**
   * True only when a person answers each request as it comes (the VS Code modal). Absent or false (a CLI
   * policy, a headless door) never approves what only a person may, such as running a repository's hook command.
   */
  readonly interactive?: boolean;
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
}
