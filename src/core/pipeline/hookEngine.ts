import type { Logger } from '../logger';
import { isToolError, toolError, type ToolError } from '../toolError';
import type { ApprovalRequest } from '../approval/approver';
import type { CallFacts } from './callFacts';
import { cancelledCallError } from '../approval/cancellation';
import { mergeAsks } from './decisionMerge';
import type { ApprovalAsk, PostHook, PostHookContext, PostChainResult, PreDecision, PreHook, PreHookResult } from './hookTypes';
import type { ToolCall } from './toolCall';

export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

export interface Registration {
  dispose(): void;
}

/** Where a new pre-hook goes; by default before the built-in guards, so the guards see any input it modifies. */
export interface Placement {
  before?: string;
  after?: string;
}

/** The pre-chain's merged answer for one call. */
export type ChainVerdict =
  | { decision: 'allow'; call: ToolCall; context: string[] }
  | { decision: 'ask'; call: ToolCall; context: string[]; request: ApprovalRequest }
  | { decision: 'deny'; call: ToolCall; context: string[]; error: ToolError; hook: string };

const TIMED_OUT = Symbol('timed out');
const CANCELLED = Symbol('cancelled');

function hookError(hook: string, what: string): ToolError {
  return toolError('HOOK_ERROR', `Hook '${hook}' ${what}, so the call was refused (governance fails closed). Tell the user; retrying will not help until the hook is fixed.`, {
    hook,
  });
}

/** A hook's answer, or why it is not one (garbage counts as a failure, never as allow). */
function checkResult(value: unknown): PreHookResult | string {
  if (typeof value !== 'object' || value === null) return 'returned no result';
  const { decision, context } = value as PreHookResult;
  if (context !== undefined && typeof context !== 'string') return 'returned a non-text context';
  if (typeof decision !== 'object' || decision === null) return 'returned no decision';
  const d = decision as PreDecision;
  switch (d.kind) {
    case 'allow':
      return value as PreHookResult;
    case 'deny':
      return isToolError(d.error) ? (value as PreHookResult) : 'denied without a valid tool_error';
    case 'ask':
      return typeof d.ask === 'object' && d.ask !== null && typeof d.ask.reason === 'string' && ['low', 'medium', 'high'].includes(d.ask.risk)
        ? (value as PreHookResult)
        : 'asked without a reason and risk';
    case 'modify':
      return typeof d.input === 'object' && d.input !== null && !Array.isArray(d.input) ? (value as PreHookResult) : 'modified the input to a non-object';
    default:
      return `returned an unknown decision '${String((d as { kind?: unknown }).kind)}'`;
  }
}

/**
 * The signal a call's pre-hooks share, made on first use (most hooks never read it, and an AbortSignal.any per hook
 * was a tenth of a hook call's time): it aborts when the call is cancelled or when a hook's time is up, and either
 * ends the chain, so no later hook sees it aborted by an earlier one.
 */
class ChainSignal {
  private controller?: AbortController;
  private made?: AbortSignal;
  private timedOut = false;

  constructor(private readonly callSignal?: AbortSignal) {}

  get signal(): AbortSignal {
    if (!this.made) {
      this.controller = new AbortController();
      if (this.timedOut) this.controller.abort();
      this.made = this.callSignal ? AbortSignal.any([this.controller.signal, this.callSignal]) : this.controller.signal;
    }
    return this.made;
  }

  timeOut(): void {
    this.timedOut = true;
    this.controller?.abort();
  }
}

/**
 * Runs a hook until it answers, its time is up, or (with `callSignal`) the call is cancelled; the chain's signal
 * aborts in both of the latter cases, so a hook that started work (a process, a request) can stop it. An answer
 * given at once races no timer.
 */
async function withTimeout<T>(run: () => Promise<T> | T, ms: number, chain: ChainSignal, callSignal?: AbortSignal): Promise<T | typeof TIMED_OUT | typeof CANCELLED> {
  const answer = run();
  if (!isPending(answer)) return answer;
  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  const stop = new Promise<typeof TIMED_OUT | typeof CANCELLED>((resolve) => {
    timer = setTimeout(() => {
      chain.timeOut();
      resolve(TIMED_OUT);
    }, ms);
    if (!callSignal) return;
    onCancel = () => resolve(CANCELLED);
    if (callSignal.aborted) onCancel();
    else callSignal.addEventListener('abort', onCancel, { once: true });
  });
  try {
    return await Promise.race([answer, stop]);
  } finally {
    clearTimeout(timer);
    if (onCancel) callSignal?.removeEventListener('abort', onCancel);
  }
}

