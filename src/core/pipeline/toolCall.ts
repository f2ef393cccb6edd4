import type { AgentInfo } from '../trace/traceSink';

/** One agent tool call as every door hands it to the engine. */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  session_id: string;
  agent: AgentInfo;
  invocation_id: string;
  /** An agent's native tool call (its own name and input): the bridge fires PreToolUse/PostToolUse for it itself. */
  native?: NativeToolUse;
}

/** The agent's own tool behind a governed call: `Bash` with `{command}`, `Write` with `{file_path, content}`. */
export interface NativeToolUse {
  tool: string;
  input: Record<string, unknown>;
  /** A shell command the bridge has the agent run in the sandbox (its hook answer rewrites it): judged as run_command's. */
  confined?: true;
}
