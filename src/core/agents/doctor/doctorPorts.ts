/**
 * What `governor doctor` needs from the machine, as ports: starting processes the way agents start their hooks,
 * talking to an MCP server, loading a plugin module, asking a binary its version. nodeDoctorPorts.ts is the
 * Node implementation; tests and the extension host use it too, and may replace any part.
 */

/** How a process ended: killed on the deadline (`timedOut`), never started (`exitCode` null, the reason in `stderr`). */
export interface ProcessOutcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunRequest {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  timeoutMs: number;
}

/** An MCP tool call through a stdio server started for it (and stopped after). */
export interface McpToolRequest {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  tool: string;
  arguments: Record<string, unknown>;
  timeoutMs: number;
}

export type McpToolOutcome =
  | { ok: true; text: string; isError: boolean }
  /** `stage`: where it failed (the server did not start or answer, it has no such tool, the call failed). */
  | { ok: false; stage: 'start' | 'tool' | 'call'; message: string };

export interface PluginRequest {
  /** The module, absolute. */
  file: string;
  /** The hook the plugin returns, by name, and its two arguments. */
  hook: string;
  input: unknown;
  output: unknown;
  /** The project directory the agent hands the plugin. */
  directory: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export type PluginOutcome =
  | { ok: true; threw: boolean; message: string }
  /** The module did not load, exports no plugin with that hook, or the run did not finish. */
  | { ok: false; message: string };

export interface DoctorPorts {
  /** Runs `file args…` (no shell of ours: the caller names the agent's shell), in its own process group. */
  run(file: string, args: string[], request: RunRequest): Promise<ProcessOutcome>;
  mcpTool(request: McpToolRequest): Promise<McpToolOutcome>;
  plugin(request: PluginRequest): Promise<PluginOutcome>;
  /** `<binary> --version`'s first line; undefined when there is no such command on PATH. */
  version(binary: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ found: false } | { found: true; text: string }>;
}
