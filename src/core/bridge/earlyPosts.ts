import type { BridgeRequest } from '../agents/common/nativeCall';
import { DeclaredHooksCache } from '../userHooks/declaredHooks';

/**
 * agentHookRoute's `answerPostEarly` for a resident governing `root`: a post of file changes only, at a door whose user
 * hooks have nothing to say about posts. Such a change's pre left a pending entry that records it if the governor
 * stops first; a read's post takes the session's basis from the file, which must happen before the agent (or a
 * person) moves on, and a command's post is answered once recorded. Each door's hook files are read again only when
 * one of them changes. `claim` (the bridge's claimPost) takes the post's pre before the answer says allow: a post the
 * bridge would refuse is not answered early, so its caller hears the refusal.
 */
export function postsAnsweredEarly(root: string, home: string, claim?: (request: BridgeRequest) => boolean): (request: BridgeRequest) => boolean {
  const declaredByDoor = new Map<string, DeclaredHooksCache>();
  return (request) => {
    if (request.calls.length === 0 || !request.calls.every((call) => call.tool === 'write_file' || call.tool === 'edit_file')) return false;
    if (!early(request)) return false;
    return claim?.(request) ?? true;
  };

  function early(request: BridgeRequest): boolean {
    const door = request.agent.name;
    let cache = declaredByDoor.get(door);
    if (!cache) declaredByDoor.set(door, (cache = new DeclaredHooksCache(root, home, door)));
    const declared = cache.get();
    return !declared.unreadable && !declared.hooks.some((hook) => hook.event.startsWith('PostToolUse'));
  }
}
