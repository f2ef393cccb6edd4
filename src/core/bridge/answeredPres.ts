import { isAbsolute, relative, sep } from 'node:path';
import type { BridgeRequest } from '../agents/common/nativeCall';
import { toolError, type ToolError } from '../toolError';
import { confinedKeyIn } from './confinedShell';
import type { PendingNativeChange, PendingNativeFile } from './pendingNativeChanges';

/**
 * What a pre this governor answered (allowed, or handed to the agent's person) leaves for its post to be matched
 * against: who asked, under which intent, and which pending entry holds what it saw of the files it lets change.
 */
export interface AnsweredPre {
  session_id: string;
  agent: string;
  /** The intent the session was judged under (undefined: none). */
  intent_id: string | undefined;
  /** The key of the pending entry the pre left (the call's own, or a confined command's); undefined: it left none. */
  pendingKey?: string;
  /** That entry's files, with the before hashes the pre saw. */
  files: readonly PendingNativeFile[];
}

/** Where a pre's pending entry stands when its post comes: still waiting for it, or gone (recorded, or dropped). */
export type PendingState = { kind: 'waiting'; entry: PendingNativeChange } | { kind: 'gone' };

/** What a post claims to be: the call, who sent it and the intent it is under. */
export interface PostClaim {
  request: BridgeRequest;
  /** The intent the post would be recorded under (the one it names, else the session's binding now). */
  intent_id: string | undefined;
}

/** One answered pre, under every key its post may carry. */
interface Slot {
  pre: AnsweredPre;
  keys: readonly string[];
}

/** Pres whose post never comes (an asked call the person declined, a tool that failed silently) must not pile up. */
const MAX_OPEN = 4096;
/** Keys whose post was taken, remembered so a replay is told it came again (not that no pre was seen). */
const MAX_SPENT = 1024;

/**
 * The pres this governor answered whose post may still come, so that a post is recorded only when it is the post of
 * one of them: same call, session, agent and intent, the pending entry still holding what the pre saw, and once.
 * The hook routes (POST /hook, /agent-hook) take any request that carries the endpoint's token; without this, a
 * process that read the token could have a change recorded for an agent, session or intent it made up, or have a
 * person's later edit recorded as the agent's by sending a call's post again. In memory, with one exception: a post
 * whose pre another governor answered is taken when the pending entry that pre left on disk is still waiting for it.
 */
export class AnsweredPres {
  private readonly open = new Map<string, Slot>();
  private readonly spent = new Set<string>();

  /** `root`: the workspace, which a refusal names its paths against. */
  constructor(private readonly root: string) {}

  /**
   * Notes an answered pre under `keys` (the call's key first; a confined command's post names its own key too). An
   * agent without call ids keys a repeated call by the same input: the later pre replaces the earlier, as its pending
   * entry does.
   */
  note(keys: readonly string[], pre: AnsweredPre): void {
    const slot: Slot = { pre, keys };
    for (const key of keys) {
      const earlier = this.open.get(key);
      if (earlier) this.drop(earlier);
      this.spent.delete(key);
    }
    for (const key of keys) this.open.set(key, slot);
    while (this.open.size > MAX_OPEN) this.drop(this.open.values().next().value as Slot);
  }

  /** The slot of the pre under `key`, for a completion the governor makes itself (spend it then). */
  slotOf(key: string): object | undefined {
    return this.open.get(key);
  }

  /** The pre's post was made by the governor itself (a change whose post the agent does not send): none may follow. */
  spend(slot: object | undefined): void {
    const open = slot as Slot | undefined;
    if (!open || this.open.get(open.keys[0]) !== open) return;
    this.drop(open);
    for (const key of open.keys) this.remember(key);
  }

