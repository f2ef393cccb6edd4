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
  /** `continue: false`: stop the agent altogether, with this reason. */
  stop?: string;
  /** Hooks that failed (timeout, crash, unreadable output) and how, whatever `onFailure` made of it. */
  failures: { hook: string; message: string }[];
  /** Which hook decided a deny or ask, for the message and the governance log. */
  decidedBy?: string;
}

export const NO_VERDICT: HookVerdict = { decision: 'none', failures: [] };
