import { join } from 'node:path';
import type { GovernorServices } from '../governorServices';
import type { Intent } from '../intents/intent';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { governorHome } from '../paths/governorHome';
import { commandHookExecutor } from './commandHookExecutor';
import type { DetachedHookJob } from './detachedHookJob';
import { conditionMatches, type ConditionSubject } from './hookCondition';
import { DECISION_EVENTS, TOOL_EVENTS } from './hookEvents';
import type { HookExecution, HookExecutors, HookRunContext } from './hookExecution';
import { hookEnv, hookInputJson, type HookEventFacts } from './hookInput';
import { MCP_TOOL_ONLY_IN_CLAUDE_CODE } from './hooksConfig';
import { CLAUDE_CODE_DOOR } from './hookLayerFiles';
import { CachedHookLayers, type LoadedHooks } from './hookLayers';
import { hookActionText } from './hookListing';
import { matcherMatches } from './hookMatcher';
import { readHookExecution } from './hookOutput';
import { FileHookApprovals, type HookApprovals } from './hookApprovals';
import { FileHookRunLog } from './fileHookRunLog';
import type { HookRunLog } from './hookRunLog';
import { HookSessionState } from './hookSessionState';
import { isOwnLayer, type HookSpec } from './hookSpec';
import { NO_VERDICT, type HookVerdict } from './hookVerdict';
import { mergeVerdicts } from './hookVerdictMerge';
import { httpHookExecutor } from './httpHookExecutor';
import { storeIn } from '../paths/userStores';

/** One event as a door fires it at the user hooks. */
export interface HookFiring extends HookEventFacts {
  /** The governor's key for the session (`claude:<id>`, an MCP session): the bound intent, `once`, rewakes. */
  sessionKey: string;
  /** Tool events: the names the matcher is compared with, the agent's native name first. */
  toolNames?: readonly string[];
  /** Other events: what the matcher is compared with (SessionStart's source, Notification's type); absent = every matcher fires. */
  matchValue?: string;
  /** What an `if` condition is checked against; absent = hooks with `if` do not fire. */
  subject?: ConditionSubject;
  signal?: AbortSignal;
}

const MAX_REASON_CHARS = 2000;

/** The name a verdict carries when the governor itself speaks about a hook (one that is not approved), not the hook. */
export const GOVERNOR_VOICE = 'Intent Governor';

/** Events whose answer can carry text to the model, so waiting asyncRewake messages are delivered there. */
const DELIVERS_CONTEXT = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart']);

/** Events whose hooks may answer `watchPaths` (Claude Code's list of files FileChanged watches). */
const SETS_WATCH_PATHS = new Set(['SessionStart', 'CwdChanged', 'FileChanged']);

/**
 * The user's hooks (every layer: the person's own, the project's, Claude Code's files for other agents, the old
 * hooks.yaml) for one event: selected by matcher and `if`, gated by trust and approval, run by their executor
 * (sync, async, asyncRewake, once), read with Claude Code's protocol and merged into one verdict. Every door
 * fires events here, so a policy written once holds for every agent.
 */
export class UserHookRunner {
  private readonly home: string;
  private readonly approvals: HookApprovals;
  private readonly runLog: HookRunLog;
  private readonly sessionState: HookSessionState;
  private readonly executors: HookExecutors;
  private readonly background = new Set<Promise<void>>();
  /** Notes (the hooks.yaml migration hint) are logged once per process, not on every call. */
  private readonly notesLogged = new Set<string>();
  private readonly watchPathListeners = new Set<(paths: readonly string[]) => void>();
  /** Each door's hook layers, read again when a file changes: loaded on every governed call. */
  private readonly layers = new Map<string, CachedHookLayers>();

  constructor(private readonly services: GovernorServices) {
    this.home = services.governorHome ?? governorHome();
    this.approvals = services.hookApprovals ?? new FileHookApprovals();
    this.runLog = services.hookRunLog ?? new FileHookRunLog(storeIn(this.home, 'hook-runs'));
    this.sessionState = new HookSessionState(join(this.home, 'hook-sessions'));
    this.executors = { command: commandHookExecutor, http: httpHookExecutor, prompt: services.promptHooks };
  }

