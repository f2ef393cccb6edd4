import type { HookEventName } from './hookEvents';

/**
 * Where a hook was declared. The person's own, trusted as they are: `user` (~/.intent-governor/hooks.json),
 * `claude-user` (~/.claude/settings.json, for every door but Claude Code), `agents-user` (~/.agents/hooks.toml);
 * the administrator's `managed` file (trusted, and what no other layer can weaken). From the repository, run only
 * in a trusted workspace once a human approved their hash: `project` (.orchestration/hooks.json), `legacy`
 * (.orchestration/hooks.yaml), `agents-project` (.agents/hooks.toml), `claude` (.claude/settings*.json, for
 * every door but Claude Code, which runs them itself).
 */
export type HookLayer = 'managed' | 'user' | 'claude-user' | 'agents-user' | 'project' | 'legacy' | 'agents-project' | 'claude';

/** Layers that did not come with the repository: they run without a per-hook approval. */
export function isOwnLayer(layer: HookLayer): boolean {
  return layer === 'user' || layer === 'claude-user' || layer === 'agents-user' || layer === 'managed';
}

export interface HookSource {
  layer: HookLayer;
  /** The file as a person would name it: workspace-relative for project files, `~/…` for the user's. */
  file: string;
}

/** What a hook runs. */
export type HookAction =
  /** A shell string (`/bin/sh -c`, or PowerShell's `-Command` for `"shell": "powershell"`). */
  | { type: 'command'; command: string; shell?: 'powershell' }
  /** Exec form: no shell, `args[0]` is the program. */
  | { type: 'command'; args: string[] }
  /** POST the input JSON; the body is read like a command's stdout. `$VAR`/`${VAR}` in headers only from `allowedEnvVars`. */
  | { type: 'http'; url: string; headers: Record<string, string>; allowedEnvVars: string[] }
  /**
   * One language-model completion; `$ARGUMENTS` in the prompt is the input JSON. `agent`: written as Claude Code's
   * `agent` type (a subagent with tools there): here the same prompt is one judgement, without tools.
   */
  | { type: 'prompt'; prompt: string; model?: string; agent?: true }
  /**
   * A user's own Claude Code `mcp_tool` hook (not ours) on a decision event: only Claude Code can call it, so here
   * it never runs and its `onFailure` decides (on observation events it is not loaded at all).
   */
  | { type: 'mcp_tool'; server: string; tool: string; input: Record<string, unknown> };

export type OnFailure = 'block' | 'continue';

/** One hook as loaded and validated from any layer. */
export interface HookSpec {
  /** Stable within its file: `<file>#<Event>[<group>].hooks[<index>]`; keys `once`, the run log and listings. */
  id: string;
  /** For messages: the hook's `name`, else its command, URL or prompt, shortened. */
  name: string;
  /** The `name` the file gave it, if any: the input's `hook_name` (else the id, never its command text). */
  label?: string;
  event: HookEventName;
  /** Claude's matcher: '' or '*' = every tool; names (letters, digits, `_ - , |`, spaces) = exact; else a regex. */
  matcher: string;
  /** Permission-rule condition, e.g. `Bash(git push:*)`, `Write(src/**)`; absent = always. */
  if?: string;
  action: HookAction;
  timeoutMs: number;
  /** Runs in the background; only on observation events; never delays the agent. */
  async: boolean;
  /** Background too; an exit 2 reaches the same session on its next call as additional context. */
  asyncRewake: boolean;
  /** At most once per session. */
  once: boolean;
  /** Shown (in VS Code's status bar) while the hook runs. */
  statusMessage?: string;
  onFailure: OnFailure;
  source: HookSource;
  /**
   * `sha256:<hex>` of what defines the hook (file, event, matcher, if, action, modes): keys its last run, so a hook
   * replaced at the same place starts with no run of its own rather than its predecessor's.
   */
  identity: string;
  /** `sha256:<hex>` a human approves: of the command string for a shell command (as before), else of the action. */
  approvalHash: string;
}

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
export const MAX_HOOK_TIMEOUT_MS = 10 * 60_000;