function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** A post-hook's pending answer, or TIMED_OUT after `ms` (post-hooks get no signal: nothing to abort). */
async function within<T>(pending: PromiseLike<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([pending, stop]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ordered pre and post chains. Pre: deny short-circuits, decisions merge deny > ask > allow, a hook that throws,
 * times out or returns garbage is a deny (HOOK_ERROR). Post: always run, never change the outcome, failures logged.
 */
export class HookEngine {
  private readonly pre: PreHook[] = [];
  private readonly post: PostHook[] = [];

  constructor(private readonly logger: Logger) {}

  registerPre(hook: PreHook, placement: Placement = {}): Registration {
    const anchorName = placement.before ?? placement.after;
    let index = anchorName ? this.pre.findIndex((h) => h.name === anchorName) : -1;
    if (anchorName && index < 0) throw new Error(`No pre-hook named '${anchorName}' to place '${hook.name}' beside`);
    if (placement.after) index += 1;
    if (!anchorName) index = hook.guard ? this.pre.length : this.firstGuardIndex();
    this.pre.splice(index, 0, hook);
    return { dispose: () => this.remove(this.pre, hook) };
  }

  /** Post-hooks run in registration order; `first` puts one ahead of the built-ins (e.g. a timing probe). */
  registerPost(hook: PostHook, placement: { first?: boolean } = {}): Registration {
    if (placement.first) this.post.unshift(hook);
    else this.post.push(hook);
    return { dispose: () => this.remove(this.post, hook) };
  }

  preHookNames(): string[] {
    return this.pre.map((h) => h.name);
  }

  postHookNames(): string[] {
    return this.post.map((h) => h.name);
  }

  private firstGuardIndex(): number {
    const index = this.pre.findIndex((h) => h.guard);
    return index < 0 ? this.pre.length : index;
  }

  private remove<T>(list: T[], item: T): void {
    const index = list.indexOf(item);
    if (index >= 0) list.splice(index, 1);
  }

  /**
   * Runs the pre-chain. `factsFor` builds fresh facts for a (possibly modified) call. When `signal` aborts (the
   * agent stopped waiting), the running hook is told through its own signal and the call is refused at once.
   */
  async runPre(initial: ToolCall, factsFor: (call: ToolCall) => CallFacts, mutationClass: string, signal?: AbortSignal): Promise<ChainVerdict & { facts: CallFacts }> {
    let call = initial;
    let facts = factsFor(call);
    const context: string[] = [];
    const asks: ApprovalAsk[] = [];
    let guardsStarted = false;
    const chain = new ChainSignal(signal);
    for (const hook of [...this.pre]) {
      guardsStarted ||= hook.guard === true;
      if (signal?.aborted) return this.cancelled(call, context, hook.name, facts);
      let raw: unknown;
      try {
        const hookContext = { call, facts, get signal() { return chain.signal; } };
        raw = await withTimeout(() => hook.run(hookContext), hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS, chain, signal);
      } catch (error) {
        if (signal?.aborted) return this.cancelled(call, context, hook.name, facts); // it failed because it was told to stop
        this.logger.error(`pre-hook ${hook.name} threw: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        return { decision: 'deny', call, context, error: hookError(hook.name, 'failed'), hook: hook.name, facts };
      }
      if (raw === CANCELLED) return this.cancelled(call, context, hook.name, facts);
      if (raw === TIMED_OUT) {
        this.logger.error(`pre-hook ${hook.name} timed out`);
        return { decision: 'deny', call, context, error: hookError(hook.name, `did not answer within ${hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS} ms`), hook: hook.name, facts };
      }
      const result = checkResult(raw);
      if (typeof result === 'string') {
        this.logger.error(`pre-hook ${hook.name} ${result}`);
        return { decision: 'deny', call, context, error: hookError(hook.name, result), hook: hook.name, facts };
      }
      if (result.context) context.push(result.context);
      const decision = result.decision;
      if (decision.kind === 'deny') return { decision: 'deny', call, context, error: decision.error, hook: hook.name, facts };
      if (decision.kind === 'ask') asks.push(decision.ask);
      if (decision.kind === 'modify') {
        // A guard has already judged the old input; changing it now would slip past that judgement.
        if (guardsStarted) return { decision: 'deny', call, context, error: hookError(hook.name, 'modified the input after the built-in guards ran'), hook: hook.name, facts };
        call = { ...call, input: decision.input };
        facts = factsFor(call);
      }
    }
    if (asks.length) return { decision: 'ask', call, context, request: mergeAsks(call, mutationClass, asks), facts };
    return { decision: 'allow', call, context, facts };
  }

  private cancelled(call: ToolCall, context: string[], hook: string, facts: CallFacts): ChainVerdict & { facts: CallFacts } {
    this.logger.info(`${call.tool} ${call.invocation_id} cancelled during pre-hook ${hook}: the agent stopped waiting`);
    return { decision: 'deny', call, context, error: cancelledCallError(call.tool), hook, facts };
  }

  /**
   * Runs every post-hook; their failures are logged and never reach the agent. Returns the text they add for the
   * model. Every refusal passes here too, so a hook that answers at once (the read ledger, the intent map) costs no
   * timer: only an answer still pending races its time.
   */
  async runPost(context: PostHookContext): Promise<PostChainResult> {
    const added: string[] = [];
    let outputText: string | undefined;
    for (const hook of [...this.post]) {
      try {
        const answer = hook.run(context);
        const result = isPending(answer) ? await within(answer, hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS) : answer;
        if (result === TIMED_OUT) this.logger.error(`post-hook ${hook.name} timed out`);
        else if (typeof result === 'object' && result !== null) {
          if (typeof result.context === 'string' && result.context !== '') added.push(result.context);
          if (typeof result.outputText === 'string') outputText = result.outputText;
        }
      } catch (error) {
        this.logger.error(`post-hook ${hook.name} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      }
    }
    return outputText === undefined ? { context: added } : { context: added, outputText };
  }
}
