import type { Governor } from '../governor';
import type { ToolCallRequest } from '../flow/callRequest';
import { renderIntentContext } from '../intents/intentContext';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { canonicalizePath } from '../paths/canonicalPath';
import { toolError, type ToolError } from '../toolError';
import type { BeforeStash } from './beforeStash';
import { NativeChanges, nativeCallRequest, type PreRead } from './nativeChanges';
import type { PendingNativeFile } from './pendingNativeChanges';
import { confinableShell, planConfinedShell } from './confinedShell';
import { judgeForeignMcpCall } from './foreignMcpCalls';
import { SelfCompletions, type CompletionMoment } from './selfCompletions';
import { AnsweredPres } from './answeredPres';
import { SessionAgents } from './sessionAgents';
import { postHooked } from '../userHooks/declaredHooks';
import type { ReconcileOptions, ReconcileSummary } from './nativeReconciler';
import { matchNames } from '../userHooks/claudeToolNames';
import { RESIDENT_SERVER_NAME } from '../agents/claude/residentHook';
import { DIALECTS } from '../agents/registry';
import type { BridgeAnswer, BridgeRequest, NativeEventFacts } from '../agents/common/nativeCall';
import type { HookEventName } from '../userHooks/hookEvents';
import { NO_VERDICT, type HookVerdict } from '../userHooks/hookVerdict';
import { GOVERNOR_VOICE, type HookFiring } from '../userHooks/userHookRunner';

export interface NativeToolBridgeOptions {
  /** The extension asks its human (modal); headless, `ask` goes back to the agent, whose own UI asks. */
  askHuman: boolean;
  /**
   * This process outlives the calls it judges (the extension, `governor resident`, `governor mcp`): a change it
   * allowed waits for its post event while the process runs, and is reconciled at once by others when it is gone;
   * a change whose post the agent does not send (`unposted`) it completes itself. Default false (a one-shot hook
   * process, gone as soon as it answered).
   */
  resident?: boolean;
  /**
   * A one-shot process (not `resident`), which ends with its answer: where a change whose post the agent will not
   * send goes to be completed once the tool wrote it (a detached worker). Without it such a change waits for a
   * reconciliation.
   */
  handOff?: (post: BridgeRequest) => void;
  /**
   * This bridge answers the local server's hook routes (POST /hook, /agent-hook), which any process holding the
   * endpoint's token can call, so a caller gets no more than the agent door it speaks for: a post is recorded only as
   * the post of a pre this bridge answered (answeredPres.ts), and `requestIntents` says whether a request's intent_id
   * binds its session (the headless resident: the agent's --intent or INTENT_GOVERNOR_INTENT, as the Node hook binds
   * it) or is ignored (the extension, where the human picks: no agent door sends one there).
   */
  routes?: { requestIntents: boolean };
}

/** What a pre kept for its post: the pending entry it left, under which key, with the files it saw. */
interface PreKept {
  pendingKey?: string;
  files?: PendingNativeFile[];
}

/**
 * Governs an agent's native tool through the one pipeline: `pre` runs `Governor.run` in `authorize` mode (chain
 * and approval, no execution) for each governed call the native tool amounts to, and keeps what the call's facts
 * read of its target; `post` runs it in `record` mode, which reads what the tool left behind, with the
 * before-content the pre phase kept. A tool the dialect cannot map and a user hook's block are refusals the door
 * brings to the same `authorize`, so the post-chain records them like any other.
 *
 * How an agent's call is judged (its target canonicalised and read once, the basis: what the agent read where the
 * session's reads reach this governor, else the file as it is at PreToolUse time) is in pipeline/agentCall.ts; what
 * an allowed change leaves to be recorded between its pre and post events, in nativeChanges.ts.
 */
export class NativeToolBridge {
  private readonly changes: NativeChanges;
  /** A resident's own completions of the changes whose post the agent does not send. */
  private readonly completions: SelfCompletions | undefined;
  /** Routes only: the pres answered here whose post may still come. */
  private readonly answered: AnsweredPres | undefined;
  /** Posts whose pre was taken already, for an answer given before they are recorded (claimPost). */
  private readonly claimed = new WeakSet<BridgeRequest>();
  /** A long-lived bridge only: the agent processes behind its hook sessions, to end those whose agent is gone. */
  private readonly agents: SessionAgents | undefined;
  private sweeping = false;

