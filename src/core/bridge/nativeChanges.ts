import { decodeText } from '../pipeline/callFacts';
import type { Governor } from '../governor';
import type { KnownBefore, LeftBehind, ToolCallRequest } from '../flow/callRequest';
import type { ApprovalDecision } from '../approval/approver';
import type { AppliedChange } from '../pipeline/hookTypes';
import { resolveIntentForWrites } from '../intents/intentResolution';
import type { BridgeRequest, NativeCall, NativeEdit } from '../agents/common/nativeCall';
import type { BeforeStash, StashedInvocation } from './beforeStash';
import { POSTED_QUIET_MS, reconcileNativeChanges, type ChangedFile, type ReconcileOptions, type ReconcileSummary } from './nativeReconciler';
import { PendingNativeChanges, type Completion, type HeldEntry, type PendingNativeFile } from './pendingNativeChanges';
import type { PendingState } from './answeredPres';
import { confinedCommandRunning } from '../sandbox/confinedLiveness';
import { protectedMadeMessage, type ProtectedCreation } from '../sandbox/protectedCreations';
import { commandChanges, fileChangeOf, notRecordedElsewhere, type CommandChange } from './confinedChanges';
import { JournalSessions } from './journalSessions';
import { confinedKeyIn, releaseCommand, type ConfinedShellPlan } from './confinedShell';

/** An unforced reconciliation pass runs at most this often in one process, */
const RECONCILE_INTERVAL_MS = 1_000;
/** and looks at entries for at most this long (the hook call waits for it); the rest get their turn later. */
const PASS_BUDGET_MS = 3;
/** A resident's passes after a post that came before its change was saved: this long after it, then twice as long each time, */
const FOLLOW_UP_FIRST_MS = POSTED_QUIET_MS + 250;
/** until this long (the regular timer takes over). */
const FOLLOW_UP_LAST_MS = 16_000;

type FileCall = Exclude<NativeCall, { tool: 'run_command' }>;

/** What the pre phase of one native invocation read of the files it lets the agent's tool change. */
export interface PreRead {
  /** Absolute path → content before (null: no file, or too large to keep), for this process's post phase. */
  before: Record<string, string | null>;
  /** The pending entry's files: before hashes and stats, for another process's post phase or a reconciliation. */
  files: PendingNativeFile[];
  /** Workspace-relative path → content before, kept beside the pending entry. */
  kept: Record<string, string>;
  approval?: ApprovalDecision;
}

