import { toolError } from '../toolError';
import type { CallFacts } from '../pipeline/callFacts';
import type { CallOutcome, PostHook, PreHook, PreHookResult } from '../pipeline/hookTypes';
import type { ToolCall } from '../pipeline/toolCall';
import { matchNames } from './claudeToolNames';
import type { ConditionSubject } from './hookCondition';
import type { HookEventName } from './hookEvents';
import { NO_VERDICT, type HookVerdict } from './hookVerdict';
import { GOVERNOR_VOICE, type HookFiring, type UserHookRunner } from './userHookRunner';

/** Each user hook has its own timeout that kills its process; this bounds a chain of them. */
const CHAIN_TIMEOUT_MS = 15 * 60_000;

/** What an `if` condition is checked against for a governed call. */
export async function governedSubject(call: ToolCall, facts: CallFacts): Promise<ConditionSubject> {
  const names = matchNames(call.native?.tool, [call.tool]);
  if (typeof call.input.command === 'string') return { toolNames: names, command: call.input.command, kind: 'command' };
  const paths = await facts.paths();
  const path = paths.ok ? paths.value.find((p) => p.field === 'path')?.rel : undefined;
  const mutation = facts.definition.mutation;
  const kind = mutation === 'write' || mutation === 'edit' || mutation === 'delete' ? 'write' : path !== undefined ? 'read' : 'other';
  return { toolNames: names, ...(path !== undefined ? { path } : {}), kind };
}

/** A call as a tool event for the user hooks: a native call under the agent's tool name and input, matched by both names. */
export async function toolFiring(event: HookEventName, call: ToolCall, facts: CallFacts, fields: Record<string, unknown>, signal?: AbortSignal): Promise<HookFiring> {
  const subject = await governedSubject(call, facts);
  return {
    event,
    sessionKey: call.session_id,
    sessionId: call.session_id,
    agent: call.agent,
    cwd: facts.services.workspace.root,
    fields: { tool_name: call.native?.tool ?? call.tool, tool_input: call.native?.input ?? call.input, tool_use_id: call.invocation_id, ...fields },
    governedTool: call.tool,
    invocationId: call.invocation_id,
    filePath: subject.path,
    toolNames: subject.toolNames,
    subject,
    signal,
  };
}

/** A merged verdict as the engine's pre-hook answer: deny and ask keep the hook's words, a rewrite is a `modify`. */
export function preHookResult(verdict: HookVerdict): PreHookResult {
  const context = [verdict.context, verdict.systemMessage].filter((c): c is string => typeof c === 'string' && c !== '').join('\n') || undefined;
  const hook = verdict.decidedBy ?? 'a hook';
  if (verdict.stop !== undefined || verdict.decision === 'deny') {
    const failed = verdict.failures.some((f) => f.hook === verdict.decidedBy);
    const message = verdict.reason ?? verdict.stop ?? '(no reason given)';
    const error = failed ? toolError('HOOK_ERROR', message, { hook }) : toolError('HOOK_BLOCKED', `Blocked by the hook '${hook}': ${message}`, { hook });
    return { decision: { kind: 'deny', error }, context };
  }
  if (verdict.decision === 'ask') {
    const reason = hook === GOVERNOR_VOICE ? (verdict.reason ?? '') : `The hook '${hook}' asks: ${verdict.reason ?? '(no reason given)'}`;
    return { decision: { kind: 'ask', ask: { reason, risk: 'medium' } }, context };
  }
  if (verdict.updatedInput) return { decision: { kind: 'modify', input: verdict.updatedInput }, context };
  return { decision: { kind: 'allow' }, context };
}

function toolResponse(outcome: CallOutcome): Record<string, unknown> {
  if (outcome.status === 'success') return { tool_response: { status: 'success', text: outcome.output.text, ...outcome.output.data } };
  return { error: outcome.error.message, error_code: outcome.error.code };
}

/**
 * The user hooks as links of the governed pipeline: PreToolUse (and ScopeExpansionRequested) before the built-in
 * guards, so the guards judge any input a hook rewrote; PostToolUse / PostToolUseFailure, IntentSelected and
 * TraceRecorded after the call. An agent's native calls get only TraceRecorded here: the bridge fires the tool
 * events itself, with the agent's own tool names and input.
 */
