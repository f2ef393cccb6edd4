import type { AgentInfo } from '../../trace/traceSink';
import type { ForeignMcpTool } from '../../approval/mcpToolPattern';

/** The hook bridge's route on the extension's loopback server (same token and guards as /mcp). */
export const HOOK_PATH = '/hook';

/** One search/replace of an agent's native edit tool; `all` = every occurrence (Claude's replace_all). */
export interface NativeEdit {
  search: string;
  replace: string;
  all: boolean;
}

/**
 * A native tool call translated into the governed tool that would do the same thing. Paths are absolute, resolved
 * where the agent resolves them (the dialect does that); the bridge canonicalises them against its workspace root
 * before anything is read. A command carries the absolute directory it runs in. Edits stay as the agent sent them
 * until the bridge has read the file they apply to.
 */
export type NativeCall =
  | { tool: 'write_file'; input: { path: string; content: string } }
  /** No edits: the tool works out the new text only when it runs (VS Code's insert_edit_into_file); the path is judged, post traces it. */
  | { tool: 'edit_file'; input: { path: string }; edits: NativeEdit[] }
  | { tool: 'run_command'; input: { command: string; cwd?: string } }
  | { tool: 'read_file'; input: { path: string } };

/** What a dialect's tool table makes of a native tool. */
export type ToolMapping =
  | { kind: 'governed'; calls: NativeCall[] }
  /** Read-only tools that touch no file content we govern (search, listing, todo lists). */
  | { kind: 'passthrough' }
  /** `foreign`: another MCP server's tool, refused unless a plan names it (policy/foreignMcpTools.ts). */
  | { kind: 'refused'; reason: string; foreign?: ForeignMcpTool };

/** `end`: the agent's session is over (its SessionEnd hook); what the governor kept for it is freed. */
export type BridgePhase = 'pre' | 'post' | 'context' | 'end';

/** What the hook command hands to the bridge, in-process or over POST /hook to the running extension. */
export interface BridgeRequest {
  phase: BridgePhase;
  session_id: string;
  agent: AgentInfo;
  /** Identifies one native invocation across its pre and post hook (tool_use_id, else a hash of the input). */
  key: string;
  calls: NativeCall[];
  /** Headless only: the intent this session works under (`--intent`); the extension uses the human's pick. */
  intent_id?: string;
  /**
   * Phase `pre`: the agent will send no post for this call, its install leaves that event out (unpostedTools.ts); a
   * long-lived governor completes the change itself once the tool has written it (selfCompletions.ts).
   */
  unposted?: true;
  /** A native tool the dialect cannot map (phase `pre`, no calls): refused, and audited like any refusal. */
  unmapped?: { tool: string; reason: string; foreign?: ForeignMcpTool };
  /** The agent's event as it sent it, for the user hooks (they read and match the agent's own names). */
  native?: NativeEventFacts;
  /**
   * The process that makes the request (the Node hook, or the launcher's bash), with its start time (Linux): a
   * long-lived governor finds the agent above it, and ends the session once that agent is gone (sessionAgents.ts).
   */
  caller?: { pid: number; start: number };
}

/** An agent's hook event in its own words: what user hooks get as input and match against. */
export interface NativeEventFacts {
  /** The dialect (`claude`, `vscode`, `cursor`): the bridge maps a rewritten tool input through it again. */
  dialect: string;
  /** The agent's event name translated to the hook event (`PreToolUse`, `Stop`, …). */
  event: string;
  /** The agent's own session id (hooks written for the agent know this one). */
  session_id: string;
  /** Absolute: where the agent stands. */
  cwd: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  /** A read-only tool that needs no governed check (Grep, Glob): only the user hooks see it. */
  passthrough?: boolean;
  /** Every other field of the agent's payload (transcript_path, permission_mode, prompt, tool_response, …). */
  fields: Record<string, unknown>;
}

/** The bridge's answer, which each dialect renders in the agent's own words. */
export interface BridgeAnswer {
  decision: 'allow' | 'deny' | 'ask';
  /** Why, for the model (deny) or the human (ask). */
  reason?: string;
  /** Text for the model: the intent handshake on session start, notes after a change. */
  context?: string;
  /** The tool input the user hooks rewrote it to (judged by the guards); the agent must run this one. */
  updatedInput?: Record<string, unknown>;
  /** Text for the user (a hook's systemMessage). */
  systemMessage?: string;
  /** A hook said `continue: false`: the agent stops, with this reason. */
  stop?: string;
  /** PostToolUse: what the model reads back instead of the tool's result (a user hook's updatedToolOutput). */
  updatedToolOutput?: unknown;
  /** Claude Code's own fields a user hook returned (updatedPermissions, retry, watchPaths, initialUserMessage). */
  passThrough?: Record<string, unknown>;
}

