import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeAnswer, ToolMapping } from './nativeCall';
import type { ConfineShell } from './shellConfinement';

/** One hook invocation as an agent described it, in the bridge's terms. */
export type HookEvent =
  | { kind: 'tool'; phase: 'pre' | 'post'; eventName: string; sessionId: string; cwd?: string; toolName: string; toolInput: Record<string, unknown>; toolUseId?: string; fields?: Record<string, unknown> }
  /**
   * Anything else a user hook may be declared for (SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact,
   * Notification, PermissionRequest, …): the user hooks run, and SessionStart/UserPromptSubmit also carry the
   * intent handshake. `hookEvent` is the event's name in Claude Code's terms.
   */
  | { kind: 'context'; eventName: string; hookEvent?: string; sessionId: string; cwd?: string; fields?: Record<string, unknown> }
  /** The agent's session is over: the governor forgets what it kept for it. */
  | { kind: 'end'; eventName: string; sessionId: string; cwd?: string; fields?: Record<string, unknown> };

/** What the hook process prints and exits with. */
export interface HookReply {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** How one agent talks to its hooks: payload in, tool table, answer out. */
export interface HookDialect {
  /** `claude`, `vscode`, `cursor`: the argument of `governor hook`. */
  id: string;
  /** The agent name recorded in the trace. */
  agentName: string;
  /**
   * An event the dialect does not know (a misspelled or newer name, one we are not installed for) is `ok: false`:
   * there is no "no opinion" answer, so the shared layer refuses it in the agent's blocking terms.
   */
  parse(payload: unknown): { ok: true; event: HookEvent } | { ok: false; message: string };
  /** The governed calls a native tool amounts to, its paths resolved to absolute ones exactly as the agent resolves them. */
  mapTool(toolName: string, toolInput: Record<string, unknown>, place: AgentPlace): ToolMapping;
  render(event: HookEvent, answer: BridgeAnswer): HookReply;
  /**
   * Present where the agent runs a rewritten shell input (verified with its binary): the bridge then has the
   * command run in the sandbox, and `render` must carry `answer.updatedInput` on an allow and on an ask (the
   * person approves the confined command), or turn the ask into a refusal; never let the original run.
   */
  confineShell?: ConfineShell;
  /** Unreadable input, a crash or a timeout: blocked, whatever the event was. */
  renderFailure(reason: string): HookReply;
}

/** Where the agent stands when it calls a tool, both absolute: its working directory and the workspace folder. */
export interface AgentPlace {
  cwd: string;
  workspace: string;
}

/** The parse result for an event name the dialect does not know: refused, whatever it carries. */
export function unknownEvent(agent: string, eventName: string): { ok: false; message: string } {
  return { ok: false, message: `'${eventName.slice(0, 80)}' is not a hook event Intent Governor knows from ${agent}, so the call is refused (governance fails closed); reinstall the hooks with \`governor hooks install\`` };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An agent's native tools by name, each mapped from its input to the governed calls it amounts to. */
export type NativeToolTable = Record<string, (input: Record<string, unknown>, place: AgentPlace) => ToolMapping>;

/** `mapTool` for a tool table: read-only tools pass through, a tool in neither list is refused (fail closed). */
export function mapByTable(agent: string, passthrough: ReadonlySet<string>, table: NativeToolTable): HookDialect['mapTool'] {
  return (toolName, toolInput, place) => {
    if (passthrough.has(toolName)) return { kind: 'passthrough' };
    const map = Object.hasOwn(table, toolName) ? table[toolName] : undefined;
    return map ? map(toolInput, place) : unknownTool(agent, toolName);
  };
}

/** A tool call that lacks what it needs to be judged: refused, naming what is missing. */
export function missingInput(agent: string, tool: string, what: string): ToolMapping {
  return { kind: 'refused', reason: `${agent}'s ${tool} call has no ${what}, so Intent Governor cannot check it and refuses it.` };
}

export function unknownTool(agent: string, toolName: string): ToolMapping {
  return {
    kind: 'refused',
    reason: `Intent Governor does not know ${agent}'s tool '${toolName}', so it is refused (governance fails closed). Use the file and terminal tools it governs, or the intent-governor MCP tools.`,
  };
}

export function stringField(input: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof input[name] === 'string') return input[name] as string;
  return undefined;
}

/**
 * A path as a tool resolves it against `base` (the agent's cwd or its workspace folder). "~" stays as given: the
 * agent means the home directory, which the canonicaliser refuses, while joining it onto `base` would name a
 * folder literally called "~" inside the workspace.
 */
export function resolveAgainst(base: string, path: string): string {
  if (path.startsWith('~') || isAbsolute(path)) return path;
  return resolve(base, path);
}

/** A `file://` URI as the absolute path it names; undefined for anything else. */
export function fileUriPath(value: string): string | undefined {
  if (!/^file:\/\//iu.test(value)) return undefined;
  try {
    return fileURLToPath(value);
  } catch {
    return undefined;
  }
}
