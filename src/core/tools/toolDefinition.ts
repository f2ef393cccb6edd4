import type { GovernorServices } from '../governorServices';
import type { ApprovalDecision } from '../approval/approver';
import type { CallFacts } from '../pipeline/callFacts';
import type { GovernedTool } from '../pipeline/governedTool';
import type { ToolOutput } from '../pipeline/hookTypes';
import type { ToolCall } from '../pipeline/toolCall';
import type { Result } from '../toolError';
import type { ToolName } from './toolName';

/** A JSON Schema object (draft 2020-12 subset) reused by MCP, LM tools and validation. */
export type JsonSchema = Record<string, unknown>;

export interface ToolExecution {
  call: ToolCall;
  facts: CallFacts;
  services: GovernorServices;
  /** The human's approval, when one was asked: recorded with the change. */
  approval?: ApprovalDecision;
  /** Aborted when the agent stops waiting (its client cancelled, timed out or went away): the call must not change anything from then on. */
  signal: AbortSignal;
}

/**
 * One governed tool: adding a tool is one entry in the registry and one test file. What the hook chain reads of
 * it (mutation, paths, proposed content) is its GovernedTool part (hooks/governedTool.ts).
 */
export interface ToolDefinition extends GovernedTool {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  execute(execution: ToolExecution): Promise<Result<ToolOutput>>;
}