const PHASES: readonly string[] = ['pre', 'post', 'context', 'end'];
const TOOLS: readonly string[] = ['write_file', 'edit_file', 'run_command', 'read_file'];

/** Checks a request that arrived over HTTP; anything malformed is an error value, never a partial request. */
export function parseBridgeRequest(value: unknown): { ok: true; value: BridgeRequest } | { ok: false; message: string } {
  if (typeof value !== 'object' || value === null) return { ok: false, message: 'expected a JSON object' };
  const v = value as Record<string, unknown>;
  if (typeof v.phase !== 'string' || !PHASES.includes(v.phase)) return { ok: false, message: "phase must be 'pre', 'post', 'context' or 'end'" };
  if (typeof v.session_id !== 'string' || v.session_id === '') return { ok: false, message: 'session_id must be a non-empty string' };
  if (typeof v.key !== 'string') return { ok: false, message: 'key must be a string' };
  const agent = v.agent as Record<string, unknown> | undefined;
  if (typeof agent !== 'object' || agent === null || typeof agent.name !== 'string') return { ok: false, message: 'agent.name must be a string' };
  if (!Array.isArray(v.calls)) return { ok: false, message: 'calls must be an array' };
  for (const call of v.calls as unknown[]) {
    const c = call as Record<string, unknown>;
    if (typeof c !== 'object' || c === null || typeof c.tool !== 'string' || !TOOLS.includes(c.tool)) return { ok: false, message: 'each call needs a known tool' };
    if (typeof c.input !== 'object' || c.input === null) return { ok: false, message: 'each call needs an input object' };
    if (c.tool === 'edit_file' && !validEdits(c.edits)) return { ok: false, message: 'edit_file calls need edits [{search, replace, all}]' };
    const input = c.input as Record<string, unknown>;
    if (c.tool !== 'run_command' && typeof input.path !== 'string') return { ok: false, message: `${c.tool} calls need input.path` };
    if (c.tool === 'run_command' && (typeof input.command !== 'string' || (input.cwd !== undefined && typeof input.cwd !== 'string'))) return { ok: false, message: 'run_command calls need input.command and an optional string input.cwd' };
  }
  if (v.intent_id !== undefined && typeof v.intent_id !== 'string') return { ok: false, message: 'intent_id must be a string' };
  if (v.unposted !== undefined && v.unposted !== true) return { ok: false, message: 'unposted must be true when given' };
  const caller = v.caller as Record<string, unknown> | undefined;
  if (caller !== undefined && (typeof caller !== 'object' || caller === null || !positiveInteger(caller.pid) || !positiveInteger(caller.start))) return { ok: false, message: 'caller must be {pid, start}, positive integers' };
  const native = v.native as Record<string, unknown> | undefined;
  if (native !== undefined && (typeof native !== 'object' || native === null || typeof native.dialect !== 'string' || typeof native.event !== 'string' || typeof native.session_id !== 'string' || typeof native.cwd !== 'string' || typeof native.fields !== 'object' || native.fields === null || (native.tool_name !== undefined && typeof native.tool_name !== 'string') || (native.tool_input !== undefined && (typeof native.tool_input !== 'object' || native.tool_input === null)))) {
    return { ok: false, message: 'native must be {dialect, event, session_id, cwd, fields, tool_name?, tool_input?}' };
  }
  const unmapped = v.unmapped as Record<string, unknown> | undefined;
  if (unmapped !== undefined && (typeof unmapped !== 'object' || unmapped === null || typeof unmapped.tool !== 'string' || typeof unmapped.reason !== 'string')) {
    return { ok: false, message: 'unmapped must be {tool, reason}' };
  }
  const foreign = unmapped?.foreign as Record<string, unknown> | undefined;
  if (foreign !== undefined && (typeof foreign !== 'object' || foreign === null || typeof foreign.server !== 'string' || typeof foreign.tool !== 'string')) {
    return { ok: false, message: 'unmapped.foreign must be {server, tool}' };
  }
  // The other readings of an ambiguous name must arrive whole: without them the policy would judge one reading only.
  const ambiguous = foreign?.ambiguous as Record<string, unknown> | undefined;
  if (ambiguous !== undefined && (typeof ambiguous !== 'object' || ambiguous === null || typeof ambiguous.separator !== 'string' || !Array.isArray(ambiguous.others) || !ambiguous.others.every((r: unknown) => typeof r === 'object' && r !== null && typeof (r as Record<string, unknown>).server === 'string' && typeof (r as Record<string, unknown>).tool === 'string'))) {
    return { ok: false, message: 'unmapped.foreign.ambiguous must be {separator, others: [{server, tool}]}' };
  }
  return { ok: true, value: v as unknown as BridgeRequest };
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function validEdits(value: unknown): boolean {
  return Array.isArray(value) && value.every((e) => typeof e === 'object' && e !== null && typeof e.search === 'string' && typeof e.replace === 'string' && typeof e.all === 'boolean');
}
