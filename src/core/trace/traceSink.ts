import type { ChangeClass } from '../changeClass/changeClass';
import type { ErrorCode, ToolError } from '../toolError';

export interface AgentInfo {
  name: string;
  model_id?: string;
}

/** The operation that made a change; what the change means is its ChangeClass (AST_REFACTOR / INTENT_EVOLUTION). */
export type MutationClass = 'write' | 'edit' | 'delete' | 'command';

/** One file a mutation changed: its content before and after (undefined = did not exist / deleted). */
export interface FileChange {
  path: string;
  before?: string;
  after?: string;
  /** A file that existed but whose content before is not known, only its hash: its ranges cover the whole file. */
  before_hash?: string;
  /** A file that existed, known neither by content nor hash (a confined command changed it): ranges cover the whole file. */
  before_unknown?: true;
}

/** A successful change to the workspace, handed to the trace after the tool ran. */
export interface MutationEvent {
  timestamp: string;
  invocation_id: string;
  session_id: string;
  agent: AgentInfo;
  /** Absent only for an agent's native change made with no intent bound: recorded all the same, never dropped. */
  intent_id?: string;
  /** The intent's owned_scope when the change was made, so `governor check` judges it by the rules of its time. */
  intent_scope?: string[];
  tool: string;
  mutation_class: MutationClass;
  /** Refactoring or evolution, for all files together (recorded as `metadata.mutation_class`). */
  change_class?: ChangeClass;
  files: FileChange[];
  /** `allow` when no human was asked, `approved` when one was. */
  decision: 'allow' | 'approved';
  approver?: string;
  /** Set when a standing approval ("Approve for this Session") allowed the change or was granted with it. */
  approval?: TraceApproval;
  /** An agent's native change recorded without its post event, and why (`metadata.reconciled`). */
  reconciled?: string;
  /** A change no governed call explains, seen while `call` was open: `metadata.kind` 'ungoverned' (src/core/watch). */
  ungovernedNote?: Record<string, unknown>;
}

/** A standing approval as the trace names it. */
export interface TraceStanding {
  session: string;
  intent: string;
  granted_by: string;
  granted_at: string;
}

/** Which approval allowed a change (`metadata.approval`): `standing` when no human was asked this time. */
export interface TraceApproval {
  approver: string;
  standing?: TraceStanding;
  /** The human approved this change and, with it, the session's later ones in the intent's scope. */
  granted_standing?: TraceStanding;
}

/** A call the chain refused, a human rejected, or that failed: audited, but nothing changed. */
export interface GovernanceEvent {
  timestamp: string;
  invocation_id: string;
  session_id: string;
  agent: AgentInfo;
  intent_id?: string;
  tool: string;
  /**
   * `void`: the trace record `record_id` describes a change that did not land after all; `ask`: a user hook asked a
   * human; `allow`/`ask` with MCP_TOOL_BY_POLICY: another MCP server's tool the plan let run (or asked about).
   */
  decision: 'deny' | 'reject' | 'error' | 'void' | 'ask' | 'allow';
  /** A refusal's code, or MCP_TOOL_BY_POLICY for a call the governor let run without seeing what it changes. */
  code: ErrorCode | 'MCP_TOOL_BY_POLICY' | 'UNGOVERNED_ACCEPTED';
  message: string;
  paths: string[];
  approver?: string;
  record_id?: string;
  /** The user-hook event (PreToolUse, Stop, …) whose hook asked, blocked or failed. */
  hook_event?: string;
  /** The command a refused, rejected or failed `run_command` asked to run (redacted as the trace redacts). */
  command?: string;
}

/** What a file holds before and after a change that is about to land: `sha256:` of the raw bytes, absent = no file. */
export interface LandingFile {
  /** Workspace-relative path. */
  path: string;
  before_hash?: string;
  after_hash?: string;
  /** Workspace-relative temp file holding the new bytes until the rename: present means not landed. */
  staged?: string;
}

/** A mutation record written before its change lands; the writer reports how the change ended. */
export interface WriteAhead {
  /** The change is on disk: the record stands. */
  landed(): Promise<void>;
  /** The change did not land after all: a governance `void` record says so. */
  abandoned(reason: { code: ErrorCode; message: string }): Promise<void>;
}

/**
 * Where the post-chain sends what happened. `JsonlTraceSink` (traceWriter.ts) writes both to chained JSONL
 * logs; each promise resolves once the record is acknowledged (written, and fsynced if so configured).
 */
export interface TraceSink {
  /** A change that already happened (a command's writes, an agent's native tool). */
  recordMutation(event: MutationEvent): Promise<void>;
  /**
   * Write-ahead: the record of a change that is about to land, acknowledged before the change is made, and
   * remembered until `landed` or `abandoned` so that a crash in between is reconciled on the next open.
   * A rejection means no record: the caller must not make the change.
   */
  recordAhead(event: MutationEvent, landing: LandingFile[]): Promise<WriteAhead>;
  recordGovernance(event: GovernanceEvent): Promise<void>;
  /**
   * Why no record can be written now, as the refusal the governor answers a change with: signing is required and
   * there is no key (SIGNING_REQUIRED), or the key is revoked in the workspace (SIGNING_KEY_REVOKED).
   */
  signingProblem?(): ToolError | undefined;
}

const settledWriteAhead: WriteAhead = {
  async landed() {},
  async abandoned() {},
};

/** Accepts and drops everything; used where no trace is wanted (e.g. `governor decide`). */
export const nullTraceSink: TraceSink = {
  async recordMutation() {},
  async recordAhead() {
    return settledWriteAhead;
  },
  async recordGovernance() {},
};
