/**
 * One hook's answer, read from its execution with Claude Code's protocol (exit codes, JSON output), or several
 * hooks' answers merged: deny > ask > allow, `updatedInput` last writer wins, contexts concatenate.
 */
export interface HookVerdict {
  /** `none`: the hook said nothing about the decision (exit 0 without JSON, an observation). */
  decision: 'none' | 'allow' | 'deny' | 'ask';
  /** Why (deny/ask): what the model or the human reads. */
  reason?: string;
  /** Text for the model: additionalContext, a PostToolUse block's reason, an asyncRewake's stderr. */
  context?: string;
  /** Text for the user (Claude's systemMessage). */
  systemMessage?: string;
  /** The tool input the hook wants instead (Claude's updatedInput, our `modify`). */
  updatedInput?: Record<string, unknown>;
  /**
   * PostToolUse's `updatedToolOutput` (or `updatedMCPToolOutput`): what the model reads back instead of the tool's
   * result (a redaction). The record of the call keeps what really happened.
   */
  updatedToolOutput?: unknown;
  /**
   * Claude Code's fields the governor itself has no use for, kept in Claude's words for the doors whose agent
   * reads them (`updatedPermissions`, `retry`, `watchPaths`, `initialUserMessage`); elsewhere a warning says so.
   */
  passThrough?: PassThrough;
  /** `continue: false`: stop the agent altogether, with this reason. */
  stop?: string;
  /** Hooks that failed (timeout, crash, unreadable output) and how, whatever `onFailure` made of it. */
  failures: { hook: string; message: string }[];
  /** Which hook decided a deny or ask, for the message and the governance log. */
  decidedBy?: string;
}

export const NO_VERDICT: HookVerdict = { decision: 'none', failures: [] };

/** Output fields only the agent can act on: passed on in its hook answer where its dialect has them. */
export interface PassThrough {
  updatedPermissions?: unknown[];
  retry?: boolean;
  watchPaths?: string[];
  initialUserMessage?: string;
}
