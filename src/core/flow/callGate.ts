import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequest } from '../approval/approver';
import { approveUnlessCancelled } from '../approval/cancellation';
import type { GovernorServices } from '../governorServices';
import { governedFormOf, type KeptTarget } from '../pipeline/agentCall';
import { CallFacts } from '../pipeline/callFacts';
import type { GovernedTool } from '../pipeline/governedTool';
import type { ChainVerdict, HookEngine } from '../pipeline/hookEngine';
import type { ToolCall } from '../pipeline/toolCall';
import { toolError, type ToolError } from '../toolError';
import { validateInput } from '../tools/inputValidation';
import type { ToolDefinition } from '../tools/toolDefinition';
import { findTool, TOOLS } from '../tools/toolRegistry';
import { toolFiring } from '../userHooks/userHookChain';
import type { UserHookRunner } from '../userHooks/userHookRunner';
import type { AuthorizeOptions, ExecuteOptions, JudgeOptions, ToolCallRequest } from './callRequest';

/** What the flow runs a call against: the governor's services, its chain and the user's hooks. */
export interface FlowParts {
  readonly services: GovernorServices;
  readonly engine: HookEngine;
  readonly userHooks: UserHookRunner;
}

/** How far a call got through validation, the pre-chain and the human. */
export type Gate =
  /** Refused before anything was judged (an agent's file that cannot be read as a basis): nothing to record. */
  | { kind: 'unjudged'; invocationId: string; reason: string }
  | (Judged & {
      /** The governed form an agent's own call was judged as (what the Agent Sessions view lists for it). */
      judgedAs?: ToolCall;
    });

type Judged =
  | { kind: 'refused'; facts: CallFacts; error: ToolError; context: string[]; approval?: ApprovalDecision; hook?: string }
  | { kind: 'ask'; facts: CallFacts; request: ApprovalRequest; context: string[]; target?: KeptTarget }
  | { kind: 'cleared'; definition: ToolDefinition; verdict: ChainVerdict & { decision: 'allow' | 'ask'; facts: CallFacts }; approval?: ApprovalDecision; target?: KeptTarget };

/**
 * The part of the flow that decides whether a call may run: the door's own refusal, the tool, the governed form of
 * an agent's own call, validation, the pre-chain, then (unless only judging) the user's PermissionRequest hooks and
 * the human when the door can ask one.
 */
export async function gate(parts: FlowParts, request: ToolCallRequest, options: ExecuteOptions | AuthorizeOptions | JudgeOptions): Promise<Gate> {
  const { services } = parts;
  const invocationId = request.invocation_id ?? randomUUID();
  // A refusal the door brings, or a tool nobody governs: recorded like any refusal, against the name the agent used.
  if (options.mode === 'authorize' && options.refusal) return { kind: 'refused', facts: opaqueFacts(services, request, invocationId), error: options.refusal, context: [] };
  let definition = findTool(request.tool);
  if (!definition) return { kind: 'refused', facts: opaqueFacts(services, request, invocationId), error: unknownTool(request.tool), context: [] };
  const call: ToolCall = { tool: definition.name, input: isObject(request.input) ? request.input : {}, session_id: request.session_id, agent: request.agent, invocation_id: invocationId, ...(request.native ? { native: request.native } : {}) };
  const facts = new CallFacts(call, definition, services);
  if (options.mode !== 'authorize') return judge(parts, request, options, definition, facts);
  // The agent's call in governed terms, from the same facts: its target placed, read and hashed once.
  const form = await governedFormOf(facts);
  if (!form.ok) return { kind: 'unjudged', invocationId, reason: form.reason };
  definition = findTool(form.call.tool) ?? definition;
  const judged = await judge(parts, request, options, definition, facts.withCall(form.call, definition), form.target);
  return { ...judged, judgedAs: form.call };
}