  /**
   * Takes the pre of `claim`'s post when it matches one (undefined), else the refusal with why. A post that does not
   * match leaves the pre's slot as it was, so a forged post cannot use up the genuine one's.
   */
  admit(claim: PostClaim, pendingOf: (key: string) => PendingState): ToolError | undefined {
    const { request } = claim;
    const key = [request.key, ...confinedKeys(request)].find((candidate) => this.open.has(candidate));
    const slot = key === undefined ? undefined : this.open.get(key);
    if (!slot) {
      // Another governor of this workspace answered the pre (a Node hook before the resident was up, a resident
      // since restarted): the pending entry it left on disk, still waiting and the same asker and intent, stands for it.
      if (leftByAnotherGovernor(claim, pendingOf)) return undefined;
      const again = this.spent.has(request.key);
      return refusal(this.root, request, again ? 'its post came already: a call is recorded once, so this one records nothing' : 'this governor answered no pre for this call, so it has nothing to record it against');
    }
    const { pre } = slot;
    const differs = [request.session_id !== pre.session_id && 'session', request.agent.name !== pre.agent && 'agent', claim.intent_id !== pre.intent_id && 'intent'].filter((what): what is string => typeof what === 'string');
    if (differs.length) return refusal(this.root, request, `its ${differs.join(', ')} differs from the pre this governor answered for that call`);
    if (pre.pendingKey !== undefined) {
      const pending = pendingOf(pre.pendingKey);
      if (pending.kind === 'gone') {
        // Recorded already (a reconciliation took the entry, or the governor completed the change itself): spent.
        this.spend(slot);
        return refusal(this.root, request, 'the change its pre left pending was recorded already, so this post records nothing');
      }
      if (!sameAsSeen(pre, pending.entry)) return refusal(this.root, request, 'the change its pre left pending is no longer the one that pre saw');
    }
    this.spend(slot);
    return undefined;
  }

  private drop(slot: Slot): void {
    for (const key of slot.keys) if (this.open.get(key) === slot) this.open.delete(key);
  }

  private remember(key: string): void {
    this.spent.delete(key);
    this.spent.add(key);
    if (this.spent.size > MAX_SPENT) this.spent.delete(this.spent.values().next().value as string);
  }
}

/** The pending keys a confined command's post carries in the rewritten line it ran (see confinedShell.ts). */
function confinedKeys(request: BridgeRequest): string[] {
  return request.calls.flatMap((call) => {
    const key = call.tool === 'run_command' ? confinedKeyIn(call.input.command) : undefined;
    return key === undefined ? [] : [key];
  });
}

/**
 * A pending entry waiting under the post's key (or its confined command's), left by the pre of the same session,
 * agent and intent. `.orchestration/pending/` is protected: no agent's tool or confined command can write it.
 */
function leftByAnotherGovernor(claim: PostClaim, pendingOf: (key: string) => PendingState): boolean {
  const { request } = claim;
  return [request.key, ...confinedKeys(request)].some((key) => {
    const pending = pendingOf(key);
    return pending.kind === 'waiting' && pending.entry.session_id === request.session_id && pending.entry.agent.name === request.agent.name && pending.entry.intent_id === claim.intent_id;
  });
}

/** Whether the pending entry is still the one the pre left: same asker, intent, files and before hashes. */
function sameAsSeen(pre: AnsweredPre, entry: PendingNativeChange): boolean {
  if (entry.session_id !== pre.session_id || entry.agent.name !== pre.agent || entry.intent_id !== pre.intent_id) return false;
  if (entry.files.length !== pre.files.length) return false;
  return pre.files.every((file) => entry.files.some((held) => held.index === file.index && held.path === file.path && held.before_hash === file.before_hash));
}

function refusal(root: string, request: BridgeRequest, why: string): ToolError {
  const event = request.native?.event ?? 'post';
  const tool = request.native?.tool_name ?? request.calls[0]?.tool ?? 'a tool';
  // Named as every refusal names them (workspace-relative); a command's text is not repeated into the log.
  const paths = request.calls.flatMap((call) => (call.tool === 'run_command' ? [] : [isAbsolute(call.input.path) ? relative(root, call.input.path).split(sep).join('/') : call.input.path]));
  return toolError('UNMATCHED_POST', `Intent Governor refused this ${event} of ${tool}${paths.length ? ` (${paths.join(', ')})` : ''}: ${why}. Nothing was recorded for it; a change its pre allowed is still recorded, by the governor that allowed it or by a reconciliation.`, { event, tool, ...(paths.length ? { paths } : {}) });
}