  private get root(): string {
    return this.services.workspace.root;
  }

  /** The hooks every layer declares, as this door sees them (Claude Code's own files are skipped for Claude Code). */
  load(door: string): LoadedHooks {
    const key = `${this.root}\0${door}`;
    let layers = this.layers.get(key);
    if (!layers) this.layers.set(key, (layers = new CachedHookLayers(this.root, { home: this.home, door })));
    return layers.get();
  }

  /**
   * `watchPaths` a SessionStart, CwdChanged or FileChanged hook answered, for a file watcher here (VS Code's) to
   * watch next; not Claude Code's, which watches them itself.
   */
  onWatchPaths(listener: (paths: readonly string[]) => void): { dispose(): void } {
    this.watchPathListeners.add(listener);
    return { dispose: () => this.watchPathListeners.delete(listener) };
  }

  /**
   * Whether firing `event` at `door` would do nothing: no hook declared for it, no file problem or note to report,
   * no message waiting for the session. A door asks first, so a call nobody hooks costs no facts for the hooks.
   */
  idle(door: string, event: string, sessionKey: string): boolean {
    const loaded = this.load(door);
    if (loaded.problems.length || loaded.hooks.some((spec) => spec.event === event)) return false;
    if (loaded.notes.some((n) => !this.notesLogged.has(n)) || loaded.warnings.some((n) => !this.notesLogged.has(n))) return false;
    return !DELIVERS_CONTEXT.has(event) || !this.sessionState.hasMessages(this.root, sessionKey);
  }

  async fire(firing: HookFiring): Promise<HookVerdict> {
    const decides = DECISION_EVENTS.has(firing.event);
    const loaded = this.load(firing.agent.name);
    for (const note of loaded.notes.filter((n) => !this.notesLogged.has(n))) {
      this.notesLogged.add(note);
      this.services.logger.info(note);
    }
    for (const warning of loaded.warnings.filter((n) => !this.notesLogged.has(n))) {
      this.notesLogged.add(warning);
      this.services.logger.warn(`user hooks: ${warning}`);
    }
    if (loaded.problems.length) {
      const what = loaded.problems.map((p) => `${p.file}: ${p.message}`).join('; ');
      this.services.logger.error(`user hooks: ${what}`);
      // A policy that cannot be read cannot be checked: decisions fail closed, observations carry on.
      if (decides) return { decision: 'deny', reason: `The hooks configuration cannot be read (${what}), so the call is refused until a human fixes it (governance fails closed).`, failures: loaded.problems.map((p) => ({ hook: p.file, message: p.message })), decidedBy: loaded.problems[0].file };
    }
    const selected = loaded.hooks.filter((spec) => this.selects(spec, firing));
    const rewakes = DELIVERS_CONTEXT.has(firing.event) ? this.sessionState.takeMessages(this.root, firing.sessionKey) : [];
    if (selected.length === 0 && rewakes.length === 0) return NO_VERDICT;
    const intent = await this.intentOf(firing.sessionKey);
    const answers: { hook: string; verdict: HookVerdict }[] = rewakes.map((message) => ({ hook: 'asyncRewake', verdict: { decision: 'none', context: message, failures: [] } }));
    let fields = firing.fields;
    for (const spec of selected) {
      if (firing.signal?.aborted) break;
      const facts: HookEventFacts = { ...firing, fields };
      const gate = await this.mayRun(spec, firing, decides);
      if (gate !== 'run') {
        await this.logRun(spec, `skipped: ${gate.why}`, 0);
        if (gate.why === 'not approved' && !gate.verdict) this.services.logger.warn(`hook '${spec.name}' (${spec.event}, ${spec.source.file}) is not approved; skipped`);
        if (gate.verdict) answers.push({ hook: GOVERNOR_VOICE, verdict: gate.verdict });
        continue;
      }
      if (spec.async || spec.asyncRewake) {
        this.inBackground(spec, facts, intent, firing.sessionKey);
        continue;
      }
      const verdict = await this.runOne(spec, facts, intent, firing.signal);
      this.warnNotCarried(spec, verdict);
      answers.push({ hook: spec.name, verdict });
      if (verdict.decision === 'deny') break; // nothing later can undo a deny
      // Later hooks see the input an earlier one rewrote, as the tool will.
      if (verdict.updatedInput) fields = { ...fields, tool_input: verdict.updatedInput };
    }
    const merged = mergeVerdicts(answers);
    await this.audit(firing, merged);
    const watch = merged.passThrough?.watchPaths;
    // Claude Code is answered them and watches them itself.
    if (watch && SETS_WATCH_PATHS.has(firing.event) && firing.agent.name !== CLAUDE_CODE_DOOR) for (const listener of this.watchPathListeners) listener(watch);
    return merged;
  }

