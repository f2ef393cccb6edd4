import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { decodeText } from '../hooks/callFacts';
import type { Governor, ToolCallRequest } from '../governor';
import type { AppliedChange } from '../hooks/hookTypes';
import { renderIntentContext } from '../intents/intentContext';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { canonicalizePath, type PathPurpose } from '../paths/canonicalPath';
import { protectedPatternFor } from '../paths/protectedPaths';
import { contentHash } from '../policy/optimisticLock';
import type { ToolError } from '../toolError';
import type { BeforeStash } from './beforeStash';
import type { BridgeAnswer, BridgeRequest, NativeCall, NativeEdit } from './nativeCall';

/** Larger files are governed, but their before-content is not kept for the trace (ranges then cover the whole file). */
const MAX_STASHED_BYTES = 2 * 1024 * 1024;

export interface NativeToolBridgeOptions {
  /** The extension asks its human (modal); headless, `ask` goes back to the agent, whose own UI asks. */
  askHuman: boolean;
}

type Prepared = { ok: true; request: ToolCallRequest; abs?: string; before?: string } | { ok: false; reason: string };

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
 * Stale basis: the bridge never sees the agent's own reads, so the basis of a native change is the file as it
 * is at PreToolUse time (its hash becomes expected_content_hash). Native tools apply their change to that same
 * content moments later; the stale guard still refuses a change over unsaved editor edits and an edit whose
 * search text does not apply, and scope, protected paths and intents are checked exactly as for our own tools.
 */
export class NativeToolBridge {
  constructor(
    private readonly governor: Governor,
    private readonly stash: BeforeStash,
    private readonly options: NativeToolBridgeOptions,
  ) {}

  private get root(): string {
    return this.governor.services.workspace.root;
  }

  /** `signal` aborts when the hook stops waiting: a pending approval is then dropped and the call refused. */
  async handle(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    if (request.phase === 'end') {
      this.governor.services.sessions.end(request.session_id);
      return { decision: 'allow' };
    }
    if (request.intent_id !== undefined) this.governor.services.sessions.bindIntent(request.session_id, request.intent_id);
    if (request.phase === 'context') return { decision: 'allow', context: await this.handshake(request.session_id) };
    if (request.phase === 'post') return this.post(request);
    return this.pre(request, signal);
  }

  /** The intent handshake for a session that starts or gets a prompt: the plan it works under, or how to get one. */
  async handshake(sessionId: string): Promise<string> {
    const intentId = this.governor.services.sessions.boundIntentId(sessionId);
    const intent = resolveIntentForWrites(await this.governor.services.intents.load(), intentId);
    if (intent.ok) return `${renderIntentContext(intent.value)}\n\nYour file and terminal tools are governed by Intent Governor under this intent.`;
    return `Intent Governor: ${intent.error.message}\n${NO_INTENT_HINT}`;
  }

