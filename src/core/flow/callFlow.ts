import { randomUUID } from 'node:crypto';
import { CallFacts, decodeText } from '../pipeline/callFacts';
import type { CallOutcome } from '../pipeline/hookTypes';
import type { ToolCall } from '../pipeline/toolCall';
import { toolError } from '../toolError';
import { findTool } from '../tools/toolRegistry';
import { gate, type FlowParts, type Gate } from './callGate';
import type { Authorization, DecisionReport, GovernedResult, NativeOutput, RecordOptions, RunOptions, ToolCallRequest } from './callRequest';

/**
 * The one flow behind `Governor.run`: validate → pre-chain → human → tool → post-chain, stopped where the door's
 * mode says. `judge` stops after the pre-chain and records nothing; `authorize` stops before the tool (the agent's
 * own tool runs it) and records a refusal; `record` is the post-chain of what that tool did. Every refusal a call
 * meets, the door's own included, is recorded by the post-chain's trace recorder.
 */
export async function runCall(parts: FlowParts, request: ToolCallRequest, options: RunOptions): Promise<GovernedResult | Authorization | DecisionReport | void> {
  if (options.mode === 'record') return record(parts, request, options);
  const gated = await gate(parts, request, options);
  if (options.mode === 'judge') return report(gated);
  if (options.mode === 'authorize') return authorization(parts, request, gated);
  return execute(parts, gated, options.signal);
}

async function execute(parts: FlowParts, gated: Gate, signal: AbortSignal | undefined): Promise<GovernedResult> {
  if (gated.kind === 'unjudged') return { ok: false, invocation_id: gated.invocationId, error: toolError('INVALID_INPUT', gated.reason), context: [] };
  if (gated.kind === 'refused') return finish(parts, gated.facts, { status: 'blocked', error: gated.error, approval: gated.approval }, gated.context);
  if (gated.kind === 'ask') throw new Error('gate asked without asking a human'); // execute always asks one
  const { definition, verdict, approval } = gated;
  let outcome: CallOutcome;
  try {
    const result = await definition.execute({ call: verdict.call, facts: verdict.facts, services: parts.services, approval, signal: signal ?? new AbortController().signal });
    outcome = result.ok ? { status: 'success', output: result.value, approval } : { status: 'error', error: result.error, approval };
  } catch (error) {
    parts.services.logger.error(`tool ${definition.name} crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    outcome = { status: 'error', error: toolError('HOOK_ERROR', `${definition.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`), approval };
  }
  return finish(parts, verdict.facts, outcome, verdict.context);
}

async function finish(parts: FlowParts, facts: CallFacts, outcome: CallOutcome, before: string[]): Promise<GovernedResult> {
  parts.services.sessions.activity.recordOutcome(facts.call, outcome);
  const post = await parts.engine.runPost({ call: facts.call, facts, outcome });
  const context = [...before, ...post.context];
  const invocationId = facts.call.invocation_id;
  // A user hook's updatedToolOutput changes what the model reads back, never what was recorded.
  const output = outcome.status === 'success' && post.outputText !== undefined ? { ...outcome.output, text: post.outputText } : undefined;
  return outcome.status === 'success' ? { ok: true, invocation_id: invocationId, output: output ?? outcome.output, context } : { ok: false, invocation_id: invocationId, error: outcome.error, context };
}

async function authorization(parts: FlowParts, request: ToolCallRequest, gated: Gate): Promise<Authorization> {
  const activity = parts.services.sessions.activity;
  const listed = (gated.kind !== 'unjudged' && gated.judgedAs) || request;
  switch (gated.kind) {
    case 'unjudged':
      return { decision: 'deny', invocation_id: gated.invocationId, context: [], error: toolError('INVALID_INPUT', gated.reason), unjudged: true };
    case 'refused': {
      const outcome = { status: 'blocked' as const, error: gated.error, approval: gated.approval };
      activity.recordOutcome(listed, outcome);
      await parts.engine.runPost({ call: gated.facts.call, facts: gated.facts, outcome });
      return { decision: 'deny', invocation_id: gated.facts.call.invocation_id, context: gated.context, error: gated.error };
    }
    case 'ask':
      activity.recordOutcome(listed, { status: 'asked' });
      return { decision: 'ask', invocation_id: gated.facts.call.invocation_id, context: gated.context, request: gated.request, ...(gated.target ? { target: gated.target } : {}) };
    case 'cleared':
      activity.recordOutcome(listed, { status: 'success', approval: gated.approval });
      return { decision: 'allow', invocation_id: gated.verdict.call.invocation_id, context: gated.verdict.context, approval: gated.approval, ...(gated.target ? { target: gated.target } : {}) };
  }
}

function report(gated: Gate): DecisionReport {
  switch (gated.kind) {
    case 'unjudged':
      return { decision: 'deny', code: 'INVALID_INPUT', message: gated.reason, context: [] };
    case 'refused':
      return { decision: 'deny', code: gated.error.code, message: gated.error.message, context: gated.context, ...(gated.hook !== undefined ? { hook: gated.hook } : {}) };
    case 'ask':
      return { decision: 'ask', message: gated.request.reasons.join('; '), request: gated.request, context: gated.context };
    case 'cleared':
      // A standing approval answers for the human, so the call would run without asking.
      return { decision: 'allow', context: gated.verdict.context };
  }
}

/**
 * The post-chain for an agent's own tool that ran: what it read (the session's read ledger learns it) or changed
 * (the trace records it), read through the call's facts from what it left at its path unless the door knows.
 */
async function record(parts: FlowParts, request: ToolCallRequest, options: RecordOptions): Promise<void> {
  const definition = findTool(request.tool);
  if (!definition) return;
  const input = typeof request.input === 'object' && request.input !== null && !Array.isArray(request.input) ? (request.input as Record<string, unknown>) : {};
  const call: ToolCall = { tool: definition.name, input, session_id: request.session_id, agent: request.agent, invocation_id: request.invocation_id ?? randomUUID(), ...(request.native ? { native: request.native } : {}) };
  const facts = new CallFacts(call, definition, parts.services);
  const post = (on: CallFacts, output: NativeOutput, approval: RecordOptions['approval']) =>
    parts.engine.runPost({ call: on.call, facts: on, outcome: { status: 'success', output: { text: '', data: output.data, changes: output.changes }, approval, ...(options.recordAs ? { recordAs: options.recordAs } : {}) } });
  if ('output' in options) {
    await post(facts, options.output, options.approval);
    return;
  }
  // What the tool left behind, read only where the canonicaliser accepts it and only if it is a regular file.
  const placed = await facts.place(input.path as string, 'read');
  if (!placed.ok) return;
  const { abs, rel } = placed.value;
  const left = facts.withCall({ ...call, input: { ...input, path: rel } });
  const bytes = await left.current(abs).catch(() => undefined);
  const text = decodeText(bytes);
  const hash = bytes === undefined ? null : await left.hash(abs);
  if (definition.name === 'read_file') {
    if (bytes !== undefined) await post(left, { data: { path: rel, content: text, content_hash: hash }, changes: [] }, undefined);
    return;
  }
  const known = options.before({ abs, rel, hash, ...(text !== undefined ? { text } : {}) });
  if (!known) return; // unchanged, or recorded already
  const change = { path: rel, before: known.before, after: text, ...(known.before_hash !== undefined ? { before_hash: known.before_hash } : {}) };
  await post(left, { data: bytes === undefined ? {} : { path: rel, content_hash: hash }, changes: [change] }, options.approval);
}
