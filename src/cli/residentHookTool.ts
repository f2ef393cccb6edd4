import { resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { claudeDialect } from '../core/agents/claude/claudeDialect';
import { claudeRouting, parseRouting, routes, routingGaps, SELF_COMPLETED_TOOLS, type ClaudeRouting } from '../core/agents/claude/claudeRouting';
import { RESIDENT_HOOK_FIELDS, RESIDENT_HOOK_TOOL, RESIDENT_ROUTING_FIELD } from '../core/agents/claude/residentHook';
import { isRecord, type HookReply } from '../core/agents/common/hookDialect';
import type { NativeCall } from '../core/agents/common/nativeCall';
import { cpuMsSince, hookTimingsRecorder } from '../core/bridge/hookTimings';
import { SelfCompletions, type CompletionMoment } from '../core/bridge/selfCompletions';
import type { Logger } from '../core/logger';
import type { ExtraTool } from '../core/mcp/governedMcpServer';
import type { DeclaredHooks } from '../core/userHooks/declaredHooks';
import type { CliIO } from './cliCommand';
import { answerHookPayload, type HeadlessDecider, type HookOptions } from './hookFlow';

/** Fields that carry JSON (objects) rather than text. */
const JSON_FIELDS = new Set(['tool_input', 'tool_response']);

/** A hook input rebuilt from the interpolated strings; an unreadable object is left out (the parser then refuses it). */
export function hookPayloadFrom(args: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) {
    if (value === '' || value === undefined || value === null || field === RESIDENT_ROUTING_FIELD) continue;
    if (!JSON_FIELDS.has(field) || typeof value !== 'string') {
      payload[field] = value;
      continue;
    }
    try {
      payload[field] = JSON.parse(value) as unknown;
    } catch {
      payload[field] = value; // a tool_response may be plain text
    }
  }
  return payload;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

export interface ResidentHookSettings {
  options: (signal: AbortSignal) => HookOptions;
  io: Pick<CliIO, 'cwd' | 'env'>;
  decide: HeadlessDecider;
  /** The governed workspace. */
  root: string;
  /** The user hooks the governor runs for Claude Code, as declared now (read again when their files change). */
  declared: () => DeclaredHooks;
  logger: Logger;
}

/** The hook tool, and what the server does with it when the session closes. */
export interface ResidentHookTool extends ExtraTool {
  /** Completes the allowed changes whose post never came (the server is closing). */
  close(): Promise<void>;
}

/**
 * The tool Claude Code's hooks call in the resident governor: the hook input goes through the same flow as
 * `governor hook claude` (map, judge, answer in Claude's words), in this long-lived process, with its session.
 * The answer is the text Claude reads like a command hook's stdout. A failure is a refusal for a tool call and
 * an error (which `onFailure: "block"` turns into a block) for any other event: never an allow.
 *
 * The hooks' input also says which tool events their matchers route (claudeRouting.ts). A Write or Edit whose
 * PostToolUse is not routed is completed here once the file holds it (selfCompletions.ts); a tool call or a
 * prompt while the user's hooks need events the matchers do not route is refused until the hooks are installed
 * again. `INTENT_GOVERNOR_HOOK_TIMINGS=<file>` appends each hook's own time (event, tool, ms) to that file.
 */
export function residentHookTool(settings: ResidentHookSettings): ResidentHookTool {
  const neverAborted = new AbortController().signal;
  const timings = hookTimingsRecorder(settings.io.env);
  const time = (event: unknown, tool: unknown, started: number, cpu?: NodeJS.CpuUsage) => timings?.(String(event), String(tool ?? ''), performance.now() - started, cpu && { cpuMs: cpuMsSince(cpu) });
  /**
   * A post no one waits for: the governor's own completion of a change. (A Read's post is answered only once the read
   * is recorded: recorded after the answer, a person's save that came first was taken for what the agent read.)
   */
  const postAfter = async (post: Record<string, unknown>, label: string) => {
    const started = performance.now();
    const reply = await answerHookPayload(claudeDialect, post, settings.options(neverAborted), settings.io, settings.decide);
    time(label, post.tool_name, started);
    if (reply.exitCode !== 0) throw new Error(reply.stderr.trim() || `exit ${reply.exitCode}`);
  };
  const completions = new SelfCompletions(settings.logger);
  /** The governed calls a tool's input maps to (undefined: none, or a tool the dialect does not govern). */
  const governedCalls = (payload: Record<string, unknown>, input: unknown): NativeCall[] | undefined => {
    const tool = payload.tool_name;
    if (typeof tool !== 'string' || !isRecord(input)) return undefined;
    const cwd = resolve(settings.io.cwd, typeof payload.cwd === 'string' ? payload.cwd : '.');
    const mapping = claudeDialect.mapTool(tool, input, { cwd, workspace: settings.root });
    return mapping.kind === 'governed' ? mapping.calls : undefined;
  };

  /** Allowed (or handed to the person) and its post never comes: watched until the file holds the change. */
  const trackUnposted = (payload: Record<string, unknown>, routing: ClaudeRouting, reply: HookReply) => {
    const tool = payload.tool_name;
    if (payload.hook_event_name !== 'PreToolUse' || typeof tool !== 'string' || !SELF_COMPLETED_TOOLS.has(tool) || routes(routing, 'PostToolUse', tool)) return;
    const answer = parseAnswer(reply);
    if (!answer || answer.hookSpecificOutput?.permissionDecision === 'deny' || answer.continue === false) return;
    const input = isRecord(answer.hookSpecificOutput?.updatedInput) ? answer.hookSpecificOutput.updatedInput : payload.tool_input;
    const calls = governedCalls(payload, input);
    const id = payload.tool_use_id;
    // No id to pair it with: the pending entry is reconciled instead.
    if (!calls || !isRecord(input) || typeof id !== 'string' || id === '') return;
    const post: Record<string, unknown> = { ...payload, hook_event_name: 'PostToolUse', tool_input: input };
    delete post.tool_response;
    completions.track(id, ownerOf(payload), calls, () => postAfter(post, 'PostToolUse(resident)'));
  };

  return {
    tool: {
      name: RESIDENT_HOOK_TOOL,
      description: "Answers Claude Code's hook events for Intent Governor. Called by hooks; not for the model.",
      inputSchema: { type: 'object', properties: Object.fromEntries([...RESIDENT_HOOK_FIELDS, RESIDENT_ROUTING_FIELD].map((f) => [f, { type: 'string' }])) },
      annotations: { readOnlyHint: true },
    },
    async call(args, signal) {
      const started = performance.now();
      const cpu = timings ? process.cpuUsage() : undefined;
      const routing = parseRouting(args[RESIDENT_ROUTING_FIELD]);
      const payload = hookPayloadFrom(args);
      const event = payload.hook_event_name;
      try {
        await completions.before(claudeMoment(payload), event === 'PreToolUse' ? () => governedCalls(payload, payload.tool_input) : undefined);
        const stale = event === 'PreToolUse' || event === 'UserPromptSubmit' ? staleRouting(routing, settings) : undefined;
        if (stale !== undefined) {
          return text(JSON.stringify(event === 'PreToolUse' ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: stale } } : { decision: 'block', reason: stale }));
        }
        // The governor completed this call itself (its post was not routed): nothing is left to record.
        if ((event === 'PostToolUse' || event === 'PostToolUseFailure') && completions.completedAlready(payload.tool_use_id)) return text('{}');
        const reply = await answerHookPayload(claudeDialect, payload, settings.options(signal), settings.io, settings.decide);
        if (reply.exitCode === 0) {
          trackUnposted(payload, routing, reply);
          return text(reply.stdout.trim() || '{}');
        }
        const reason = reply.stderr.trim() || 'Intent Governor could not check this call, so it is refused (fail closed).';
        if (event === 'PreToolUse') {
          return text(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }));
        }
        return { isError: true, content: [{ type: 'text', text: reason }] };
      } finally {
        time(event, payload.tool_name, started, cpu);
      }
    },
    close: () => completions.close(),
  };
}

