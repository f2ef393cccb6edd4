import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { decodeText } from '../pipeline/callFacts';
import type { Governor, ToolCallRequest } from '../governor';
import type { ApprovalDecision } from '../approval/approver';
import type { AppliedChange } from '../pipeline/hookTypes';
import { renderIntentContext } from '../intents/intentContext';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { canonicalizePath, type PathPurpose } from '../paths/canonicalPath';
import { protectedPatternFor } from '../paths/protectedPaths';
import { contentHash } from '../contentHash';
import { toolError, type ToolError } from '../toolError';
import type { BeforeStash, StashedInvocation } from './beforeStash';
import { reconcileNativeChanges, type ChangedFile, type ReconcileOptions, type ReconcileSummary } from './nativeReconciler';
import { PendingNativeChanges, type Completion, type HeldEntry, type PendingNativeFile } from './pendingNativeChanges';
import { matchNames } from '../userHooks/claudeToolNames';
import { RESIDENT_SERVER_NAME } from '../agents/claude/residentHook';
import { DIALECTS } from '../agents/registry';
import type { BridgeAnswer, BridgeRequest, NativeCall, NativeEdit, NativeEventFacts } from '../agents/common/nativeCall';
import type { HookEventName } from '../userHooks/hookEvents';
import type { HookVerdict } from '../userHooks/hookVerdict';
import { GOVERNOR_VOICE, type HookFiring } from '../userHooks/userHookRunner';

/** Larger files are governed, but their before-content is not kept for the trace (ranges then cover the whole file). */
const MAX_STASHED_BYTES = 2 * 1024 * 1024;

export interface NativeToolBridgeOptions {
  /** The extension asks its human (modal); headless, `ask` goes back to the agent, whose own UI asks. */
  askHuman: boolean;
  /**
   * This process outlives the calls it judges (the extension, `governor mcp`): a change it allowed waits for its
   * post event while the process runs, and is reconciled at once by others when it is gone. Default false (a
   * one-shot hook process, gone as soon as it answered).
   */
  resident?: boolean;
}

/** A file last modified longer ago than this is recognised as unchanged by its stat alone. */
const STAT_TRUSTED_AFTER_MS = 2_000;

/** An unforced reconciliation pass runs at most this often in one process, */
const RECONCILE_INTERVAL_MS = 1_000;
/** and looks at entries for at most this long (the hook call waits for it); the rest get their turn later. */
const PASS_BUDGET_MS = 3;

type Prepared =
  | { ok: true; request: ToolCallRequest; abs?: string; rel?: string; before?: string; beforeHash?: string | null; beforeStat?: PendingNativeFile['before_stat'] }
  | { ok: false; reason: string };

type FileCall = Exclude<NativeCall, { tool: 'run_command' }>;

/**
 * Governs an agent's native tool through the one pipeline: `pre` runs `Governor.authorize` (chain + approval,
 * no execution) for each governed call the native tool amounts to; `post` reads what the tool left behind and
 * records it through `Governor.recordNative`, with the before-content the pre phase kept.
 *
 * Nothing is read before the canonicaliser has placed the target inside the workspace and outside the protected
 * paths: a refused target goes to the guards unread (they refuse it and log it), and an accepted one is read
 * through the workspace's regular-file reader, so a FIFO, a device or a huge file is refused, never waited on.
 *
 * Stale basis: where the session's reads reach the governor (PostToolUse of Read in a resident governor or the
 * extension), the basis of a later change is what the agent read, so a change made in between is a STALE_FILE.
 * Otherwise (a one-shot hook process remembers nothing) it is the file as it is at PreToolUse time. The stale
 * guard also refuses a change over unsaved editor edits and an edit whose search text does not apply, and scope,
 * protected paths and intents are checked exactly as for our own tools.
 */
export class NativeToolBridge {
  /** Allowed native changes between their pre and post events, on disk: the post completes them, or a reconciliation does. */
  private readonly pending: PendingNativeChanges;
  private lastReconciled = 0;

