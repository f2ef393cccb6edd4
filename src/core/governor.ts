import { randomUUID } from 'node:crypto';
import type { GovernorServices } from './governorServices';
import type { ApprovalDecision, ApprovalRequest } from './approval/approver';
import { approveUnlessCancelled } from './approval/cancellation';
import { approvalGate } from './guards/approvalGate';
import { commandPolicyHook } from './guards/commandPolicyHook';
import { intentGate } from './guards/intentGate';
import { pathScopeGuard } from './guards/pathScopeGuard';
import { readLedger } from './guards/readLedger';
import { staleGuard } from './guards/staleGuard';
import { intentMapRefresher } from './guards/intentMapRefresher';
import { traceRecorder } from './guards/traceRecorder';
import { toolFiring, userHookChain } from './userHooks/userHookChain';
import { UserHookRunner } from './userHooks/userHookRunner';
import { CallFacts } from './pipeline/callFacts';
import { HookEngine, type ChainVerdict } from './pipeline/hookEngine';
import type { AppliedChange, CallOutcome, RecordAs, ToolOutput } from './pipeline/hookTypes';
import type { NativeToolUse, ToolCall } from './pipeline/toolCall';
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
  /** The agent's own tool this call stands for (the hook bridge): user hooks see and match its name and input. */
  native?: NativeToolUse;
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
 * What `authorize` answers for a call some other tool will execute (an agent's native tool): `ask` only when
 * the caller said no human can be asked here, so the agent's own UI must ask.
 */
export type Authorization =
  | { decision: 'allow'; invocation_id: string; context: string[]; approval?: ApprovalDecision }
  | { decision: 'ask'; invocation_id: string; context: string[]; request: ApprovalRequest }
  | { decision: 'deny'; invocation_id: string; context: string[]; error: ToolError };

/** How far a call got through validation, the pre-chain and the human. */
type Gate =
  | { kind: 'unknown'; invocationId: string; error: ToolError }
  | { kind: 'refused'; facts: CallFacts; error: ToolError; context: string[]; approval?: ApprovalDecision }
  | { kind: 'ask'; invocationId: string; request: ApprovalRequest; context: string[] }
  | { kind: 'cleared'; definition: ToolDefinition; verdict: ChainVerdict & { decision: 'allow' | 'ask'; facts: CallFacts }; approval?: ApprovalDecision };

/**
 * The one pipeline every door calls: validate → pre-chain → human approval → tool → post-chain.
 * Built-in guards run in a fixed order; more hooks register through `engine`.
 */
export class Governor {
  readonly engine: HookEngine;
  /** The user's hooks (every layer, every event); doors fire their own events (sessions, prompts, stops) here. */
  readonly userHooks: UserHookRunner;

  constructor(readonly services: GovernorServices) {
    this.engine = new HookEngine(services.logger);
    for (const hook of [intentGate, pathScopeGuard, staleGuard, commandPolicyHook, approvalGate]) this.engine.registerPre(hook);
    for (const hook of [readLedger, traceRecorder, intentMapRefresher]) this.engine.registerPost(hook);
    // The user's hooks run before the guards, so the guards judge any input they rewrite; after the trace, so TraceRecorded follows it.
    this.userHooks = new UserHookRunner(services);
    const user = userHookChain(this.userHooks);
    this.engine.registerPre(user.pre);
    this.engine.registerPost(user.post);
  }

  tools(): ToolDefinition[] {
    return Object.values(TOOLS);
  }

  /** `signal` aborts when the agent stops waiting: a cancelled call is refused, never carried out late. */
  async call(request: ToolCallRequest, options: { signal?: AbortSignal } = {}): Promise<GovernedResult> {
    const gate = await this.gate(request, { askHuman: true, signal: options.signal });
    if (gate.kind === 'unknown') return { ok: false, invocation_id: gate.invocationId, error: gate.error, context: [] };
    if (gate.kind === 'refused') return this.finish(gate.facts, { status: 'blocked', error: gate.error, approval: gate.approval }, gate.context);
    if (gate.kind === 'ask') throw new Error('gate asked without asking a human'); // askHuman: true never yields this
    const { definition, verdict, approval } = gate;
    let outcome: CallOutcome;
    try {
      const signal = options.signal ?? new AbortController().signal;
      const result = await definition.execute({ call: verdict.call, facts: verdict.facts, services: this.services, approval, signal });
      outcome = result.ok ? { status: 'success', output: result.value, approval } : { status: 'error', error: result.error, approval };
    } catch (error) {
      this.services.logger.error(`tool ${definition.name} crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      outcome = { status: 'error', error: toolError('HOOK_ERROR', `${definition.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`), approval };
    }
    return this.finish(verdict.facts, outcome, verdict.context);
  }

  /**
   * Validation, the pre-chain and (when `askHuman`) the human's approval: the part of the pipeline that
   * decides whether a call may run, shared by `call` and `authorize`.
   */
  private async gate(request: ToolCallRequest, options: { askHuman: boolean; signal?: AbortSignal; nativeInput?: boolean }): Promise<Gate> {
    const invocationId = request.invocation_id ?? randomUUID();
    const definition = findTool(request.tool);
    if (!definition) {
      const error = unknownTool(request.tool);
      await this.recordUnknown(request, invocationId, error);
      return { kind: 'unknown', invocationId, error };
    }
    const call: ToolCall = { tool: definition.name, input: isObject(request.input) ? request.input : {}, session_id: request.session_id, agent: request.agent, invocation_id: invocationId, ...(request.native ? { native: request.native } : {}) };
    const factsFor = (c: ToolCall) => new CallFacts(c, definition, this.services);
    const valid = validateInput(definition, request.input);
    if (!valid.ok) return { kind: 'refused', facts: factsFor(call), error: valid.error, context: [] };
    await this.endStaleStandingApprovals();
    const verdict = await this.engine.runPre(call, factsFor, definition.mutation, options.signal);
    if (verdict.decision === 'deny') return { kind: 'refused', facts: verdict.facts, error: verdict.error, context: verdict.context };
    const reshaped = modifiedInputError(definition, call, verdict.call);
    if (reshaped) return { kind: 'refused', facts: verdict.facts, error: reshaped, context: verdict.context };
    // A native tool runs the input its agent sent: allowing it after a hook changed that input would run the original.
    if (options.nativeInput && verdict.call.input !== call.input) return { kind: 'refused', facts: verdict.facts, error: unCarriedInput(definition), context: verdict.context };
    if (verdict.decision === 'allow') return { kind: 'cleared', definition, verdict };
    // The human already answered for this session and intent ("Approve for this Session"): no dialog, no PermissionRequest.
    const standing = verdict.request.standing;
    if (standing) return { kind: 'cleared', definition, verdict, approval: { approved: true, approver: standing.granted_by, standing } };
    // Before anyone is asked, the user's PermissionRequest hooks may decide for the human.
    const permission = await this.userHooks.fire(await toolFiring('PermissionRequest', verdict.call, verdict.facts, { permission_request: verdict.request }, options.signal));
    const context = permission.context ? [...verdict.context, permission.context] : verdict.context;
    const decidedBy = `hook:${permission.decidedBy ?? 'PermissionRequest'}`;
    if (permission.decision === 'deny' || permission.stop !== undefined || (permission.updatedInput && permission.decision !== 'none')) {
      const why = permission.updatedInput && permission.decision === 'allow' ? 'a PermissionRequest hook cannot change the input of a call the guards already judged' : (permission.reason ?? permission.stop ?? '(no reason given)');
      return { kind: 'refused', facts: verdict.facts, error: toolError('HOOK_BLOCKED', `The permission for this ${definition.name} call was refused by ${decidedBy}: ${why}`, { hook: decidedBy }), context };
    }
    if (permission.decision === 'allow') return { kind: 'cleared', definition, verdict, approval: { approved: true, approver: decidedBy } };
    if (!options.askHuman) return { kind: 'ask', invocationId, request: verdict.request, context };
    // The Agent Sessions view shows the question as pending until the human answers or the agent gives up.
    const answered = this.services.sessions.activity.asking(request.session_id, request.agent.name);
    const approval = await this.askHuman(verdict.request, options.signal).finally(answered);
    if (approval.approved) return { kind: 'cleared', definition, verdict, approval: await this.grantIfAsked(verdict.request, verdict.facts, approval) };
    const why = approval.reason ? ` (${approval.reason})` : '';
    const error = approval.refusal ?? toolError('HITL_REJECT', `A human rejected this ${definition.name} call${why}. Do not retry it unchanged; ask the user how to proceed.`, { approver: approval.approver });
    if (error.code === 'HITL_REJECT') {
      const denied = await this.userHooks.fire(await toolFiring('PermissionDenied', verdict.call, verdict.facts, { reason: approval.reason ?? 'rejected by a human' }));
      if (denied.context) context.push(denied.context);
    }
    return { kind: 'refused', facts: verdict.facts, error, context, approval };
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
    const reshaped = modifiedInputError(definition, call, verdict.call);
    if (reshaped) return report(reshaped, verdict.context);
    // A standing approval answers for the human, so the call would run without asking.
    if (verdict.decision === 'ask' && !verdict.request.standing) return { decision: 'ask', message: verdict.request.reasons.join('; '), request: verdict.request, context: verdict.context };
    return { decision: 'allow', context: verdict.context };
  }

  /**
   * The pre-chain and the human approval, without executing: for agents' native tools, which execute
   * themselves once we answer. Refusals go through the post-chain (governance log) like any refused call;
   * an allowed call's change is recorded later by `recordNative`, once the native tool has run.
   */
  async authorize(request: ToolCallRequest, options: { askHuman: boolean; signal?: AbortSignal }): Promise<Authorization> {
    const gate = await this.gate(request, { ...options, nativeInput: true });
    const activity = this.services.sessions.activity;
    if (gate.kind === 'refused') activity.recordOutcome(request, { status: 'blocked', error: gate.error, approval: gate.approval });
    else if (gate.kind === 'ask') activity.recordOutcome(request, { status: 'asked' });
    else if (gate.kind === 'cleared') activity.recordOutcome(request, { status: 'success', approval: gate.approval });
    switch (gate.kind) {
      case 'unknown':
        return { decision: 'deny', invocation_id: gate.invocationId, context: [], error: gate.error };
      case 'refused':
        await this.engine.runPost({ call: gate.facts.call, facts: gate.facts, outcome: { status: 'blocked', error: gate.error, approval: gate.approval } });
        return { decision: 'deny', invocation_id: gate.facts.call.invocation_id, context: gate.context, error: gate.error };
      case 'ask':
        return { decision: 'ask', invocation_id: gate.invocationId, context: gate.context, request: gate.request };
      case 'cleared':
        return { decision: 'allow', invocation_id: gate.verdict.call.invocation_id, context: gate.verdict.context, approval: gate.approval };
    }
  }

  /**
   * Records what an agent's native tool did after `authorize` let it: the post-chain sees a successful call
   * with these changes, so the read ledger and the trace treat it like one of ours. `recordAs`: a change whose
   * post event never came, recorded under the intent of its PreToolUse and marked as reconciled.
   */
  async recordNative(request: ToolCallRequest, output: { data: Record<string, unknown>; changes: AppliedChange[] }, approval?: ApprovalDecision, recordAs?: RecordAs): Promise<void> {
    const definition = findTool(request.tool);
    if (!definition) return;
    const call: ToolCall = { tool: definition.name, input: isObject(request.input) ? request.input : {}, session_id: request.session_id, agent: request.agent, invocation_id: request.invocation_id ?? randomUUID(), ...(request.native ? { native: request.native } : {}) };
    const facts = new CallFacts(call, definition, this.services);
    await this.engine.runPost({ call, facts, outcome: { status: 'success', output: { text: '', data: output.data, changes: output.changes }, approval, ...(recordAs ? { recordAs } : {}) } });
  }

  /** An agent's native tool that no door knows how to judge: refused (fail closed) and audited like an unknown tool. */
  async refuseUnmapped(request: ToolCallRequest, reason: string): Promise<ToolError> {
    const error = toolError('INVALID_INPUT', reason, { field: 'tool', tool: request.tool });
    await this.recordUnknown(request, request.invocation_id ?? randomUUID(), error);
    return error;
  }

  /** A refusal decided outside the pipeline (a user hook at an agent's native door) goes to the governance log too. */
  async auditRefusal(request: ToolCallRequest, error: ToolError): Promise<void> {
    await this.recordUnknown(request, request.invocation_id ?? randomUUID(), error);
  }

  /** A call for a tool that does not exist is refused like any other, so it is audited like any other. */
  private async recordUnknown(request: ToolCallRequest, invocationId: string, error: ToolError): Promise<void> {
    this.services.sessions.activity.recordOutcome(request, { status: 'blocked', error });
    try {
      await this.services.trace.recordGovernance({
        timestamp: this.services.clock().toISOString(),
        invocation_id: invocationId,
        session_id: request.session_id,
        agent: request.agent,
        tool: String(request.tool).slice(0, 200),
        intent_id: this.services.sessions.boundIntentId(request.session_id),
        decision: 'deny',
        code: error.code,
        message: error.message,
        paths: [],
      });
      this.services.intentMap?.changed(); // refusals outside the post-chain count in the map too
    } catch (failure) {
      this.services.logger.error(`governance log: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  }

  /**
   * An approval "for this Session" becomes a standing approval for the call's session and intent, granted
   * against the intent's scope and status now. Only the governor sets `standing` and `granted`: an approver's
   * own say-so (a relayed answer) is not trusted for those.
   */
  private async grantIfAsked(request: ApprovalRequest, facts: CallFacts, approval: ApprovalDecision): Promise<ApprovalDecision> {
    const { standing: _standing, granted: _granted, ...answer } = approval;
    if (!answer.for_session || !request.session_approvable || !request.session_id) return answer;
    const intent = await facts.boundIntent();
    if (!intent.ok || intent.value.id !== request.intent_id) return answer;
    const granted = this.services.standingApprovals.grant(request.session_id, intent.value.id, answer.approver, intent.value);
    this.services.logger.info(`${answer.approver} approved ${request.session_id}'s changes in ${intent.value.id}'s scope for the rest of the session`);
    return { ...answer, granted };
  }

  /**
   * Every call looks at the plan as it is now, so a scope or status change ends the standing approvals granted
   * against the old one even when the calls in between were refused (BLOCKED, then back to IN_PROGRESS).
   */
  private async endStaleStandingApprovals(): Promise<void> {
    const standing = this.services.standingApprovals;
    if (standing.list().length === 0) return;
    try {
      const snapshot = await this.services.intents.load();
      if (snapshot.valid) standing.reconcile(snapshot.intents);
    } catch {
      standing.reconcile([]); // a plan that cannot be read vouches for nothing
    }
  }

  private async askHuman(request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
    try {
      return await approveUnlessCancelled(this.services.approver, request, signal);
    } catch (error) {
      // No answer is a no: an approver that fails must never let the call through.
      this.services.logger.error(`approver failed: ${error instanceof Error ? error.message : String(error)}`);
      return { approved: false, approver: 'none', reason: 'the approval could not be obtained' };
    }
  }

  private async finish(facts: CallFacts, outcome: CallOutcome, before: string[]): Promise<GovernedResult> {
    this.services.sessions.activity.recordOutcome(facts.call, outcome);
    const context = [...before, ...(await this.engine.runPost({ call: facts.call, facts, outcome }))];
    const invocationId = facts.call.invocation_id;
    return outcome.status === 'success'
      ? { ok: true, invocation_id: invocationId, output: outcome.output, context }
      : { ok: false, invocation_id: invocationId, error: outcome.error, context };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A hook's `modify` must still be a call the tool accepts: the guards judged the new input, but only the schema
 * says it is well-formed (a hook could add a field the tool does not know or drop one it needs).
 */
function modifiedInputError(definition: ToolDefinition, original: ToolCall, final: ToolCall): ToolError | undefined {
  if (final.input === original.input) return undefined;
  const valid = validateInput(definition, final.input);
  if (valid.ok) return undefined;
  return toolError('HOOK_ERROR', `A hook changed this ${definition.name} call into one the tool does not accept (${valid.error.message}), so it was refused (governance fails closed). Tell the user; the hook needs fixing.`, {
    field: valid.error.meta?.field,
  });
}

function unCarriedInput(definition: ToolDefinition): ToolError {
  return toolError('HOOK_BLOCKED', `A hook changed the input of this ${definition.name} call, and this agent's tool would still run the original input, so the call was refused. Make the change the hook asked for yourself and try again.`, {
    reason: 'changed_input_not_carried',
  });
}

function unknownTool(name: string): ToolError {
  return toolError('INVALID_INPUT', `Unknown tool '${name}'. The governed tools are: ${Object.keys(TOOLS).join(', ')}.`, { field: 'tool' });
}

function report(error: ToolError, context: string[]): DecisionReport {
  return { decision: 'deny', code: error.code, message: error.message, context };
}
