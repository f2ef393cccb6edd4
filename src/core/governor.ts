import { randomUUID } from 'node:crypto';
import type { GovernorServices } from './governorServices';
import type { ApprovalDecision, ApprovalRequest } from './hooks/approver';
import { approvalGate } from './hooks/builtin/approvalGate';
import { commandPolicyHook } from './hooks/builtin/commandPolicyHook';
import { intentGate } from './hooks/builtin/intentGate';
import { pathScopeGuard } from './hooks/builtin/pathScopeGuard';
import { readLedger } from './hooks/builtin/readLedger';
import { staleGuard } from './hooks/builtin/staleGuard';
import { traceRecorder } from './hooks/builtin/traceRecorder';
import { CallFacts } from './hooks/callFacts';
import { HookEngine } from './hooks/hookEngine';
import type { CallOutcome, ToolCall, ToolOutput } from './hooks/hookTypes';
import { toolError, type ErrorCode, type ToolError } from './toolError';
import { validateInput } from './tools/inputValidation';
import type { ToolDefinition } from './tools/toolDefinition';
import { findTool, TOOLS } from './tools/toolRegistry';
import type { AgentInfo } from './trace/traceSink';

/** A call as a door receives it; the engine assigns the invocation id when the door has none. */
export interface ToolCallRequest {
  tool: string;
  input: unknown;
  session_id: string;
  agent: AgentInfo;
  invocation_id?: string;
}

export type GovernedResult =
  | { ok: true; invocation_id: string; output: ToolOutput; context: string[] }
  | { ok: false; invocation_id: string; error: ToolError; context: string[] };

/** What the pre-chain would do with a call, without running it or asking anyone. */
export interface DecisionReport {
  decision: 'allow' | 'deny' | 'ask';
  code?: ErrorCode;
  message?: string;
  hook?: string;
  request?: ApprovalRequest;
  context: string[];
}

/**
 * The one pipeline every door calls: validate → pre-chain → human approval → tool → post-chain.
 * Built-in guards run in a fixed order; more hooks register through `engine`.
 */
export class Governor {
  readonly engine: HookEngine;

  constructor(readonly services: GovernorServices) {
    this.engine = new HookEngine(services.logger);
    for (const hook of [intentGate, pathScopeGuard, staleGuard, commandPolicyHook, approvalGate]) this.engine.registerPre(hook);
    for (const hook of [readLedger, traceRecorder]) this.engine.registerPost(hook);
  }

  tools(): ToolDefinition[] {
    return Object.values(TOOLS);
  }

  async call(request: ToolCallRequest): Promise<GovernedResult> {
    const invocationId = request.invocation_id ?? randomUUID();
    const definition = findTool(request.tool);
    if (!definition) return { ok: false, invocation_id: invocationId, error: unknownTool(request.tool), context: [] };
    const call: ToolCall = { tool: definition.name, input: isObject(request.input) ? request.input : {}, session_id: request.session_id, agent: request.agent, invocation_id: invocationId };
    const factsFor = (c: ToolCall) => new CallFacts(c, definition, this.services);

    const valid = validateInput(definition, request.input);
    if (!valid.ok) return this.finish(factsFor(call), { status: 'blocked', error: valid.error }, []);

    const verdict = await this.engine.runPre(call, factsFor, definition.mutation);
    if (verdict.decision === 'deny') return this.finish(verdict.facts, { status: 'blocked', error: verdict.error }, verdict.context);
    let approval: ApprovalDecision | undefined;
    if (verdict.decision === 'ask') {
      approval = await this.askHuman(verdict.request);
      if (!approval.approved) {
        const why = approval.reason ? ` (${approval.reason})` : '';
        const error = toolError('HITL_REJECT', `A human rejected this ${definition.name} call${why}. Do not retry it unchanged; ask the user how to proceed.`, { approver: approval.approver });
        return this.finish(verdict.facts, { status: 'blocked', error, approval }, verdict.context);
      }
    }
    let outcome: CallOutcome;
    try {
      const result = await definition.execute({ call: verdict.call, facts: verdict.facts, services: this.services });
      outcome = result.ok ? { status: 'success', output: result.value, approval } : { status: 'error', error: result.error, approval };
    } catch (error) {
      this.services.logger.error(`tool ${definition.name} crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      outcome = { status: 'error', error: toolError('HOOK_ERROR', `${definition.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`), approval };
    }
    return this.finish(verdict.facts, outcome, verdict.context);
  }

  /** Runs validation and the pre-chain only: no human is asked, nothing is written, nothing is traced. */
  async decide(request: ToolCallRequest): Promise<DecisionReport> {
    const definition = findTool(request.tool);
    if (!definition) return report(unknownTool(request.tool), []);
    const valid = validateInput(definition, request.input);
    if (!valid.ok) return report(valid.error, []);
    const call: ToolCall = { tool: definition.name, input: valid.value, session_id: request.session_id, agent: request.agent, invocation_id: request.invocation_id ?? randomUUID() };
    const verdict = await this.engine.runPre(call, (c) => new CallFacts(c, definition, this.services), definition.mutation);
    if (verdict.decision === 'deny') return { ...report(verdict.error, verdict.context), hook: verdict.hook };
    if (verdict.decision === 'ask') return { decision: 'ask', message: verdict.request.reasons.join('; '), request: verdict.request, context: verdict.context };
    return { decision: 'allow', context: verdict.context };
  }

  private async askHuman(request: ApprovalRequest): Promise<ApprovalDecision> {
    try {
      return await this.services.approver.approve(request);
    } catch (error) {
      // No answer is a no: an approver that fails must never let the call through.
      this.services.logger.error(`approver failed: ${error instanceof Error ? error.message : String(error)}`);
      return { approved: false, approver: 'none', reason: 'the approval could not be obtained' };
    }
  }

  private async finish(facts: CallFacts, outcome: CallOutcome, context: string[]): Promise<GovernedResult> {
    await this.engine.runPost({ call: facts.call, facts, outcome });
    const invocationId = facts.call.invocation_id;
    return outcome.status === 'success'
      ? { ok: true, invocation_id: invocationId, output: outcome.output, context }
      : { ok: false, invocation_id: invocationId, error: outcome.error, context };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownTool(name: string): ToolError {
  return toolError('INVALID_INPUT', `Unknown tool '${name}'. The governed tools are: ${Object.keys(TOOLS).join(', ')}.`, { field: 'tool' });
}

function report(error: ToolError, context: string[]): DecisionReport {
  return { decision: 'deny', code: error.code, message: error.message, context };
}