  /**
   * Fields only an agent acts on are never dropped in silence: kept in the verdict for the door whose agent reads
   * them (Claude Code's hook answer), and said once per hook and field, since every other door ignores them.
   */
  private warnNotCarried(spec: HookSpec, verdict: HookVerdict): void {
    for (const field of Object.keys(verdict.passThrough ?? {})) {
      if (field === 'watchPaths' && this.watchPathListeners.size > 0 && SETS_WATCH_PATHS.has(spec.event)) continue; // a watcher here takes them
      const note = `hook '${spec.name}' (${spec.event}, ${spec.source.file}) returned ${field}: only Claude Code's door passes it on to the agent; at the other doors (MCP, VS Code tools, VS Code agent, Cursor, ...) it is not supported and has no effect`;
      if (this.notesLogged.has(note)) continue;
      this.notesLogged.add(note);
      this.services.logger.warn(note);
    }
  }

  /** Waits for background hooks (deactivation, a one-shot hook process before it exits, tests). */
  async drain(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  /** The session is over: `once` markers and undelivered rewake messages go. */
  endSession(sessionKey: string): void {
    this.sessionState.end(this.root, sessionKey);
  }

  private selects(spec: HookSpec, firing: HookFiring): boolean {
    if (spec.event !== firing.event) return false;
    if (TOOL_EVENTS.has(spec.event)) {
      if (!matcherMatches(spec.matcher, firing.toolNames ?? [])) return false;
    } else if (firing.matchValue !== undefined && !matcherMatches(spec.matcher, [firing.matchValue])) return false;
    if (spec.if === undefined) return true;
    return firing.subject !== undefined && conditionMatches(spec.if, firing.subject);
  }

  /**
   * Hooks that came with the repository run only in a trusted workspace and once a human approved their hash;
   * the person's own file (~/.intent-governor/hooks.json) is trusted as it is. An unapproved hook on a decision
   * event makes the call ask a human, because the check the user wanted has not happened.
   */
  private async mayRun(spec: HookSpec, firing: HookFiring, decides: boolean): Promise<'run' | { why: string; verdict?: HookVerdict }> {
    const trusted = isOwnLayer(spec.source.layer) || (this.services.policy.trusted && ((await this.approvals.isApproved(this.root, spec.approvalHash)) || (await this.approveInteractively(spec, firing))));
    if (trusted) return spec.once && !this.sessionState.claimOnce(this.root, firing.sessionKey, spec.id) ? { why: 'once per session, already ran' } : 'run';
    if (!this.services.policy.trusted) return { why: 'workspace not trusted' };
    if (!decides) return { why: 'not approved' };
    const reason = `The hook '${spec.name}' from ${spec.source.file} is not approved (only a person approves it: in VS Code's approval dialog, or with \`governor hooks trust\` in a terminal), so it did not check this call; a human must.`;
    return { why: 'not approved', verdict: { decision: 'ask', reason, failures: [], decidedBy: GOVERNOR_VOICE } };
  }

  /** Only an interactive approver (VS Code's modal) may approve a hook: a policy such as `--approve always` must not. */
  private async approveInteractively(spec: HookSpec, firing: HookFiring): Promise<boolean> {
    if (this.services.approver.interactive !== true) return false;
    const decision = await this.services.approver
      .approve({
        kind: 'destructive',
        title: `Run the hook '${spec.name}' from ${spec.source.file}?`,
        tool: firing.governedTool ?? String(firing.fields.tool_name ?? firing.event),
        files: [spec.source.file],
        risk: 'high',
        mutation_class: 'command',
        reasons: [`${spec.source.file} declares a ${spec.event} hook (${spec.action.type}) that runs on agent activity; it was never approved or it changed (${spec.approvalHash.slice(0, 19)}…). Approving lets it run from now on.`],
        command: hookActionText(spec.action),
      })
      .catch(() => ({ approved: false }));
    if (!decision.approved) return false;
    await this.approvals.approve(this.root, spec.approvalHash, hookActionText(spec.action));
    return true;
  }

  private async runOne(spec: HookSpec, facts: HookEventFacts, intent: Intent | undefined, signal?: AbortSignal): Promise<HookVerdict> {
    const status = spec.statusMessage ? this.services.hookStatus?.show(spec.statusMessage) : undefined;
    let execution: HookExecution;
    try {
      execution = await this.execute(spec, facts, intent, signal);
    } finally {
      status?.dispose();
    }
    const verdict = readHookExecution(spec, execution);
    await this.logRun(spec, runResult(execution, verdict), execution.durationMs);
    return verdict;
  }

  private async execute(spec: HookSpec, facts: HookEventFacts, intent: Intent | undefined, signal?: AbortSignal): Promise<HookExecution> {
    // An http hook's headers may name variables the scrubbed env drops (a token): those it lists, a human approved with it.
    const listed = spec.action.type === 'http' ? Object.fromEntries(spec.action.allowedEnvVars.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]])) : {};
    const context: HookRunContext = { input: hookInputJson(facts, this.root, intent, spec.label ?? spec.id), env: { ...hookEnv(facts, this.root, intent), ...listed }, cwd: this.root, timeoutMs: spec.timeoutMs, signal };
    try {
      const action = spec.action;
      if (action.type === 'command') return await this.executors.command.run(action, spec, context);
      if (action.type === 'http') return await this.executors.http.run(action, spec, context);
      if (action.type === 'mcp_tool') return { kind: 'unavailable', message: MCP_TOOL_ONLY_IN_CLAUDE_CODE, durationMs: 0 };
      if (!this.executors.prompt) return { kind: 'unavailable', message: NO_MODEL_HERE, durationMs: 0 };
      return await this.executors.prompt.run(action, spec, context);
    } catch (error) {
      return { kind: 'failed', message: `crashed: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
    }
  }

  /**
   * async: fire and forget (logged); asyncRewake: an exit 2 leaves its stderr for the session's next call. A process
   * that ends with its answer (a hook process per agent call) hands the run to a detached worker instead.
   */
  private inBackground(spec: HookSpec, facts: HookEventFacts, intent: Intent | undefined, sessionKey: string): void {
    const detached = this.services.hookJobs;
    if (detached) {
      try {
        detached.launch({ root: this.root, door: facts.agent.name, hookId: spec.id, approvalHash: spec.approvalHash, sessionKey, facts, intentId: intent?.id });
        return;
      } catch (error) {
        this.services.logger.warn(`background hook '${spec.name}' could not be detached (${error instanceof Error ? error.message : String(error)}); it runs here`);
      }
    }
    const job = this.backgroundRun(spec, facts, intent, sessionKey);
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  /** Runs a detached background hook (the worker's side of `hookJobs`), if the hook is still declared as it was. */
  async runDetached(job: DetachedHookJob): Promise<void> {
    const spec = this.load(job.door).hooks.find((h) => h.id === job.hookId && h.approvalHash === job.approvalHash);
    if (!spec) return this.services.logger.warn(`background hook ${job.hookId} changed or is gone; not run`);
    const intent = job.intentId === undefined ? undefined : await this.intentOf(job.sessionKey, job.intentId);
    await this.backgroundRun(spec, job.facts, intent, job.sessionKey);
  }

  private backgroundRun(spec: HookSpec, facts: HookEventFacts, intent: Intent | undefined, sessionKey: string): Promise<void> {
    return (async () => {
      const execution = await this.execute(spec, facts, intent);
      const verdict = readHookExecution(spec, execution);
      await this.logRun(spec, runResult(execution, verdict), execution.durationMs);
      if (execution.kind === 'failed') this.services.logger.warn(`background hook '${spec.name}' failed: ${execution.message}`);
      if (spec.asyncRewake && execution.kind === 'exited' && execution.exitCode === 2) {
        const why = execution.stderr.trim().slice(0, MAX_REASON_CHARS) || '(no reason given)';
        this.sessionState.leaveMessage(this.root, sessionKey, `The background hook '${spec.name}' reported: ${why}`);
      }
    })().catch((error: unknown) => this.services.logger.error(`background hook '${spec.name}': ${error instanceof Error ? error.message : String(error)}`));
  }

  private async logRun(spec: HookSpec, result: string, durationMs: number): Promise<void> {
    try {
      await this.runLog.record(this.root, spec.identity, { result, durationMs: Math.round(durationMs), at: this.services.clock().toISOString() });
    } catch (error) {
      this.services.logger.warn(`hook run log: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Asks and failures go to the governance log (a deny of a call is logged as the call's refusal). */
  private async audit(firing: HookFiring, verdict: HookVerdict): Promise<void> {
    const events: { decision: 'ask' | 'error' | 'deny'; code: 'HOOK_BLOCKED' | 'HOOK_ERROR'; message: string }[] = [];
    if (verdict.decision === 'ask') events.push({ decision: 'ask', code: 'HOOK_BLOCKED', message: `${verdict.decidedBy ?? 'a hook'} asks: ${verdict.reason ?? ''}` });
    // A deny of something that is not a tool call (a prompt, a stop) has no refusal record of its own.
    if (verdict.decision === 'deny' && !TOOL_EVENTS.has(firing.event)) events.push({ decision: 'deny', code: 'HOOK_BLOCKED', message: `${verdict.decidedBy ?? 'a hook'} blocked ${firing.event}: ${verdict.reason ?? ''}` });
    for (const failure of verdict.failures) events.push({ decision: 'error', code: 'HOOK_ERROR', message: `hook '${failure.hook}' failed on ${firing.event}: ${failure.message}` });
    for (const event of events) {
      try {
        await this.services.trace.recordGovernance({
          timestamp: this.services.clock().toISOString(),
          invocation_id: firing.invocationId ?? `${firing.sessionKey}:${firing.event}`,
          session_id: firing.sessionKey,
          agent: firing.agent,
          tool: firing.governedTool ?? String(firing.fields.tool_name ?? firing.event),
          intent_id: this.services.sessions.boundIntentId(firing.sessionKey),
          decision: event.decision,
          code: event.code,
          message: event.message.slice(0, MAX_REASON_CHARS),
          paths: firing.filePath ? [firing.filePath] : [],
          hook_event: firing.event,
        });
      } catch (error) {
        this.services.logger.error(`governance log: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private async intentOf(sessionKey: string, known?: string): Promise<Intent | undefined> {
    const id = known ?? this.services.sessions.boundIntentId(sessionKey);
    if (id === undefined) return undefined;
    const resolved = resolveIntentForWrites(await this.services.intents.load(), id);
    return resolved.ok ? resolved.value : undefined;
  }
}

/** Why a prompt hook cannot run outside VS Code, as its refusal and its last run say. */
const NO_MODEL_HERE = 'no language model here';

/** The run log's line for one run: how it failed, that it could not run here, or what it decided. */
function runResult(execution: HookExecution, verdict: HookVerdict): string {
  if (execution.kind === 'failed') return `failed: ${execution.message}`;
  if (execution.kind === 'unavailable') return `${verdict.decision === 'deny' ? 'refused' : 'skipped'}: ${execution.message}`;
  return resultWord(verdict);
}

function resultWord(verdict: HookVerdict): string {
  if (verdict.failures.length) return `failed: ${verdict.failures[0].message}`;
  return verdict.updatedInput && verdict.decision !== 'deny' ? `${verdict.decision === 'none' ? 'allow' : verdict.decision} (changed the input)` : verdict.decision;
}
