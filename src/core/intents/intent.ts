import type { ApprovalMode } from '../approval/approvalMode';
import type { Result } from '../toolError';

/** Lifecycle of an intent; only IN_PROGRESS may be bound for writes. */
export const INTENT_STATUSES = ['PLANNED', 'IN_PROGRESS', 'BLOCKED', 'DONE', 'ABANDONED'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** One entry of `active_intents` in `.orchestration/active_intents.yaml`. Unknown keys are kept in the file, not here. */
export interface Intent {
  id: string;
  name: string;
  status: IntentStatus;
  /** Workspace-relative globs this intent may write. */
  owned_scope: string[];
  constraints: string[];
  acceptance_criteria: string[];
  owner?: string;
  related: string[];
  /** When a human is asked before this intent's changes; absent = the user's default (the policy's `approval`). */
  approval?: ApprovalMode;
  /** `deny`: commands run under this intent get no network (where a sandbox can start); absent = as today. */
  network?: IntentNetwork;
  /** Other MCP servers' tools agents may call under this intent (every other one is refused). */
  mcp_tools?: McpToolRules;
}

/**
 * What a plan lets another MCP server's tool do (`mcp_tools`, per intent and for the whole file): `read` runs with
 * no intent bound, like reading a file; `write` needs the session bound to an intent and asks as the approval mode
 * asks before a file write; `ask` asks a person every time. Tools no rule names are refused.
 */
export const MCP_TOOL_CLASSES = ['read', 'write', 'ask'] as const;
export type McpToolClass = (typeof MCP_TOOL_CLASSES)[number];

/** One rule of `mcp_tools`: a pattern (approval/mcpToolPattern.ts) and its class, validated at load. */
export interface McpToolRule {
  pattern: string;
  class: McpToolClass;
  /** How the file spells it, for messages: `mcp_tools 'github/*': read` or `mcp_tools.allow 'github/*'`. */
  written: string;
}

/**
 * `mcp_tools: { "<server>/<tool>": read | write | ask }`, or the older lists `{ allow: [...], ask: [...] }`
 * (`allow` is `write`); both may stand in one map. The rules in the order written.
 */
export type McpToolRules = McpToolRule[];

export const INTENT_NETWORK = ['allow', 'deny'] as const;
export type IntentNetwork = (typeof INTENT_NETWORK)[number];

/** A reason the intents file cannot be used, pinned to where the user must fix it (1-based line and column). */
export interface IntentsFileProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/**
 * What the intents file says right now. A missing file is valid and empty (reads still work, writes need an intent);
 * an invalid file makes governance fail closed.
 */
export type IntentsSnapshot =
  | { valid: true; file: string; exists: boolean; intents: Intent[]; /** The file's top-level `mcp_tools`: every intent's. */ mcp_tools?: McpToolRules }
  | { valid: false; file: string; problems: IntentsFileProblem[] };

/**
 * The port hooks and tools read intents through, and the place write-back goes. Write-backs return refusals
 * (INTENT_NOT_FOUND, INVALID_INPUT, INTENTS_FILE_INVALID, an I/O HOOK_ERROR) as values the agent can act on.
 */
export interface IntentSource {
  /** Current snapshot; cheap when the file has not changed. */
  load(): Promise<IntentsSnapshot>;
  /** Adds globs to an intent's owned_scope, keeping the file's comments and formatting. */
  addScope(intentId: string, globs: string[]): Promise<Result<IntentsSnapshot>>;
  /** Changes an intent's status, keeping the file's comments and formatting. */
  setStatus(intentId: string, status: IntentStatus): Promise<Result<IntentsSnapshot>>;
}