/** Validation, the pre-chain and (unless only judging) the PermissionRequest hooks and the human, for a call in governed terms. */
async function judge(parts: FlowParts, request: ToolCallRequest, options: ExecuteOptions | AuthorizeOptions | JudgeOptions, definition: ToolDefinition, facts: CallFacts, target?: KeptTarget): Promise<Judged> {
  const { services, engine } = parts;
  const { call } = facts;
  const onlyJudge = options.mode === 'judge';
  const agentRuns = options.mode === 'authorize';
  const signal = options.mode === 'judge' ? undefined : options.signal;
  const valid = validateInput(definition, agentRuns ? call.input : request.input);
  if (!valid.ok) return { kind: 'refused', facts, error: valid.error, context: [] };
  if (!onlyJudge) await endStaleStandingApprovals(services);
  // A hook's rewrite of the input gets facts of its own over the same snapshot of the workspace.
  const verdict = await engine.runPre(call, (c) => (c === call ? facts : facts.withCall(c)), definition.mutation, signal);
  if (verdict.decision === 'deny') return { kind: 'refused', facts: verdict.facts, error: verdict.error, context: verdict.context, hook: verdict.hook };
  const reshaped = modifiedInputError(definition, call, verdict.call);
  if (reshaped) return { kind: 'refused', facts: verdict.facts, error: reshaped, context: verdict.context };
  // A native tool runs the input its agent sent: allowing it after a hook changed that input would run the original.
  if (agentRuns && verdict.call.input !== call.input) return { kind: 'refused', facts: verdict.facts, error: unCarriedInput(definition), context: verdict.context };
  if (verdict.decision === 'allow') return { kind: 'cleared', definition, verdict, target };
  // The human already answered for this session and intent ("Approve for this Session"): no dialog, no PermissionRequest.
  const standing = verdict.request.standing;
  if (standing) return { kind: 'cleared', definition, verdict, target, approval: { approved: true, approver: standing.granted_by, standing } };
  if (onlyJudge) return { kind: 'ask', facts: verdict.facts, request: verdict.request, context: verdict.context };
  // Before anyone is asked, the user's PermissionRequest hooks may decide for the human.
  const permission = await parts.userHooks.fire(await toolFiring('PermissionRequest', verdict.call, verdict.facts, { permission_request: verdict.request }, signal));
  const context = permission.context ? [...verdict.context, permission.context] : verdict.context;
  const decidedBy = `hook:${permission.decidedBy ?? 'PermissionRequest'}`;
  if (permission.decision === 'deny' || permission.stop !== undefined || (permission.updatedInput && permission.decision !== 'none')) {
    const why = permission.updatedInput && permission.decision === 'allow' ? 'a PermissionRequest hook cannot change the input of a call the guards already judged' : (permission.reason ?? permission.stop ?? '(no reason given)');
    return { kind: 'refused', facts: verdict.facts, error: toolError('HOOK_BLOCKED', `The permission for this ${definition.name} call was refused by ${decidedBy}: ${why}`, { hook: decidedBy }), context };
  }
  if (permission.decision === 'allow') return { kind: 'cleared', definition, verdict, target, approval: { approved: true, approver: decidedBy } };
  if (options.mode === 'authorize' && !options.askHuman) return { kind: 'ask', facts: verdict.facts, request: verdict.request, context, target };
  // The Agent Sessions view shows the question as pending until the human answers or the agent gives up.
  const answered = services.sessions.activity.asking(request.session_id, request.agent.name);
  const approval = await askHuman(services, verdict.request, signal).finally(answered);
  if (approval.approved) return { kind: 'cleared', definition, verdict, target, approval: await grantIfAsked(services, verdict.request, verdict.facts, approval) };
  const why = approval.reason ? ` (${approval.reason})` : '';
  const error = approval.refusal ?? toolError('HITL_REJECT', `A human rejected this ${definition.name} call${why}. Do not retry it unchanged; ask the user how to proceed.`, { approver: approval.approver });
  if (error.code === 'HITL_REJECT') {
    const denied = await parts.userHooks.fire(await toolFiring('PermissionDenied', verdict.call, verdict.facts, { reason: approval.reason ?? 'rejected by a human' }));
    if (denied.context) context.push(denied.context);
  }
  return { kind: 'refused', facts: verdict.facts, error, context, approval };
}

/** The facts of a call no governed tool stands for: no paths, no change; the post-chain records its refusal. */
function opaqueFacts(services: GovernorServices, request: ToolCallRequest, invocationId: string): CallFacts {
  const tool = String(request.tool).slice(0, 200);
  const opaque: GovernedTool = { name: tool, mutation: 'none' };
  const call: ToolCall = { tool, input: isObject(request.input) ? request.input : {}, session_id: request.session_id, agent: request.agent, invocation_id: invocationId, ...(request.native ? { native: request.native } : {}) };
  return new CallFacts(call, opaque, services);
}

/**
 * An approval "for this Session" becomes a standing approval for the call's session and intent, granted
 * against the intent's scope and status now. Only the governor sets `standing` and `granted`: an approver's
 * own say-so (a relayed answer) is not trusted for those.
 */
async function grantIfAsked(services: GovernorServices, request: ApprovalRequest, facts: CallFacts, approval: ApprovalDecision): Promise<ApprovalDecision> {
  const { standing: _standing, granted: _granted, ...answer } = approval;
  if (!answer.for_session || !request.session_approvable || !request.session_id) return answer;
  const intent = await facts.boundIntent();
  if (!intent.ok || intent.value.id !== request.intent_id) return answer;
  const granted = services.standingApprovals.grant(request.session_id, intent.value.id, answer.approver, intent.value);
  services.logger.info(`${answer.approver} approved ${request.session_id}'s changes in ${intent.value.id}'s scope for the rest of the session`);
  return { ...answer, granted };
}

/**
 * Every call looks at the plan as it is now, so a scope or status change ends the standing approvals granted
 * against the old one even when the calls in between were refused (BLOCKED, then back to IN_PROGRESS).
 */
async function endStaleStandingApprovals(services: GovernorServices): Promise<void> {
  const standing = services.standingApprovals;
  if (standing.list().length === 0) return;
  try {
    const snapshot = await services.intents.load();
    if (snapshot.valid) standing.reconcile(snapshot.intents);
  } catch {
    standing.reconcile([]); // a plan that cannot be read vouches for nothing
  }
}

async function askHuman(services: GovernorServices, request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
  try {
    return await approveUnlessCancelled(services.approver, request, signal);
  } catch (error) {
    // No answer is a no: an approver that fails must never let the call through.
    services.logger.error(`approver failed: ${error instanceof Error ? error.message : String(error)}`);
    return { approved: false, approver: 'none', reason: 'the approval could not be obtained' };
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