/** One governed call of a native invocation, `input` as the agent's tool runs it, under the agent's tool name for the hooks. */
export function nativeCallRequest(request: BridgeRequest, index: number, tool: string, input: Record<string, unknown>, confined = false): ToolCallRequest {
  const native = request.native?.tool_name !== undefined ? { native: { tool: request.native.tool_name, input: request.native.tool_input ?? {}, ...(confined ? { confined: true as const } : {}) } } : {};
  return { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#${index}`, ...native, tool, input };
}

/**
 * What an allowed native change leaves to be recorded, from its pre phase to its post phase: the before-contents
 * (the stash, for the post of this process or of the headless hook's next one) and the pending entry on disk (for
 * any other process, and for a reconciliation when the post never comes). Each change is recorded through
 * `Governor.run` in `record` mode: the governor reads what the tool left behind, this keeps what was there before.
 */
export class NativeChanges {
  /** Allowed native changes between their pre and post events, on disk: the post completes them, or a reconciliation does. */
  private readonly pending: PendingNativeChanges;
  private lastReconciled = 0;
  /** Set while a resident's timer runs (startReconciling): only a process that outlives the call follows up. */
  private resident = false;
  private followUp: NodeJS.Timeout | undefined;
  /** Session ids as the journal keeps them (redacted as the trace redacts them). */
  readonly sessions: JournalSessions;

  constructor(
    private readonly governor: Governor,
    private readonly stash: BeforeStash,
    options: { resident: boolean },
  ) {
    this.pending = new PendingNativeChanges(this.root, { resident: options.resident });
    this.sessions = new JournalSessions(governor.services.governorHome);
  }

  private get root(): string {
    return this.governor.services.workspace.root;
  }

  /** Keeps what the pre phase read, before the agent hears "allow"; the refusal's reason when it cannot be kept (fail closed). */
  async keep(request: BridgeRequest, read: PreRead): Promise<string | undefined> {
    if (Object.keys(read.before).length) await this.stash.put(request.key, { before: read.before, approval: read.approval, invocationId: request.key });
    // On disk before the agent hears "allow": if its post never comes, the change is still recorded.
    return read.files.length ? this.beginPending(request, read.files, read.kept, read.approval) : undefined;
  }

  /**
   * Leaves a confined shell command's pending entry (its snapshot of the writable roots) on disk before the agent
   * hears "allow": the post records what it changed, or a reconciliation does if the post never comes.
   */
  async keepConfined(plan: ConfinedShellPlan): Promise<string | undefined> {
    try {
      await this.sessions.learn(plan.entry.session_id);
      this.pending.begin(this.sessions.scrub(plan.entry), {}, plan.snapshot, plan.entry.key);
      return undefined;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.governor.services.logger.error(`pending confined command ${plan.entry.key}: ${why}`);
      return `Intent Governor could not write the pending record of this command in .orchestration/pending/ (${why}), so it is refused: what it changes would land without a record if the agent's post event never came.`;
    }
  }

  /** Where the pending entry under `key` stands, for a post to be matched against (answeredPres.ts); one small read. */
  pendingState(key: string, session: string): PendingState {
    const entry = this.pending.peek(this.pending.idOf(key));
    if (!entry) return { kind: 'gone' };
    // The journal holds the session redacted when it is a token: matched against the one the post names.
    return { kind: 'waiting', entry: this.sessions.isOf(entry, session) ? { ...entry, session_id: session } : entry };
  }

  /** The post phase: what each call of the invocation read or changed, recorded once. */
  async recordPost(request: BridgeRequest): Promise<void> {
    for (const call of request.calls) {
      const key = call.tool === 'run_command' ? confinedKeyIn(call.input.command) : undefined;
      if (key !== undefined) await this.recordConfinedPost(key, request.session_id);
    }
    const stashed = await this.stash.take(request.key);
    // The pre phase's pending entry: taken now, so no reconciliation records the change too (or, if one already
    // did, what it recorded). Kept by the pre phase on disk, it also carries the before-contents a closed editor lost.
    const completion = request.calls.some((c) => c.tool !== 'run_command' && c.tool !== 'read_file') ? await this.completePending(request.key) : { kind: 'none' as const };
    const held = completion.kind === 'held' ? completion.held : undefined;
    // A one-call change whose file does not hold it yet may be saved after its post (see putBackPosted); a failure
    // post says the tool did not run, and with several calls one file's record cannot wait for another's.
    const mayLandLater = held !== undefined && request.calls.length === 1 && request.native?.event !== 'PostToolUseFailure';
    let notYet = false;
    try {
      for (const [index, call] of request.calls.entries()) {
        if (call.tool === 'run_command') continue; // unconfined, what it wrote is not known; confined, recorded above
        // The governor reads what the tool left behind (a read: what the agent saw); this door knows what was there before.
        const before = (left: LeftBehind): KnownBefore | undefined => {
          // A reconciliation recorded this very content already (the post came late): no second record.
          if (completion.kind === 'recorded' && Object.hasOwn(completion.after, left.rel) && completion.after[left.rel] === left.hash) return undefined;
          const base = this.beforeOf(left.abs, left.rel, index, call, left.text, stashed, held);
          const unchanged = base.known && (base.hash !== undefined ? base.hash === left.hash : base.before === left.text);
          // A file still as it was, or left empty by a write of some text, is not what the tool wrote yet.
          if (mayLandLater && (unchanged || (call.tool === 'write_file' && left.text === '' && call.input.content !== ''))) {
            notYet = true;
            return undefined;
          }
          if (unchanged) return undefined; // the tool failed or changed nothing
          return { before: base.before, ...(base.hash !== undefined && base.hash !== null ? { before_hash: base.hash } : {}) };
        };
        await this.governor.run(nativeCallRequest(request, index, call.tool, call.input), { mode: 'record', approval: stashed?.approval ?? held?.entry.approval, before });
      }
    } catch (error) {
      if (held) this.pending.putBack(held.id); // not recorded: a later reconciliation records it
      throw error;
    }
    if (held && notYet) {
      this.pending.putBackPosted(held.id);
      this.followUpSoon(FOLLOW_UP_FIRST_MS);
    } else if (held) this.pending.release(held.id);
  }

  /**
   * A resident records a change whose post came early within seconds of its save, not at its next timer pass: a
   * pass soon after, and again while some entry still waits (twice as long each time, up to FOLLOW_UP_LAST_MS).
   */
  private followUpSoon(delayMs: number): void {
    if (!this.resident || this.followUp) return;
    this.followUp = setTimeout(() => {
      void this.reconcileLogged({}).then((summary) => {
        this.followUp = undefined;
        // A pass that failed left its entries waiting too.
        if ((summary?.waiting ?? 1) > 0 && delayMs * 2 <= FOLLOW_UP_LAST_MS) this.followUpSoon(delayMs * 2);
      });
    }, delayMs);
    this.followUp.unref();
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
      await this.sessions.learn(request.session_id);
      const entry = this.sessions.scrub({
        key: request.key,
        session_id: request.session_id,
        agent: request.agent,
        ...(intentId !== undefined ? { intent_id: intentId } : {}),
        ...(intent?.ok ? { intent_scope: [...intent.value.owned_scope] } : {}),
        ...(request.native?.tool_name !== undefined ? { native_tool: request.native.tool_name } : {}),
        files,
        ...(approval ? { approval } : {}),
      });
      this.pending.begin(entry, kept, undefined, request.key);
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

  /**
   * A resident governor's pass every `intervalMs`, for agents that went quiet; dispose stops it. No call waits for
   * it, so it looks at every entry: a hook call's pass stops after a few milliseconds, and with entries kept for a
   * person's answer in the folder, a quiet agent's change could wait many passes for its turn.
   */
  startReconciling(intervalMs = 30_000): { dispose(): void } {
    const timer = setInterval(() => void this.reconcileQuietly({}, 'whole'), intervalMs);
    timer.unref();
    this.resident = true;
    const spares = this.pending.keepSpares();
    return {
      dispose: () => {
        clearInterval(timer);
        spares.stop();
        this.resident = false;
        clearTimeout(this.followUp);
        this.followUp = undefined;
      },
    };
  }

  /** A pass that never fails the hook call it runs in; unforced passes are spaced, and kept short unless `whole`. */
  async reconcileQuietly(options: ReconcileOptions, pass: 'short' | 'whole' = 'short'): Promise<void> {
    const forced = options.session !== undefined;
    if (!forced && Date.now() - this.lastReconciled < RECONCILE_INTERVAL_MS) return;
    await this.reconcileLogged(forced || pass === 'whole' ? options : { ...options, budgetMs: PASS_BUDGET_MS });
  }

  /** A pass whose failure is logged, not thrown (undefined then): the call or timer goes on, the entry stays for the next pass. */
  private async reconcileLogged(options: ReconcileOptions): Promise<ReconcileSummary | undefined> {
    try {
      return await this.reconcilePending(options);
    } catch (error) {
      this.governor.services.logger.warn(`reconciling pending native changes: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** A confined command's post: what it changed under its writable roots since the snapshot, recorded once. */
  private async recordConfinedPost(key: string, session: string): Promise<void> {
    const completion = await this.completePending(key);
    if (completion.kind !== 'held') return; // a reconciliation recorded it already, or nothing of it is known here
    const { held } = completion;
    const command = held.entry.command;
    if (!command) {
      this.pending.release(held.id);
      return;
    }
    // Run in the background by the agent's shell: its post came as it started. Recorded once its sandbox is gone.
    if (confinedCommandRunning(command.temp_dir)) {
      this.pending.putBackPosted(held.id);
      this.followUpSoon(FOLLOW_UP_FIRST_MS);
      return;
    }
    try {
      const outcome = await commandChanges(this.root, command, held.snapshot);
      if (outcome === undefined) this.governor.services.logger.warn(`confined command ${held.entry.key}: its snapshot cannot be read, so its changes cannot be told`);
      else {
        if (outcome.protectedMade.length > 0) await this.recordProtectedRefusal(held, outcome.protectedMade);
        if (outcome.changes.length > 0) await this.recordCommand(held, outcome.changes, undefined, session);
      }
    } catch (error) {
      this.pending.putBack(held.id); // not recorded: a later reconciliation records it
      throw error;
    }
    this.pending.release(held.id);
    await releaseCommand(this.root, command);
  }

  /** The protected paths a confined command made, removed again by the after-check: a refusal in the governance log. */
  private async recordProtectedRefusal(held: HeldEntry, made: readonly ProtectedCreation[]): Promise<void> {
    const { entry } = held;
    const services = this.governor.services;
    const paths = made.map((m) => m.rel);
    const message = protectedMadeMessage(made);
    services.logger.warn(`confined command ${entry.key}: ${message}`);
    await services.trace.recordGovernance({
      timestamp: services.clock().toISOString(),
      invocation_id: entry.command?.invocation_id ?? entry.key,
      session_id: entry.session_id,
      agent: entry.agent,
      intent_id: entry.intent_id,
      tool: 'run_command',
      decision: 'deny',
      code: 'PROTECTED_PATH',
      message,
      paths,
    });
  }

  /** One record for the command, under the invocation id of its pre phase: every file it changed, with its hash. */
  private async recordCommand(held: HeldEntry, all: CommandChange[], reason?: string, session?: string): Promise<void> {
    const { entry } = held;
    const command = entry.command;
    if (!command) return;
    const changes = typeof command.planned_at === 'number' ? notRecordedElsewhere(this.root, all, command.invocation_id, command.planned_at) : all;
    if (changes.length === 0) return;
    const governed: ToolCallRequest = {
      session_id: session ?? entry.session_id, // the post's own (the journal's may be redacted, which binds no intent)
      agent: entry.agent,
      invocation_id: command.invocation_id,
      tool: 'run_command',
      input: { command: command.command, ...(command.cwd !== '' ? { cwd: command.cwd } : {}) },
      ...(entry.native_tool !== undefined ? { native: { tool: entry.native_tool, input: {}, confined: true as const } } : {}),
    };
    const recordAs = reason !== undefined ? { recordAs: { intent_id: entry.intent_id, intent_scope: entry.intent_scope, reconciled: reason } } : {};
    const output = { data: { confined: true, changed: changes.map((c) => c.file.path) }, changes: changes.map(fileChangeOf) };
    await this.governor.run(governed, { mode: 'record', output, approval: entry.approval, ...recordAs });
  }

  /** One record per changed file, as the post would have written it, under the intent of the pre phase and marked reconciled. */
  private async recordReconciled(held: HeldEntry, changed: ChangedFile[], reason: string): Promise<void> {
    const { entry } = held;
    if (entry.command) {
      await this.recordCommand(held, changed as CommandChange[], reason);
      await releaseCommand(this.root, entry.command);
      return;
    }
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
      await this.governor.run(governed, { mode: 'record', output: { data, changes: [change] }, approval: entry.approval, recordAs: { intent_id: entry.intent_id, intent_scope: entry.intent_scope, reconciled: reason } });
    }
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