  private async pre(request: BridgeRequest, signal?: AbortSignal): Promise<BridgeAnswer> {
    if (request.unmapped) {
      const refused = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#0`, tool: request.unmapped.tool, input: {} };
      return { decision: 'deny', reason: explain(await this.governor.refuseUnmapped(refused, request.unmapped.reason)) };
    }
    // A pre phase with nothing to judge is a malformed request (or a newer hook's field this build does not know).
    if (request.calls.length === 0) return { decision: 'deny', reason: 'Intent Governor received nothing it can check for this call, so it is refused (fail closed).' };
    const before: Record<string, string | null> = {};
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
    }
    if (Object.keys(before).length) await this.stash.put(request.key, { before, approval, invocationId: request.key });
    if (asks.length) return { decision: 'ask', reason: `Intent Governor asks a human: ${asks.join('; ')}` };
    return { decision: 'allow', context: context.length ? context.join('\n\n') : undefined };
  }

  /** The governed call a native call amounts to, with the file's current content as its basis. */
  private async prepare(request: BridgeRequest, call: NativeCall, index: number): Promise<Prepared> {
    const base = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#${index}` };
    if (call.tool === 'run_command') return { ok: true, request: { ...base, tool: 'run_command', input: { command: call.input.command, ...this.commandCwd(call.input.cwd) } } };
    if (call.tool === 'read_file') return { ok: true, request: { ...base, tool: 'read_file', input: call.input } };
    const target = await this.canonical(call.input.path, 'write');
    // Outside the workspace, protected, or not a regular file: the guards refuse it (and log it) without a read.
    if (!target || protectedPatternFor(target.rel)) return { ok: true, request: { ...base, ...unread(call) } };
    const { abs, rel } = target;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.governor.services.workspace.readFile(abs);
    } catch (error) {
      return { ok: false, reason: `Intent Governor could not read ${rel} as the basis of the change (${error instanceof Error ? error.message : String(error)}), so the change is refused.` };
    }
    const current = decodeText(bytes);
    const basis = bytes === undefined ? {} : { expected_content_hash: contentHash(bytes) };
    const keep = bytes !== undefined && bytes.byteLength <= MAX_STASHED_BYTES ? current : undefined;
    if (call.tool === 'write_file') return { ok: true, abs, before: keep, request: { ...base, tool: 'write_file', input: { path: rel, content: call.input.content, ...basis } } };
    if (!call.edits.some((e) => e.all)) {
      const edits = call.edits.map((e) => ({ search: e.search, replace: e.replace }));
      return { ok: true, abs, before: keep, request: { ...base, tool: 'edit_file', input: { path: rel, edits, ...basis } } };
    }
    // replace_all has no edit_file equivalent: judge the content it would leave as a write based on the same basis.
    const next = current === undefined ? undefined : applyEdits(current, call.edits);
    if (next === undefined) return { ok: false, reason: `The edit of ${rel} does not apply to its current content (a search text is missing); read the file again.` };
    return { ok: true, abs, before: keep, request: { ...base, tool: 'write_file', input: { path: rel, content: next, ...basis } } };
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

  private async post(request: BridgeRequest): Promise<BridgeAnswer> {
    const stashed = await this.stash.take(request.key);
    for (const [index, call] of request.calls.entries()) {
      if (call.tool === 'run_command') continue; // what a command wrote is not known; its pre-check is the governance
      // What the tool left behind, read only where the canonicaliser accepts it and only if it is a regular file.
      const target = await this.canonical(call.input.path, 'read');
      if (!target) continue;
      const { abs, rel } = target;
      const governed: ToolCallRequest = { session_id: request.session_id, agent: request.agent, invocation_id: `${request.key}#${index}`, tool: call.tool, input: { ...call.input, path: rel } };
      const bytes = await this.governor.services.workspace.readFile(abs).catch(() => undefined);
      const after = decodeText(bytes);
      if (call.tool === 'read_file') {
        if (bytes !== undefined) await this.governor.recordNative(governed, { data: { path: rel, content: after, content_hash: contentHash(bytes) }, changes: [] });
        continue;
      }
      const known = stashed !== undefined && Object.hasOwn(stashed.before, abs);
      // No pre phase (Cursor's afterFileEdit): undo the reported edits on what is there now to get the before.
      const before = known ? (stashed.before[abs] ?? undefined) : call.tool === 'edit_file' && after !== undefined ? revertEdits(after, call.edits) : undefined;
      if (known && before === after) continue; // the tool failed or changed nothing
      const change: AppliedChange = { path: rel, before, after };
      const data = bytes === undefined ? {} : { path: rel, content_hash: contentHash(bytes) };
      await this.governor.recordNative(governed, { data, changes: [change] }, stashed?.approval);
    }
    return { decision: 'allow' };
  }
}

const NO_INTENT_HINT =
  'With native tools, the intent comes from the human: pick one in VS Code (Intent Governor status bar item), or run the hook headless with --intent ID.';

/** The reason the model sees: the code, what happened and what to do next. */
function explain(error: ToolError): string {
  const hint = error.code === 'NO_ACTIVE_INTENT' ? ` ${NO_INTENT_HINT}` : '';
  return `[${error.code}] ${error.message}${hint}`;
}

/** A file call as the guards see it when its target is refused before any read: no basis, edits as given. */
function unread(call: FileCall): Pick<ToolCallRequest, 'tool' | 'input'> {
  if (call.tool === 'read_file') return { tool: 'read_file', input: call.input };
  if (call.tool === 'write_file') return { tool: 'write_file', input: call.input };
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