export function userHookChain(runner: UserHookRunner): { pre: PreHook; post: PostHook } {
  /** Fires a call's event at the user hooks; when nobody hooks it, at no cost (no facts read for the firing). */
  async function fireTool(event: HookEventName, call: ToolCall, facts: CallFacts, fields: Record<string, unknown>, overrides: Partial<HookFiring> = {}): Promise<HookVerdict> {
    if (runner.idle(call.agent.name, event, call.session_id)) return NO_VERDICT;
    return runner.fire({ ...(await toolFiring(event, call, facts, fields)), ...overrides });
  }
  const pre: PreHook = {
    name: 'user-hooks',
    timeoutMs: CHAIN_TIMEOUT_MS,
    async run(context) {
      const { call, facts } = context;
      if (call.native) return { decision: { kind: 'allow' } };
      // Read only if a hook fires: the chain makes its signal on first use.
      const withSignal = { get signal() { return context.signal; } };
      let verdict = await fireTool('PreToolUse', call, facts, {}, withSignal);
      if (call.tool === 'request_scope_expansion' && verdict.decision !== 'deny') {
        const expansion = await fireTool('ScopeExpansionRequested', call, facts, {}, { signal: context.signal, toolNames: undefined, matchValue: undefined });
        verdict = expansion.decision === 'none' ? { ...verdict, context: [verdict.context, expansion.context].filter(Boolean).join('\n') || undefined } : expansion;
      }
      return preHookResult(verdict);
    },
  };
  const post: PostHook = {
    name: 'user-hooks',
    timeoutMs: CHAIN_TIMEOUT_MS,
    // A refused call fires no post event: answered at once, so the engine starts no timer for it.
    run: ({ call, facts, outcome }) => (outcome.status === 'blocked' ? undefined : afterCall(call, facts, outcome)),
  };
  /** PostToolUse / PostToolUseFailure, IntentSelected and TraceRecorded for a call that ran (or failed running). */
  async function afterCall(call: ToolCall, facts: CallFacts, outcome: Exclude<CallOutcome, { status: 'blocked' }>): Promise<{ context?: string; outputText?: string } | undefined> {
    const contexts: string[] = [];
    let outputText: string | undefined;
    if (!call.native) {
      const event = outcome.status === 'success' ? 'PostToolUse' : 'PostToolUseFailure';
      const verdict = await fireTool(event, call, facts, toolResponse(outcome));
      for (const text of [verdict.context, verdict.decision === 'deny' ? verdict.reason : undefined, verdict.systemMessage]) if (text) contexts.push(text);
      if (verdict.updatedToolOutput !== undefined) outputText = outputTextOf(verdict.updatedToolOutput);
    }
    if (outcome.status === 'success' && call.tool === 'select_active_intent') {
      const selected = await fireTool('IntentSelected', call, facts, { intent_id: call.input.intent_id }, { toolNames: undefined });
      if (selected.context) contexts.push(selected.context);
    }
    if (outcome.status === 'success' && outcome.output.changes?.length) {
      const files = outcome.output.changes.map((c) => c.path);
      const recorded = await fireTool('TraceRecorded', call, facts, { files }, { toolNames: undefined });
      if (recorded.context) contexts.push(recorded.context);
    }
    if (!contexts.length && outputText === undefined) return undefined;
    return { ...(contexts.length ? { context: contexts.join('\n') } : {}), ...(outputText !== undefined ? { outputText } : {}) };
  }
  return { pre, post };
}

/**
 * What the model reads instead of the tool's text: a string as it is; an object shaped like the `tool_response`
 * the hook was given keeps its `text`, MCP's `{content: [{type: "text", text}]}` its texts; anything else as JSON.
 */
export function outputTextOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    if (Array.isArray(record.content)) {
      const texts = record.content.filter((c): c is { text: string } => typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string');
      if (texts.length) return texts.map((c) => c.text).join('\n');
    }
  }
  return JSON.stringify(value);
}