/** The subagent that sent an event ('' for the main agent): one agent runs its file tools one at a time. */
function ownerOf(payload: Record<string, unknown>): string {
  return typeof payload.agent_id === 'string' ? payload.agent_id : '';
}

/**
 * Claude Code's events for the changes completed here: a tool call or post, a new prompt or a compaction is a move on;
 * Stop ends the main agent's calls, SubagentStop its subagent's. (A PermissionRequest or Notification may come while
 * the tool still waits for a person.)
 */
function claudeMoment(payload: Record<string, unknown>): CompletionMoment {
  const event = payload.hook_event_name;
  const id = typeof payload.tool_use_id === 'string' ? payload.tool_use_id : undefined;
  const owner = ownerOf(payload);
  if (event === 'PostToolUse' || event === 'PostToolUseFailure') return { owner, id, kind: 'post' };
  if (event === 'Stop' || event === 'SubagentStop') return { owner, kind: 'end' };
  return { owner, id, kind: event === 'PreToolUse' || event === 'UserPromptSubmit' || event === 'PreCompact' ? 'next' : 'other' };
}

/**
 * Why the installed matchers no longer do, when the user's hooks now need a tool event Claude Code does not send
 * (a hook added since `governor hooks install`); undefined when they cover it.
 */
function staleRouting(installed: ClaudeRouting, settings: ResidentHookSettings): string | undefined {
  const gaps = routingGaps(installed, claudeRouting(settings.declared()));
  if (gaps.length === 0) return undefined;
  return `Intent Governor: your hooks changed since \`governor hooks install --agent claude\` wrote Claude Code's matchers, which do not send the governor ${gaps.join('; ')}, so a hook of yours would not run there. Run \`governor hooks install --agent claude --workspace ${settings.root}\` again (or Install Agent Hooks… in VS Code) and restart the session; until then every tool call is refused (fail closed).`;
}

interface RenderedAnswer {
  continue?: boolean;
  hookSpecificOutput?: { permissionDecision?: string; updatedInput?: unknown };
}

function parseAnswer(reply: HookReply): RenderedAnswer | undefined {
  if (reply.stdout.trim() === '') return {};
  try {
    const value = JSON.parse(reply.stdout) as unknown;
    return isRecord(value) ? (value as RenderedAnswer) : undefined;
  } catch {
    return undefined;
  }
}
