import type { HookAction, HookSpec } from './hookSpec';

/**
 * What running one hook produced, before anyone reads it as a decision. Every executor ends in one of these
 * shapes: a command's exit code and output, an HTTP answer as exit 0 with its body as stdout, a prompt's
 * completion as exit 0 with the model's text as stdout.
 */
export type HookExecution =
  | { kind: 'exited'; exitCode: number; stdout: string; stderr: string; durationMs: number }
  /** It could not run or did not finish: a timeout, a spawn failure, a non-2xx answer, cut output. */
  | { kind: 'failed'; message: string; durationMs: number }
  /**
   * This door cannot run the hook at all (a prompt or agent hook where there is no language model: headless; a
   * user's mcp_tool hook, which only Claude Code calls): not the hook's fault, so no failure of it; its `onFailure`
   * says whether the call goes on without it.
   */
  | { kind: 'unavailable'; message: string; durationMs: number };

/** What an executor gets besides the hook: the input JSON, the env it may see, where to run, when to stop. */
export interface HookRunContext {
  /** The hook input as JSON text (stdin of a command, body of a POST, `$ARGUMENTS` of a prompt). */
  input: string;
  /** Scrubbed environment plus the hook variables (TOOL_NAME, FILE_PATH, SESSION_ID, INTENT_ID, …). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  /** Aborted when the call is cancelled: the process group is killed, the request dropped. */
  signal?: AbortSignal;
}

/** Runs one kind of action. The `prompt` executor is a port: the VS Code host provides it, headless has none. */
export interface HookExecutor<A extends HookAction = HookAction> {
  run(action: A, spec: HookSpec, context: HookRunContext): Promise<HookExecution>;
}

/** The executors a door has; `prompt` absent = not available here (refused, unless the hook says `onFailure: continue`). */
export interface HookExecutors {
  command: HookExecutor<Extract<HookAction, { type: 'command' }>>;
  http: HookExecutor<Extract<HookAction, { type: 'http' }>>;
  prompt?: HookExecutor<Extract<HookAction, { type: 'prompt' }>>;
}

export type PromptHookExecutor = HookExecutor<Extract<HookAction, { type: 'prompt' }>>;

/** Shows a hook's `statusMessage` while it runs (VS Code's status bar); dispose when the hook ends. */
export interface HookStatus {
  show(message: string): { dispose(): void };
}
