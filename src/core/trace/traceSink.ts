import type { ErrorCode } from '../toolError';

export interface AgentInfo {
  name: string;
  model_id?: string;
}

export type MutationClass = 'write' | 'edit' | 'delete' | 'command';

/** One file a mutation changed: its content before and after (undefined = did not exist / deleted). */
export interface FileChange {
  path: string;
  before?: string;
  after?: string;
}

/** A successful change to the workspace, handed to the trace after the tool ran. */
export interface MutationEvent {
  timestamp: string;
  invocation_id: string;
  session_id: string;
  agent: AgentInfo;
  intent_id: string;
  /** The intent's owned_scope when the change was made, so `governor check` judges it by the rules of its time. */
  intent_scope?: string[];
  tool: string;
  mutation_class: MutationClass;
  files: FileChange[];
  /** `allow` when no human was asked, `approved` when one was. */
  decision: 'allow' | 'approved';
  approver?: string;
}

/** A call the chain refused, a human rejected, or that failed: audited, but nothing changed. */
export interface GovernanceEvent {
  timestamp: string;
  invocation_id: string;
  session_id: string;
  agent: AgentInfo;
  intent_id?: string;
  tool: string;
  decision: 'deny' | 'reject' | 'error';
  code: ErrorCode;
  message: string;
  paths: string[];
  approver?: string;
}

/**
 * Where the post-chain sends what happened. `JsonlTraceSink` (traceWriter.ts) writes both to chained JSONL
 * logs; each promise resolves once the record is acknowledged (written, and fsynced if so configured).
 */
export interface TraceSink {
  recordMutation(event: MutationEvent): Promise<void>;
  recordGovernance(event: GovernanceEvent): Promise<void>;
}

/** Accepts and drops everything; used where no trace is wanted (e.g. `governor decide`). */
export const nullTraceSink: TraceSink = {
  async recordMutation() {},
  async recordGovernance() {},
};