  constructor(
    private readonly governor: Governor,
    stash: BeforeStash,
    private readonly options: NativeToolBridgeOptions,
  ) {
    this.changes = new NativeChanges(governor, stash, { resident: options.resident === true });
    this.completions = options.resident ? new SelfCompletions(governor.services.logger) : undefined;
    this.answered = options.routes ? new AnsweredPres(governor.services.workspace.root) : undefined;
    this.agents = options.resident ? new SessionAgents() : undefined;
  }

  private get root(): string {
    return this.governor.services.workspace.root;
  }

  /**
   * `signal` aborts when the hook stops waiting: a pending approval is then dropped and the call refused. In a
   * resident, the session's changes whose post will not come are completed first where the call may depend on them.
   */
  async handle(original: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    // First, while the caller still waits: the agent above it is found by walking up from the caller.
    const ended = this.agents?.begin(original);
    try {
      return await this.handleCall(original, signal);
    } finally {
      ended?.();
    }
  }

  /**
   * Ends, as its SessionEnd would, each hook session whose agent process is gone (killed, or quit without SessionEnd):
   * its state freed, its standing approvals revoked, its open changes completed. Sessions whose agent cannot be found
   * are left to the idle sweep.
   */
  async endSessionsOfGoneAgents(): Promise<void> {
    if (!this.agents || this.sweeping) return;
    this.sweeping = true;
    try {
      for (const end of this.agents.takeGone()) {
        this.governor.services.logger.info(`session ${end.session_id} ended: its agent process is gone (it sent no SessionEnd)`);
        await this.handle(end, new AbortController().signal).catch((error: unknown) => this.governor.services.logger.warn(`ending session ${end.session_id} failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    } finally {
      this.sweeping = false;
    }
  }

  /** Looks for sessions whose agent is gone every `intervalMs` (30 s: gone within a minute). */
  watchAgents(intervalMs = 30_000): { dispose(): void } {
    const timer = setInterval(() => void this.endSessionsOfGoneAgents(), Math.max(50, intervalMs));
    timer.unref();
    return { dispose: () => clearInterval(timer) };
  }

  private async handleCall(original: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    const request = this.options.routes?.requestIntents === false && original.intent_id !== undefined ? { ...original, intent_id: undefined } : original;
    // Before anything else: a post that is refused moves no completion on and binds nothing.
    const refused = request.phase === 'post' && !this.claimed.has(original) ? this.refusedPost(request) : undefined;
    if (refused) return this.refusePost(request, refused, signal);
    const completions = this.completions;
    if (completions) await completions.before(completionMoment(request), request.phase === 'pre' ? () => request.calls : undefined);
    const kept: PreKept = {};
    const answer = await this.answer(request, signal, kept);
    const slot = request.phase === 'pre' && answer.decision !== 'deny' ? this.noteAnswered(request, kept) : undefined;
    if (request.phase === 'pre' && request.unposted && answer.decision !== 'deny' && answer.stop === undefined) {
      const post = this.unpostedPost(request, answer);
      // Completed here, the call's post is spent: one the agent sends after all is a second post.
      if (post && completions)
        completions.track(request.key, request.session_id, post.calls, () => {
          this.answered?.spend(slot);
          return this.complete(post);
        });
      else if (post) this.options.handOff?.(post);
    }
    return answer;
  }

  /**
   * For a post answered before it is recorded (earlyPosts.ts): takes its pre now, so the answer can be an allow, and
   * false when the post would be refused (it is then judged as usual, and refused with its reason).
   */
  claimPost(request: BridgeRequest): boolean {
    if (!this.answered || request.phase !== 'post') return true;
    if (this.refusedPost(request)) return false;
    this.claimed.add(request);
    return true;
  }

  /** Routes only: why a post is not the post of a pre answered here (taking that pre when it is). */
  private refusedPost(request: BridgeRequest): ToolError | undefined {
    const answered = this.answered;
    if (!answered) return undefined;
    const intent = this.options.routes?.requestIntents && request.intent_id !== undefined ? request.intent_id : this.governor.services.sessions.boundIntentId(request.session_id);
    return answered.admit({ request, intent_id: intent }, (key) => this.changes.pendingState(key, request.session_id));
  }

  /** A refused post: recorded where refusals are (the governance log), nothing traced, and the caller told why. */
  private async refusePost(request: BridgeRequest, error: ToolError, signal?: AbortSignal): Promise<BridgeAnswer> {
    const tool = request.native?.tool_name ?? request.calls[0]?.tool ?? 'unknown';
    // `#post`: never the invocation id of the change it claims to be the post of, which its own record carries.
    const refused: ToolCallRequest = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#post`, tool, input: {} };
    await this.governor.run(refused, { mode: 'authorize', askHuman: false, signal, refusal: error });
    return { decision: 'deny', reason: explain(error) };
  }

  /** Routes only: notes an answered pre, so its post (and only its post, once) is recorded; its slot. */
  private noteAnswered(request: BridgeRequest, kept: PreKept): object | undefined {
    const answered = this.answered;
    if (!answered) return undefined;
    const keys = kept.pendingKey !== undefined && kept.pendingKey !== request.key ? [request.key, kept.pendingKey] : [request.key];
    answered.note(keys, {
      session_id: request.session_id,
      agent: request.agent.name,
      intent_id: this.governor.services.sessions.boundIntentId(request.session_id),
      ...(kept.pendingKey !== undefined ? { pendingKey: kept.pendingKey } : {}),
      files: kept.files ?? [],
    });
    return answered.slotOf(request.key);
  }

  /** Records a change whose post did not come, as that post would have (a resident's own completion, or a worker's). */
  async complete(post: BridgeRequest): Promise<void> {
    await this.answer(post, new AbortController().signal);
  }

  /** Completes every change still waiting for the tool (the governor is closing): nothing it allowed goes unrecorded. */
  async close(): Promise<void> {
    await this.completions?.close();
  }

  /** The post a call allowed (or handed to the agent's person) would have had: for the input the agent runs, a hook's rewrite too. */
  private unpostedPost(request: BridgeRequest, answer: BridgeAnswer): BridgeRequest | undefined {
    const rewritten = answer.updatedInput ? this.remap(request, answer.updatedInput) : undefined;
    if (rewritten && !rewritten.ok) return undefined;
    const { unposted: _, ...pre } = rewritten?.request ?? request;
    if (!pre.calls.some((call) => call.tool === 'write_file' || call.tool === 'edit_file')) return undefined;
    return { ...pre, phase: 'post', ...(pre.native ? { native: { ...pre.native, event: 'PostToolUse' } } : {}) };
  }

  private async answer(request: BridgeRequest, signal?: AbortSignal, kept: PreKept = {}): Promise<BridgeAnswer> {
    // Every hook call looks for changes whose post never came (one directory listing when there are none).
    // The journal names a session (and the keys holding it) as the trace would: redacted when it is a token (known
    // here once this process wrote an entry of the session; otherwise its entries wait out their grace period).
    const journal = this.changes.sessions;
    await this.changes.reconcileQuietly(request.phase === 'end' ? { session: journal.journalForm(request.session_id) } : request.phase === 'post' ? { except: journal.inJournal(request.key, request.session_id) } : {});
    if (request.phase === 'end') {
      const verdict = request.native ? await this.fireNative(request, 'SessionEnd', signal) : undefined;
      this.governor.services.sessions.end(request.session_id);
      this.governor.services.standingApprovals.revoke(request.session_id); // "for this Session" ends with it
      this.governor.userHooks.endSession(request.session_id);
      return { decision: 'allow', ...(verdict?.systemMessage ? { systemMessage: verdict.systemMessage } : {}) };
    }
    if (request.intent_id !== undefined) this.governor.services.sessions.bindIntent(request.session_id, request.intent_id);
    if (request.phase === 'context') return this.lifecycle(request, signal);
    if (request.phase === 'post') return this.post(request, signal);
    return this.pre(request, signal, kept);
  }

  /**
   * An event that is not a tool call (SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact, Notification,
   * the agent's own PermissionRequest…): the user hooks run; SessionStart and UserPromptSubmit also get the intent
   * handshake. Without native facts (an older hook process) only the handshake is given.
   */
  private async lifecycle(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    const event = request.native?.event;
    // The agent's session is live from its start, before its first tool call (the Agent Sessions view).
    if (event === 'SessionStart') this.governor.services.sessions.activity.opened(request.session_id, request.agent.name);
    const handshake = event === undefined || event === 'SessionStart' || event === 'UserPromptSubmit' ? await this.handshake(request.session_id) : undefined;
    const verdict = request.native ? await this.fireNative(request, event as HookEventName, signal) : undefined;
    const context = [handshake, verdict?.context].filter((c): c is string => typeof c === 'string' && c !== '').join('\n\n') || undefined;
    if (event === 'PermissionRequest') {
      // The agent is about to ask its person: only a hook's explicit answer decides for them.
      const decision = verdict?.decision === 'allow' || verdict?.decision === 'deny' ? verdict.decision : 'ask';
      return answerOf(verdict, { decision, reason: verdict?.reason, context });
    }
    if (verdict && (verdict.decision === 'deny' || verdict.stop !== undefined)) return answerOf(verdict, { decision: 'deny', reason: verdict.reason ?? verdict.stop, context });
    return answerOf(verdict, { decision: 'allow', context });
  }

  /** Fires the agent's event at the user hooks, under the agent's own tool name (and the governed ones) for tool events. */
  private async fireNative(request: BridgeRequest, event: HookEventName, signal?: AbortSignal, extra: Partial<HookFiring> = {}): Promise<HookVerdict> {
    // Nobody hooks this event: no canonical path, no firing (the usual case, on every call).
    if (this.governor.userHooks.idle(request.agent.name, event, request.session_id)) return NO_VERDICT;
    const native = request.native as NativeEventFacts;
    const governed = request.calls.map((c) => c.tool);
    const toolNames = native.tool_name !== undefined ? matchNames(native.tool_name, governed) : undefined;
    const first = request.calls[0];
    const path = first && first.tool !== 'run_command' ? await this.canonical(first.input.path) : undefined;
    const subject =
      toolNames === undefined
        ? undefined
        : first?.tool === 'run_command'
          ? { toolNames, command: first.input.command, kind: 'command' as const }
          : { toolNames, ...(path ? { path: path.rel } : {}), kind: first === undefined ? ('other' as const) : first.tool === 'read_file' ? ('read' as const) : ('write' as const) };
    const toolFields = native.tool_name !== undefined ? { tool_name: native.tool_name, tool_input: native.tool_input ?? {} } : {};
    return this.governor.userHooks.fire({
      event,
      sessionKey: request.session_id,
      sessionId: native.session_id,
      agent: request.agent,
      cwd: native.cwd,
      fields: { ...native.fields, ...toolFields },
      ...(first ? { governedTool: first.tool } : {}),
      invocationId: request.key || undefined,
      ...(path ? { filePath: path.rel } : {}),
      toolNames,
      matchValue: matchValueOf(event, native.fields),
      subject,
      signal,
      ...extra,
    });
  }

  /** The intent handshake for a session that starts or gets a prompt: the plan it works under, or how to get one. */
  async handshake(sessionId: string): Promise<string> {
    const intentId = this.governor.services.sessions.boundIntentId(sessionId);
    const intent = resolveIntentForWrites(await this.governor.services.intents.load(), intentId);
    if (intent.ok) return `${renderIntentContext(intent.value)}\n\nYour file and terminal tools are governed by Intent Governor under this intent. ${SWITCH_HINT}`;
    return `Intent Governor: ${intent.error.message}\n${NO_INTENT_HINT}`;
  }

  private async pre(original: BridgeRequest, signal: AbortSignal | undefined, kept: PreKept): Promise<BridgeAnswer> {
    let request = original;
    const stale = this.staleUnposted(request);
    if (stale !== undefined) return { decision: 'deny', reason: stale };
    let hooks: HookVerdict | undefined;
    // The user's hooks see every call they could narrow: an allowed foreign MCP tool too.
    if (request.native && (!request.unmapped || request.unmapped.foreign)) {
      hooks = await this.fireNative(request, 'PreToolUse', signal);
      if (hooks.decision === 'deny' || hooks.stop !== undefined) {
        const error = toolError(hooks.failures.some((f) => f.hook === hooks?.decidedBy) ? 'HOOK_ERROR' : 'HOOK_BLOCKED', `Blocked by the hook '${hooks.decidedBy ?? 'a hook'}': ${hooks.reason ?? hooks.stop ?? '(no reason given)'}`, { hook: hooks.decidedBy });
        await this.governor.run(this.nativeRequest(request), { mode: 'authorize', askHuman: this.options.askHuman, signal, refusal: error });
        return answerOf(hooks, { decision: 'deny', reason: explain(error) });
      }
      if (hooks.updatedInput) {
        // The agent will run the rewritten input: map it again and let the guards judge that, never the original.
        const remapped = this.remap(request, hooks.updatedInput);
        if (!remapped.ok) return answerOf(hooks, { decision: 'deny', reason: remapped.reason });
        request = remapped.request;
      }
      if (request.native?.passthrough && request.calls.length === 0) {
        if (hooks.decision === 'ask') return answerOf(hooks, { decision: 'ask', reason: askReason(hooks) });
        return answerOf(hooks, { decision: 'allow', context: hooks.context });
      }
    }
    const answer = await this.judge(request, signal, kept);
    if (!hooks) return answer;
    const context = [hooks.context, answer.context].filter((c): c is string => typeof c === 'string' && c !== '').join('\n\n') || undefined;
    if (answer.decision === 'deny') return answerOf(hooks, { ...answer, context, updatedInput: undefined });
    const ask = hooks.decision === 'ask' ? askReason(hooks) : undefined;
    const decision = answer.decision === 'ask' || ask ? 'ask' : 'allow';
    // A confined shell's rewrite wraps the input the hooks rewrote (it was judged and confined as such).
    return answerOf(hooks, { decision, reason: answer.decision === 'ask' ? answer.reason : ask, context, updatedInput: answer.updatedInput ?? hooks.updatedInput });
  }

  /**
   * Why a call whose post the install left out is refused: a hook of the user's added since would run on that post,
   * which the agent does not send (the install routes it when such a hook is declared). Undefined when none would.
   */
  private staleUnposted(request: BridgeRequest): string | undefined {
    const native = request.native;
    if (!request.unposted || native?.tool_name === undefined) return undefined;
    if (!postHooked(this.governor.userHooks.load(request.agent.name).hooks, native.tool_name, request.calls.map((call) => call.tool))) return undefined;
    return `Intent Governor: a PostToolUse hook of yours matches ${native.tool_name}, and the hooks \`governor hooks install --agent ${native.dialect}\` wrote for this agent do not send that tool's post event, so your hook would not run there. Run \`governor hooks install --agent ${native.dialect} --workspace ${this.root}\` again (or Install Agent Hooks… in VS Code); until then ${native.tool_name} is refused (fail closed).`;
  }

  /** The request with the governed calls a rewritten native input amounts to, mapped by the agent's own dialect. */
  private remap(request: BridgeRequest, input: Record<string, unknown>): { ok: true; request: BridgeRequest } | { ok: false; reason: string } {
    const native = request.native as NativeEventFacts;
    const dialect = DIALECTS[native.dialect];
    if (!dialect || native.tool_name === undefined) return { ok: false, reason: 'A hook rewrote this call, and Intent Governor cannot map the rewritten input for this agent, so the call is refused (fail closed).' };
    const mapping = dialect.mapTool(native.tool_name, input, { cwd: native.cwd, workspace: this.root });
    if (mapping.kind === 'refused') return { ok: false, reason: `A hook rewrote this call into one Intent Governor refuses: ${mapping.reason}` };
    return { ok: true, request: { ...request, calls: mapping.kind === 'governed' ? mapping.calls : [], native: { ...native, tool_input: input } } };
  }

  /** The native call as a whole, for a refusal the door brings before it is mapped (a user hook's block). */
  private nativeRequest(request: BridgeRequest): ToolCallRequest {
    const native = request.native;
    return { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#0`, tool: native?.tool_name ?? request.calls[0]?.tool ?? 'unknown', input: native?.tool_input ?? {} };
  }

  private async judge(request: BridgeRequest, signal: AbortSignal | undefined, kept: PreKept): Promise<BridgeAnswer> {
    if (request.unmapped?.foreign) return judgeForeignMcpCall(this.governor, request, { askHuman: this.options.askHuman, signal });
    if (request.unmapped) {
      // Refused (fail closed) and recorded like any refusal, under the agent's own tool name.
      const refusal = toolError('INVALID_INPUT', request.unmapped.reason, { field: 'tool', tool: request.unmapped.tool });
      const refused = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#0`, tool: request.unmapped.tool, input: {} };
      await this.governor.run(refused, { mode: 'authorize', askHuman: this.options.askHuman, signal, refusal });
      return { decision: 'deny', reason: explain(refusal) };
    }
    // A pre phase with nothing to judge is a malformed request (or a newer hook's field this build does not know).
    if (request.calls.length === 0) return { decision: 'deny', reason: 'Intent Governor received nothing it can check for this call, so it is refused (fail closed).' };
    const read: PreRead = { before: {}, files: [], kept: {} };
    const asks: string[] = [];
    const context: string[] = [];
    // The agent's shell command runs in the sandbox where its hooks can rewrite it: judged as run_command's own.
    const dialect = request.native ? DIALECTS[request.native.dialect] : undefined;
    const sandbox = await confinableShell(this.governor.services, request, dialect);
    for (const [index, call] of request.calls.entries()) {
      const input = call.tool === 'edit_file' ? { ...call.input, edits: call.edits } : call.input;
      const verdict = await this.governor.run(nativeCallRequest(request, index, call.tool, input, sandbox !== undefined), { mode: 'authorize', askHuman: this.options.askHuman, signal });
      context.push(...verdict.context);
      if (verdict.decision === 'deny') return { decision: 'deny', reason: verdict.unjudged ? verdict.error.message : explain(verdict.error) };
      if (verdict.decision === 'ask') asks.push(verdict.request.reasons.join('; '));
      if (verdict.decision === 'allow' && verdict.approval) read.approval = verdict.approval;
      // What the call's facts read of its target: the post phase (or a reconciliation) traces the change against it.
      const target = verdict.target;
      if (target === undefined) continue;
      read.before[target.abs] = target.before ?? null;
      if (call.tool === 'write_file' || call.tool === 'edit_file') {
        read.files.push({ index, tool: call.tool, path: target.rel, before_hash: target.before_hash, ...(target.before_stat ? { before_stat: target.before_stat } : {}) });
        if (target.before !== undefined) read.kept[target.rel] = target.before;
      }
    }
    if (sandbox && dialect) {
      // An ask carries the rewrite too: the agent's own prompt approves the confined command (its dialect renders both).
      const planned = await planConfinedShell(this.governor.services, request, dialect, sandbox, read.approval).catch((error: unknown) => ({ ok: false as const, reason: error instanceof Error ? error.message : String(error) }));
      if (!planned.ok) return { decision: 'deny', reason: `Intent Governor allowed this command to run confined by ${sandbox.kind} and cannot confine it (${planned.reason}), so it is refused (fail closed).` };
      const failed = await this.changes.keepConfined(planned.plan);
      if (failed) return { decision: 'deny', reason: failed };
      kept.pendingKey = planned.plan.entry.key;
      kept.files = [];
      const confined = { context: [...context, planned.plan.context].join('\n\n'), updatedInput: planned.plan.updatedInput };
      return asks.length ? { decision: 'ask', reason: `Intent Governor asks a human: ${asks.join('; ')}`, ...confined } : { decision: 'allow', ...confined };
    }
    const failed = await this.changes.keep(request, read);
    if (failed) return { decision: 'deny', reason: failed };
    if (read.files.length) {
      kept.pendingKey = request.key;
      kept.files = read.files;
    }
    if (asks.length) return { decision: 'ask', reason: `Intent Governor asks a human: ${asks.join('; ')}` };
    return { decision: 'allow', context: context.length ? context.join('\n\n') : undefined };
  }

  /**
   * Records the changes of allowed native calls whose post event never came (see nativeReconciler.ts): on every
   * hook call (at most once a second unless a session ended), on a resident governor's timer, and in `governor check`.
   */
  reconcilePending(options: ReconcileOptions = {}): Promise<ReconcileSummary> {
    return this.changes.reconcilePending(options);
  }

  /** A resident governor's pass every `intervalMs`, for agents that went quiet; dispose stops it. */
  startReconciling(intervalMs = 30_000): { dispose(): void } {
    return this.changes.startReconciling(intervalMs);
  }

  /** Where the canonicaliser puts the path a user hook's matcher sees; undefined when it refuses it. */
  private async canonical(path: string): Promise<{ abs: string; rel: string } | undefined> {
    const result = await canonicalizePath(this.root, path, 'read', { caseInsensitive: this.governor.services.caseInsensitive });
    return result.ok ? result.value : undefined;
  }

  private async post(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    await this.changes.recordPost(request);
    if (!request.native) return { decision: 'allow' };
    // After the trace: a PostToolUse hook sees a change that is already on record, with the tool's real response.
    const event = request.native.event === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse';
    const verdict = await this.fireNative(request, event, signal);
    const context = [verdict.context, verdict.decision === 'deny' ? verdict.reason : undefined].filter((c): c is string => typeof c === 'string' && c !== '').join('\n') || undefined;
    return answerOf(verdict, { decision: verdict.decision === 'deny' ? 'deny' : 'allow', reason: verdict.reason, context });
  }


}

const RESIDENT_SERVER_TOOL_PREFIX = `mcp__${RESIDENT_SERVER_NAME}__`;

/**
 * A request as a moment for the session's own completions: a tool call or its post, a new prompt or a compaction
 * moves the session on; its end or its turn's end (Stop) completes whatever it left open.
 */
function completionMoment(request: BridgeRequest): CompletionMoment {
  const owner = request.session_id;
  if (request.phase === 'pre') return { owner, id: request.key, kind: 'next' };
  if (request.phase === 'post') return { owner, id: request.key, kind: 'post' };
  const event = request.native?.event;
  if (request.phase === 'end' || event === 'Stop') return { owner, kind: 'end' };
  return { owner, kind: event === 'UserPromptSubmit' || event === 'PreCompact' ? 'next' : 'other' };
}

function askReason(verdict: HookVerdict): string {
  const who = verdict.decidedBy === GOVERNOR_VOICE ? '' : `the hook '${verdict.decidedBy ?? 'a hook'}' asks: `;
  return `Intent Governor asks a human: ${who}${verdict.reason ?? '(no reason given)'}`;
}

/** A bridge answer with what the hooks said for the user and whether they stopped the agent. */
function answerOf(verdict: HookVerdict | undefined, answer: BridgeAnswer): BridgeAnswer {
  const out: BridgeAnswer = Object.fromEntries(Object.entries(answer).filter(([, v]) => v !== undefined)) as unknown as BridgeAnswer;
  if (verdict?.systemMessage) out.systemMessage = verdict.systemMessage;
  if (verdict?.stop !== undefined) out.stop = verdict.stop;
  if (verdict?.updatedToolOutput !== undefined) out.updatedToolOutput = verdict.updatedToolOutput;
  if (verdict?.passThrough) out.passThrough = { ...verdict.passThrough };
  return out;
}

/** What a non-tool event's matcher is compared with, as in Claude Code (SessionStart's source, PreCompact's trigger, …). */
function matchValueOf(event: HookEventName, fields: Record<string, unknown>): string | undefined {
  const key = ({ SessionStart: 'source', SessionEnd: 'reason', PreCompact: 'trigger', Notification: 'notification_type', SubagentStart: 'agent_type', SubagentStop: 'agent_type' } as Record<string, string>)[event];
  const value = key === undefined ? undefined : fields[key];
  return typeof value === 'string' ? value : undefined;
}

const SWITCH_HINT = `To work under another intent, call select_active_intent of the intent-governor MCP server (in Claude Code: mcp__${RESIDENT_SERVER_NAME}__select_active_intent) where it is connected: an intent you select wins over --intent and over the human's pick in VS Code.`;

const NO_INTENT_HINT =
  `Select one: call select_active_intent of the intent-governor MCP server (in Claude Code: ${RESIDENT_SERVER_TOOL_PREFIX}select_active_intent) where it is connected; otherwise the human picks one in VS Code (the Intent Governor status bar item), or the hook runs headless with --intent ID. An intent the agent selects itself wins over --intent and over the human's pick.`;

/** The reason the model sees: the code, what happened and what to do next. */
function explain(error: ToolError): string {
  const hint = error.code === 'NO_ACTIVE_INTENT' ? ` ${NO_INTENT_HINT}` : '';
  return `[${error.code}] ${error.message}${hint}`;
}
