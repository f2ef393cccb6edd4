import type { GovernorServices } from './governorServices';
import { POST_GUARDS, PRE_GUARDS } from './guards/builtInGuards';
import { userHookChain } from './userHooks/userHookChain';
import { UserHookRunner } from './userHooks/userHookRunner';
import { HookEngine } from './pipeline/hookEngine';
import type { ToolDefinition } from './tools/toolDefinition';
import { TOOLS } from './tools/toolRegistry';
import { runCall } from './flow/callFlow';
import type { Authorization, AuthorizeOptions, DecisionReport, ExecuteOptions, GovernedResult, JudgeOptions, RecordOptions, RunOptions, ToolCallRequest } from './flow/callRequest';

/**
 * The one pipeline every door calls, through one method: `run(request, { mode })`. Validate → pre-chain → human
 * approval → tool → post-chain (flow/callFlow.ts); the mode says how much of it the door needs. Built-in guards
 * run in a fixed order; more hooks register through `engine`.
 */
export class Governor {
  readonly engine: HookEngine;
  /** The user's hooks (every layer, every event); doors fire their own events (sessions, prompts, stops) here. */
  readonly userHooks: UserHookRunner;

  constructor(readonly services: GovernorServices) {
    this.engine = new HookEngine(services.logger);
    for (const hook of PRE_GUARDS) this.engine.registerPre(hook);
    for (const hook of POST_GUARDS) this.engine.registerPost(hook);
    // The user's hooks run before the guards, so the guards judge any input they rewrite; after the trace, so TraceRecorded follows it.
    this.userHooks = new UserHookRunner(services);
    const user = userHookChain(this.userHooks);
    this.engine.registerPre(user.pre);
    this.engine.registerPost(user.post);
  }

  tools(): ToolDefinition[] {
    return Object.values(TOOLS);
  }

  /** Runs the tool here (MCP, language model tools, the extension's API): the whole flow, a human asked when the chain asks. */
  run(request: ToolCallRequest, options: ExecuteOptions): Promise<GovernedResult>;
  /** Everything but the tool, for an agent's own tool that runs the call once answered (the hook bridge's pre phase). */
  run(request: ToolCallRequest, options: AuthorizeOptions): Promise<Authorization>;
  /** Validation and the pre-chain only: nobody asked, nothing written (`governor decide`, the extension's API). */
  run(request: ToolCallRequest, options: JudgeOptions): Promise<DecisionReport>;
  /** The post-chain of what an agent's own tool did (the hook bridge's post phase, reconciliations). */
  run(request: ToolCallRequest, options: RecordOptions): Promise<void>;
  run(request: ToolCallRequest, options: RunOptions): Promise<GovernedResult | Authorization | DecisionReport | void> {
    return runCall(this, request, options);
  }
}