  constructor(
    private readonly governor: Governor,
    private readonly stash: BeforeStash,
    private readonly options: NativeToolBridgeOptions,
  ) {
    this.pending = new PendingNativeChanges(this.root, { resident: options.resident === true });
  }

  private get root(): string {
    return this.governor.services.workspace.root;
  }

  /** `signal` aborts when the hook stops waiting: a pending approval is then dropped and the call refused. */
  async handle(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    // Every hook call looks for changes whose post never came (one directory listing when there are none).
    await this.reconcileQuietly(request.phase === 'end' ? { session: request.session_id } : request.phase === 'post' ? { except: request.key } : {});
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
    return this.pre(request, signal);
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
    const native = request.native as NativeEventFacts;
    const governed = request.calls.map((c) => c.tool);
    const toolNames = native.tool_name !== undefined ? matchNames(native.tool_name, governed) : undefined;
    const first = request.calls[0];
    const path = first && first.tool !== 'run_command' ? await this.canonical(first.input.path, 'read') : undefined;
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

  private async pre(original: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    let request = original;
    let hooks: HookVerdict | undefined;
    if (request.native && !request.unmapped) {
      hooks = await this.fireNative(request, 'PreToolUse', signal);
      if (hooks.decision === 'deny' || hooks.stop !== undefined) {
        const error = toolError(hooks.failures.some((f) => f.hook === hooks?.decidedBy) ? 'HOOK_ERROR' : 'HOOK_BLOCKED', `Blocked by the hook '${hooks.decidedBy ?? 'a hook'}': ${hooks.reason ?? hooks.stop ?? '(no reason given)'}`, { hook: hooks.decidedBy });
        await this.governor.auditRefusal(this.nativeRequest(request), error);
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
    const answer = await this.judge(request, signal);
    if (!hooks) return answer;
    const context = [hooks.context, answer.context].filter((c): c is string => typeof c === 'string' && c !== '').join('\n\n') || undefined;
    if (answer.decision === 'deny') return answerOf(hooks, { ...answer, context, updatedInput: undefined });
    const ask = hooks.decision === 'ask' ? askReason(hooks) : undefined;
    const decision = answer.decision === 'ask' || ask ? 'ask' : 'allow';
    return answerOf(hooks, { decision, reason: answer.decision === 'ask' ? answer.reason : ask, context, updatedInput: hooks.updatedInput });
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

  /** The governed request a native call stands for, for the governance log. */
  private nativeRequest(request: BridgeRequest): ToolCallRequest {
    const native = request.native;
    return { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#0`, tool: native?.tool_name ?? request.calls[0]?.tool ?? 'unknown', input: native?.tool_input ?? {} };
  }

  private async judge(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    if (request.unmapped) {
      const refused = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#0`, tool: request.unmapped.tool, input: {} };
      return { decision: 'deny', reason: explain(await this.governor.refuseUnmapped(refused, request.unmapped.reason)) };
    }
    // A pre phase with nothing to judge is a malformed request (or a newer hook's field this build does not know).
    if (request.calls.length === 0) return { decision: 'deny', reason: 'Intent Governor received nothing it can check for this call, so it is refused (fail closed).' };
    const before: Record<string, string | null> = {};
    const files: PendingNativeFile[] = [];
    const kept: Record<string, string> = {};
    const asks: string[] = [];
    let approval;
    const context: string[] = [];
    for (const [index, call] of request.calls.entries()) {
      const prepared = await this.prepare(request, call, index);
      if (!prepared.ok) return { decision: 'deny', reason: prepared.reason };
      const verdict = await this.governor.authorize(prepared.request, { askHuman: this.options.askHuman, signal });
      context.push(...verdict.context);
      if (verdict.decision === 'deny') return { decision: 'deny', reason: explain(verdict.error) };
      if (verdict.decision === 'ask') asks.push(verdict.request.reasons.join('; '));
      if (verdict.decision === 'allow' && verdict.approval) approval = verdict.approval;
      if (prepared.abs !== undefined) before[prepared.abs] = prepared.before ?? null;
      if (prepared.rel !== undefined && prepared.beforeHash !== undefined && (call.tool === 'write_file' || call.tool === 'edit_file')) {
        files.push({ index, tool: call.tool, path: prepared.rel, before_hash: prepared.beforeHash, ...(prepared.beforeStat ? { before_stat: prepared.beforeStat } : {}) });
        if (prepared.before !== undefined) kept[prepared.rel] = prepared.before;
      }
    }
    if (Object.keys(before).length) await this.stash.put(request.key, { before, approval, invocationId: request.key });
    if (files.length) {
      // On disk before the agent hears "allow": if its post never comes, the change is still recorded.
      const failed = await this.beginPending(request, files, kept, approval);
      if (failed) return { decision: 'deny', reason: failed };
    }
    if (asks.length) return { decision: 'ask', reason: `Intent Governor asks a human: ${asks.join('; ')}` };
    return { decision: 'allow', context: context.length ? context.join('\n\n') : undefined };
  }

  /** The governed call a native call amounts to, with the file's current content as its basis. */
  private async prepare(request: BridgeRequest, call: NativeCall, index: number): Promise<Prepared> {
    const native = request.native?.tool_name !== undefined ? { native: { tool: request.native.tool_name, input: request.native.tool_input ?? {} } } : {};
    const base = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#${index}`, ...native };
    if (call.tool === 'run_command') return { ok: true, request: { ...base, tool: 'run_command', input: { command: call.input.command, ...this.commandCwd(call.input.cwd) } } };
    if (call.tool === 'read_file') return { ok: true, request: { ...base, tool: 'read_file', input: call.input } };
    const target = await this.canonical(call.input.path, 'write');
    // Outside the workspace, protected, or not a regular file: the guards refuse it (and log it) without a read.
    if (!target || protectedPatternFor(target.rel)) return { ok: true, request: { ...base, ...unread(call) } };
    const { abs, rel } = target;
    // Before the read: a change made between the two shows as a different stat later, never as "unchanged".
    const stat = lstatSync(abs, { throwIfNoEntry: false });
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.governor.services.workspace.readFile(abs);
    } catch (error) {
      return { ok: false, reason: `Intent Governor could not read ${rel} as the basis of the change (${error instanceof Error ? error.message : String(error)}), so the change is refused.` };
    }
    const current = decodeText(bytes);
    // What the agent read is the basis when the governor saw the read (a resident or extension session's ledger):
    // a change made since (a person's save, another agent) is then a STALE_FILE. Otherwise, the file as it is now.
    const readByAgent = this.governor.services.sessions.lastRead(request.session_id, rel) !== undefined;
    const beforeHash = bytes === undefined ? null : contentHash(bytes);
    const basis = beforeHash === null || readByAgent ? {} : { expected_content_hash: beforeHash };
    const keep = bytes !== undefined && bytes.byteLength <= MAX_STASHED_BYTES ? current : undefined;
    // The stat lets a later reconciliation skip hashing an untouched file; only a file older than the filesystem's
    // clock tick can be told apart that way from a write of the same size right after this.
    const settled = stat?.isFile() && Date.now() - stat.mtimeMs > STAT_TRUSTED_AFTER_MS ? stat : undefined;
    const kept = { abs, rel, before: keep, beforeHash, ...(settled ? { beforeStat: { size: settled.size, mtime_ms: settled.mtimeMs, ino: settled.ino } } : {}) };
    if (call.tool === 'write_file') return { ok: true, ...kept, request: { ...base, tool: 'write_file', input: { path: rel, content: call.input.content, ...basis } } };
    // New text unknown until the tool runs: judged as a write of the file as it stands; post traces what it wrote.
    if (call.edits.length === 0) return { ok: true, ...kept, request: { ...base, tool: 'write_file', input: { path: rel, content: current ?? '', ...basis } } };
    if (!call.edits.some((e) => e.all)) {
      const edits = call.edits.map((e) => ({ search: e.search, replace: e.replace }));
      return { ok: true, ...kept, request: { ...base, tool: 'edit_file', input: { path: rel, edits, ...basis } } };
    }
    // replace_all has no edit_file equivalent: judge the content it would leave as a write based on the same basis.
    const next = current === undefined ? undefined : applyEdits(current, call.edits);
    if (next === undefined) return { ok: false, reason: `The edit of ${rel} does not apply to its current content (a search text is missing); read the file again.` };
    return { ok: true, ...kept, request: { ...base, tool: 'write_file', input: { path: rel, content: next, ...basis } } };
  }

  /** Where the canonicaliser puts an agent's path (absolute, as the dialect resolved it); undefined when it refuses. */
  private async canonical(path: string, purpose: PathPurpose): Promise<{ abs: string; rel: string } | undefined> {
    const result = await canonicalizePath(this.root, path, purpose, { caseInsensitive: this.governor.services.caseInsensitive });
    return result.ok ? result.value : undefined;
  }

  /**
   * run_command's `cwd` (workspace-relative) for the directory the agent's shell runs in. The root needs none;
   * a directory outside stays absolute, so the canonicaliser refuses the command as outside the workspace.
   */
  private commandCwd(abs: string | undefined): { cwd?: string } {
    if (abs === undefined) return {};
    const real = realpathOrSelf(abs); // the agent may name the workspace through a link; the root here is realpath'd
    const rel = relative(this.root, real);
    if (rel === '') return {};
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { cwd: abs };
    return { cwd: rel.split(sep).join('/') };
  }

  private async post(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    await this.recordPost(request);
    if (!request.native) return { decision: 'allow' };
    // After the trace: a PostToolUse hook sees a change that is already on record, with the tool's real response.
    const event = request.native.event === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse';
    const verdict = await this.fireNative(request, event, signal);
    const context = [verdict.context, verdict.decision === 'deny' ? verdict.reason : undefined].filter((c): c is string => typeof c === 'string' && c !== '').join('\n') || undefined;
    return answerOf(verdict, { decision: verdict.decision === 'deny' ? 'deny' : 'allow', reason: verdict.reason, context });
  }

  private async recordPost(request: BridgeRequest): Promise<void> {
    const stashed = await this.stash.take(request.key);
    // The pre phase's pending entry: taken now, so no reconciliation records the change too (or, if one already
    // did, what it recorded). Kept by the pre phase on disk, it also carries the before-contents a closed editor lost.
    const completion = request.calls.some((c) => c.tool !== 'run_command' && c.tool !== 'read_file') ? await this.completePending(request.key) : { kind: 'none' as const };
    const held = completion.kind === 'held' ? completion.held : undefined;
    try {
      for (const [index, call] of request.calls.entries()) {
        if (call.tool === 'run_command') continue; // what a command wrote is not known; its pre-check is the governance
        // What the tool left behind, read only where the canonicaliser accepts it and only if it is a regular file.
        const target = await this.canonical(call.input.path, 'read');
        if (!target) continue;
        const { abs, rel } = target;
        const native = request.native?.tool_name !== undefined ? { native: { tool: request.native.tool_name, input: request.native.tool_input ?? {} } } : {};
        const governed: ToolCallRequest = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#${index}`, tool: call.tool, input: { ...call.input, path: rel }, ...native };
        const bytes = await this.governor.services.workspace.readFile(abs).catch(() => undefined);
        const after = decodeText(bytes);
        if (call.tool === 'read_file') {
          if (bytes !== undefined) await this.governor.recordNative(governed, { data: { path: rel, content: after, content_hash: contentHash(bytes) }, changes: [] });
          continue;
        }
        const afterHash = bytes === undefined ? null : contentHash(bytes);
        // A reconciliation recorded this very content already (the post came late): no second record.
        if (completion.kind === 'recorded' && Object.hasOwn(completion.after, rel) && completion.after[rel] === afterHash) continue;
        const base = this.beforeOf(abs, rel, index, call, after, stashed, held);
        if (base.known && (base.hash !== undefined ? base.hash === afterHash : base.before === after)) continue; // the tool failed or changed nothing
        const change: AppliedChange = { path: rel, before: base.before, after, ...(base.hash !== undefined && base.hash !== null ? { before_hash: base.hash } : {}) };
        const data = bytes === undefined ? {} : { path: rel, content_hash: afterHash };
        await this.governor.recordNative(governed, { data, changes: [change] }, stashed?.approval ?? held?.entry.approval);
      }
    } catch (error) {
      if (held) this.pending.putBack(held.id); // not recorded: a later reconciliation records it
      throw error;
    }
    if (held) this.pending.release(held.id);
  }

  /**
   * What a file held before the native tool ran: the stash (this process's pre phase, or the headless stash file),
   * else the pending entry (another process's pre phase: before-contents, or only the hash when they were not kept),
   * else, with no pre phase at all (Cursor's afterFileEdit), the reported edits undone on what is there now.
   */
  private beforeOf(abs: string, rel: string, index: number, call: FileCall, after: string | undefined, stashed: StashedInvocation | undefined, held: HeldEntry | undefined): { known: boolean; before?: string; hash?: string | null } {
    if (stashed !== undefined && Object.hasOwn(stashed.before, abs)) return { known: true, before: stashed.before[abs] ?? undefined };
    const file = held?.entry.files.find((f) => f.index === index && f.path === rel);
    if (held && file) {
      if (file.before_hash === null) return { known: true };
      if (Object.hasOwn(held.before, rel)) return { known: true, before: held.before[rel] };
      return { known: true, hash: file.before_hash };
    }
    return { known: false, before: call.tool === 'edit_file' && after !== undefined ? revertEdits(after, call.edits) : undefined };
  }

  /** The post's side of the pending entry; a pending folder that cannot be read leaves the post to record as before. */
  private async completePending(key: string): Promise<Completion> {
    try {
      return await this.pending.complete(key);
    } catch (error) {
      this.governor.services.logger.warn(`pending native changes: ${error instanceof Error ? error.message : String(error)}`);
      return { kind: 'none' };
    }
  }

  /** Writes the pending entry of an allowed change; the refusal's reason when it cannot be written (fail closed). */
  private async beginPending(request: BridgeRequest, files: PendingNativeFile[], kept: Record<string, string>, approval: ApprovalDecision | undefined): Promise<string | undefined> {
    try {
      const intentId = this.governor.services.sessions.boundIntentId(request.session_id);
      const intent = intentId === undefined ? undefined : resolveIntentForWrites(await this.governor.services.intents.load(), intentId);
      this.pending.begin(
        {
          key: request.key,
          session_id: request.session_id,
          agent: request.agent,
          ...(intentId !== undefined ? { intent_id: intentId } : {}),
          ...(intent?.ok ? { intent_scope: [...intent.value.owned_scope] } : {}),
          ...(request.native?.tool_name !== undefined ? { native_tool: request.native.tool_name } : {}),
          files,
          ...(approval ? { approval } : {}),
        },
        kept,
      );
      return undefined;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.governor.services.logger.error(`pending native change ${request.key}: ${why}`);
      return `Intent Governor could not write the pending record of this change in .orchestration/pending/ (${why}), so the change is refused: it would land without a record if the agent's post event never came.`;
    }
  }

  /**
   * Records the changes of allowed native calls whose post event never came (see nativeReconciler.ts): on every
   * hook call (at most once a second unless a session ended), on a resident governor's timer, and in `governor check`.
   */
  async reconcilePending(options: ReconcileOptions = {}): Promise<ReconcileSummary> {
    this.lastReconciled = Date.now();
    return reconcileNativeChanges(this.pending, this.root, (held, changed, reason) => this.recordReconciled(held, changed, reason), options);
  }

  /** A resident governor's pass every `intervalMs`, for agents that went quiet; dispose stops it. */
  startReconciling(intervalMs = 30_000): { dispose(): void } {
    const timer = setInterval(() => void this.reconcileQuietly({}), intervalMs);
    timer.unref();
    return { dispose: () => clearInterval(timer) };
  }

  private async reconcileQuietly(options: ReconcileOptions): Promise<void> {
    const forced = options.session !== undefined;
    if (!forced && Date.now() - this.lastReconciled < RECONCILE_INTERVAL_MS) return;
    try {
      await this.reconcilePending(forced ? options : { ...options, budgetMs: PASS_BUDGET_MS });
    } catch (error) {
      // The call being handled goes on; the entry stays for the next pass.
      this.governor.services.logger.warn(`reconciling pending native changes: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One record per changed file, as the post would have written it, under the intent of the pre phase and marked reconciled. */
  private async recordReconciled(held: HeldEntry, changed: ChangedFile[], reason: string): Promise<void> {
    const { entry } = held;
    for (const { file, state } of changed) {
      const after = decodeText(state.bytes);
      const known = Object.hasOwn(held.before, file.path);
      const before = known ? held.before[file.path] : undefined;
      const change: AppliedChange = { path: file.path, before, after, ...(!known && file.before_hash !== null ? { before_hash: file.before_hash } : {}) };
      const governed: ToolCallRequest = {
        session_id: entry.session_id,
        agent: entry.agent,
        invocation_id: `${entry.key}#${file.index}`,
        tool: file.tool,
        input: { path: file.path },
        ...(entry.native_tool !== undefined ? { native: { tool: entry.native_tool, input: {} } } : {}),
      };
      const data = state.hash === null ? {} : { path: file.path, content_hash: state.hash };
      await this.governor.recordNative(governed, { data, changes: [change] }, entry.approval, { intent_id: entry.intent_id, intent_scope: entry.intent_scope, reconciled: reason });
    }
  }
}

const RESIDENT_SERVER_TOOL_PREFIX = `mcp__${RESIDENT_SERVER_NAME}__`;

function askReason(verdict: HookVerdict): string {
  const who = verdict.decidedBy === GOVERNOR_VOICE ? '' : `the hook '${verdict.decidedBy ?? 'a hook'}' asks: `;
  return `Intent Governor asks a human: ${who}${verdict.reason ?? '(no reason given)'}`;
}

/** A bridge answer with what the hooks said for the user and whether they stopped the agent. */
function answerOf(verdict: HookVerdict | undefined, answer: BridgeAnswer): BridgeAnswer {
  const out: BridgeAnswer = Object.fromEntries(Object.entries(answer).filter(([, v]) => v !== undefined)) as unknown as BridgeAnswer;
  if (verdict?.systemMessage) out.systemMessage = verdict.systemMessage;
  if (verdict?.stop !== undefined) out.stop = verdict.stop;
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

/** A file call as the guards see it when its target is refused before any read: no basis, edits as given. */
function unread(call: FileCall): Pick<ToolCallRequest, 'tool' | 'input'> {
  if (call.tool === 'read_file') return { tool: 'read_file', input: call.input };
  if (call.tool === 'write_file') return { tool: 'write_file', input: call.input };
  if (call.edits.length === 0) return { tool: 'write_file', input: { path: call.input.path, content: '' } };
  return { tool: 'edit_file', input: { path: call.input.path, edits: call.edits.map((e) => ({ search: e.search, replace: e.replace })) } };
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path; // not there (yet): judged as named
  }
}

/** The text before `edits` were applied to it, or undefined when they cannot be undone unambiguously. */
export function revertEdits(text: string, edits: NativeEdit[]): string | undefined {
  let result = text;
  for (const edit of [...edits].reverse()) {
    if (edit.all || result.split(edit.replace).length !== 2) return undefined;
    result = result.replace(edit.replace, () => edit.search);
  }
  return result;
}

/** Applies native edits in order; undefined when a search text is missing (the native tool would fail too). */
export function applyEdits(text: string, edits: NativeEdit[]): string | undefined {
  let result = text;
  for (const edit of edits) {
    if (!result.includes(edit.search)) return undefined;
    result = edit.all ? result.split(edit.search).join(edit.replace) : result.replace(edit.search, () => edit.replace);
  }
  return result;
}
