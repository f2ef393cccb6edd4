import { isRecord } from './hookDialect';

/**
 * How `governor doctor` tests one agent's installed door: the pre-tool call it sends (a write the governor must
 * refuse, in the agent's own payload shape), how the agent runs the hook it finds installed, and how the agent
 * reads the reply (does this answer refuse the call?). Every adapter carries one (AgentAdapter.canary), so a new
 * agent cannot be added without saying what its refusal looks like.
 */

/** The canary write: a file nobody may write, under the workspace; it is only ever proposed, never written. */
export interface CanaryCall {
  /** The workspace, absolute: the agent's working directory for the call. */
  workspace: string;
  /** The file the call would write, absolute, and relative to the workspace (POSIX). */
  path: string;
  relativePath: string;
  /** `doctor:<uuid>`: the session the call claims, which the governance log records (`<agent>:doctor:<uuid>`). */
  sessionId: string;
  /** The tool call's id, where the agent sends one. */
  callId: string;
  /** What the call would write. */
  content: string;
}

/** Where the agent's pre-tool door is and how the agent runs it. */
export type CanaryDoor =
  /**
   * A hook event in the agent's JSON hook file (AgentAdapter.jsonHooks): every entry of ours under `event` whose
   * matcher covers `tool` is run as the agent runs it. `shell`: the agent's shell on POSIX (`<shell> -c command`).
   */
  | { kind: 'json'; event: string; tool: string; shell: 'bash' | 'sh' }
  /** An executable hook file (Cline): run with the interpreter of its `#!` line (else `bash`), the payload on stdin. */
  | { kind: 'script'; file: string; isOurs(text: string): boolean }
  /** A JS module the agent loads (OpenCode; `file` defaults to the adapter's hookFiles): its exported plugin is called, and the named hook must throw. */
  | { kind: 'plugin'; file?: string; hook: string; isOurs(text: string): boolean };

/** What came back from the door, as the agent sees it. */
export type CanaryReply =
  /** A hook process: exit code (null: killed), stdout, stderr, and the config entry it was run for (JSON doors). */
  | { via: 'process'; exitCode: number | null; stdout: string; stderr: string; entry?: Record<string, unknown> }
  /** Claude Code's `mcp_tool` hook: the tool's text, whether the call failed, and the hook's `onFailure`. */
  | { via: 'mcp_tool'; text: string; isError: boolean; onFailure?: string }
  /** A plugin hook: whether it threw, and its message. */
  | { via: 'plugin'; threw: boolean; message: string };

/** The agent's reading of a reply: refused (with the reason its model would read), or let through (and why). */
export type CanaryReading = { blocked: true; reason: string } | { blocked: false; why: string };

export interface AgentCanary {
  readonly door: CanaryDoor;
  /** The pre-tool payload the agent sends its hook for this write (for a plugin door: `{ input, output }`, the hook's two arguments). */
  payload(call: CanaryCall): Record<string, unknown>;
  /** Variables the agent adds to its hooks' environment. */
  env?(call: CanaryCall): Record<string, string>;
  /** Whether the agent refuses the call on this reply. */
  blocks(reply: CanaryReply): CanaryReading;
  /** For an agent whose hooks may call an MCP tool (Claude Code's `mcp_tool`): the stdio server a hook names, from the agent's own config. */
  mcpServer?(workspace: string, server: string, env: NodeJS.ProcessEnv): Promise<McpServerLookup>;
  /** How the agent fills an `mcp_tool` hook's `input` template from its hook payload. */
  mcpToolArguments?(template: unknown, payload: Record<string, unknown>): Record<string, unknown>;
}

/** A stdio MCP server as the agent starts it, and the file that says so. */
export type McpServerLookup =
  | { ok: true; file: string; command: string; args: string[]; env: Record<string, string> }
  | { ok: false; file: string; problem: string };

/** The last line of `stdout` that is a JSON object (agents read one JSON document; our hooks print one line). */
export function replyJson(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trim();
  if (text === '') return undefined;
  for (const candidate of [text, ...text.split('\n').reverse()]) {
    try {
      const value = JSON.parse(candidate.trim()) as unknown;
      if (isRecord(value)) return value;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export function firstLine(text: string, max = 300): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The line of a crash's stderr that says what went wrong (Node prints the failing source line first). */
export function errorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  return firstLine(lines.find((line) => /\b(?:(?:[A-Z][A-Za-z]*)?Error|error|not found|No such file|Permission denied)\b/u.test(line)) ?? lines[0] ?? '');
}

/** An exit code no agent reads as a refusal; named the way a person debugging it needs it. */
export function exitWhy(exitCode: number | null, stderr: string): string {
  const said = errorLine(stderr);
  return `${exitCode === null ? 'the hook was killed' : `the hook exited ${exitCode}`}${said ? ` (${said})` : ''}`;
}

/**
 * Claude Code's reading of a PreToolUse reply, which VS Code's agent shares: exit 2 blocks with stderr as the
 * reason; exit 0 blocks with `hookSpecificOutput.permissionDecision: "deny"`, the older top-level `decision:
 * "block"`, or `continue: false`; any other exit code is a non-blocking error and the tool runs.
 */
export function claudeStyleBlocks(reply: CanaryReply, agent: string): CanaryReading {
  if (reply.via === 'plugin') return { blocked: false, why: `${agent} has no plugin hooks` };
  if (reply.via === 'mcp_tool') {
    if (reply.isError) return reply.onFailure === 'block' ? { blocked: true, reason: firstLine(reply.text) || 'the hook tool failed' } : { blocked: false, why: `the hook tool failed and the hook does not say onFailure: "block" (${firstLine(reply.text)})` };
    return claudeStyleJson(replyJson(reply.text), agent, 'the hook tool answered');
  }
  if (reply.exitCode === 2) return { blocked: true, reason: firstLine(reply.stderr) || '(exit 2, no reason on stderr)' };
  if (reply.exitCode !== 0) return { blocked: false, why: `${exitWhy(reply.exitCode, reply.stderr)}: ${agent} reads any exit but 0 and 2 as a non-blocking error and runs the tool` };
  return claudeStyleJson(replyJson(reply.stdout), agent, 'the hook exited 0');
}

function claudeStyleJson(answer: Record<string, unknown> | undefined, agent: string, said: string): CanaryReading {
  if (answer === undefined) return { blocked: false, why: `${said} with no decision: ${agent} runs the tool` };
  const specific = isRecord(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  if (specific.permissionDecision === 'deny') return { blocked: true, reason: str(specific.permissionDecisionReason) ?? 'denied' };
  if (answer.decision === 'block') return { blocked: true, reason: str(answer.reason) ?? 'blocked' };
  if (answer.continue === false) return { blocked: true, reason: str(answer.stopReason) ?? 'stopped' };
  const decision = str(specific.permissionDecision);
  return { blocked: false, why: decision ? `${said} with permissionDecision "${decision}"` : `${said} without a deny: ${agent} runs the tool` };
}
