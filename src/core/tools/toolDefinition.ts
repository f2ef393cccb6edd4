import type { GovernorServices } from '../governorServices';
import type { ApprovalDecision } from '../hooks/approver';
import type { CallFacts } from '../hooks/callFacts';
import type { ToolCall, ToolOutput } from '../hooks/hookTypes';
import type { PathPurpose } from '../paths/canonicalPath';
import type { Result } from '../toolError';

export type ToolName =
  | 'list_intents'
  | 'select_active_intent'
  | 'read_file'
  | 'list_files'
  | 'write_file'
  | 'edit_file'
  | 'delete_file'
  | 'run_command'
  | 'request_scope_expansion';

/** What a call does to the workspace; decides which guards apply and what the trace records. */
export type MutationKind = 'none' | 'write' | 'edit' | 'delete' | 'command' | 'scope';

/** A JSON Schema object (draft 2020-12 subset) reused by MCP, LM tools and validation. */
export type JsonSchema = Record<string, unknown>;

/** A path an input names, and what the call does with it. */
export interface PathUse {
  field: string;
  path: string;
  purpose: PathPurpose;
}

export interface ToolExecution {
  call: ToolCall;
  facts: CallFacts;
  services: GovernorServices;
  /** The human's approval, when one was asked: recorded with the change. */
  approval?: ApprovalDecision;
  /** Aborted when the agent stops waiting (its client cancelled, timed out or went away): the call must not change anything from then on. */
  signal: AbortSignal;
}

/** One governed tool: adding a tool is one entry in the registry and one test file. */
export interface ToolDefinition {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  mutation: MutationKind;
  /** Paths the input names; each goes through the canonicaliser (and, for writes, protected paths and scope). */
  paths?(input: Record<string, unknown>): PathUse[];
  /** File tools: the new content of the single target given its current text (null deletes). */
  propose?(input: Record<string, unknown>, current: string | undefined): Result<string | null>;
  execute(execution: ToolExecution): Promise<Result<ToolOutput>>;
}

export function isMutating(definition: ToolDefinition): boolean {
  return definition.mutation !== 'none';
}

/** File mutations that need the optimistic-lock basis. */
export function isFileMutation(definition: ToolDefinition): boolean {
  return definition.mutation === 'write' || definition.mutation === 'edit' || definition.mutation === 'delete';
}
