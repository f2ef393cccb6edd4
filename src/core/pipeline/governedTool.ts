import type { PathPurpose } from '../paths/canonicalPath';
import type { Result } from '../toolError';

/** What a call does to the workspace; decides which guards apply and what the trace records. */
export type MutationKind = 'none' | 'write' | 'edit' | 'delete' | 'command' | 'scope';

/** A path an input names, and what the call does with it. */
export interface PathUse {
  field: string;
  path: string;
  purpose: PathPurpose;
}

/**
 * A governed tool as the hook chain sees it: what it does to the workspace, the paths its input names and, for
 * file tools, the content it would leave. Each tool's definition (tools/toolDefinition.ts) adds its schema and how it runs.
 */
export interface GovernedTool {
  name: string;
  mutation: MutationKind;
  /** Paths the input names; each goes through the canonicaliser (and, for writes, protected paths and scope). */
  paths?(input: Record<string, unknown>): PathUse[];
  /** File tools: the new content of the single target given its current text (null deletes). */
  propose?(input: Record<string, unknown>, current: string | undefined): Result<string | null>;
}

export function isMutating(tool: GovernedTool): boolean {
  return tool.mutation !== 'none';
}

/** File mutations that need the optimistic-lock basis. */
export function isFileMutation(tool: GovernedTool): boolean {
  return tool.mutation === 'write' || tool.mutation === 'edit' || tool.mutation === 'delete';
}
