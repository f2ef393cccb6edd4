import type { HookEventName } from './hookEvents';

/**
 * Which doors fire which event (README "Events, and which door fires them"). An event no door fires is still
 * accepted in a hooks file (it came from Claude Code's documentation); its hooks are listed as not fired here.
 */
export const HOOK_DOORS = ['MCP', 'VS Code tools', 'Claude Code', 'VS Code agent', 'Cursor'] as const;
export type HookDoorName = (typeof HOOK_DOORS)[number];

const EVERY: readonly HookDoorName[] = HOOK_DOORS;
const NATIVE: readonly HookDoorName[] = ['Claude Code', 'VS Code agent'];

const FIRED_BY: Partial<Record<HookEventName, readonly HookDoorName[]>> = {
  SessionStart: ['MCP', 'Claude Code', 'VS Code agent'],
  SessionEnd: ['MCP', 'Claude Code'],
  UserPromptSubmit: ['Claude Code', 'VS Code agent', 'Cursor'],
  PreToolUse: EVERY,
  PostToolUse: EVERY,
  PostToolUseFailure: ['MCP', 'VS Code tools', 'Claude Code'],
  PermissionRequest: EVERY,
  PermissionDenied: ['MCP', 'VS Code tools', 'Claude Code', 'VS Code agent'],
  Stop: [...NATIVE, 'Cursor'],
  SubagentStop: [...NATIVE, 'Cursor'],
  SubagentStart: NATIVE,
  PreCompact: NATIVE,
  Notification: ['Claude Code'],
  IntentSelected: ['MCP', 'VS Code tools', 'VS Code agent'],
  ScopeExpansionRequested: ['MCP', 'VS Code tools'],
  TraceRecorded: EVERY,
};

/**
 * Events no agent's call fires: a watcher does, whichever agents are working (VS Code's extension, the resident
 * governor that serves agents' hooks when no VS Code governs the folder). Observations: nothing here can block.
 */
const FIRED_BY_WATCHER: Partial<Record<HookEventName, string>> = {
  // A block cannot undo a change already on disk: it is logged (docs/user-hooks.md, "Events a watcher fires").
  ConfigChange: 'fired by VS Code and the resident governor on a hooks file change; a block is logged',
  FileChanged: 'fired by VS Code only, when a file its matcher names or a watchPaths lists changes',
  CwdChanged: 'fired by VS Code only, when the workspace folders change',
};

/** The doors that fire `event`; empty for events a watcher fires and those only Claude Code itself fires (Setup, …). */
export function doorsFiring(event: HookEventName): readonly HookDoorName[] {
  return FIRED_BY[event] ?? [];
}

/** What a listing says about an event some doors do not fire; undefined when every door fires it. */
export function notFiredText(event: HookEventName): string | undefined {
  const watcher = FIRED_BY_WATCHER[event];
  if (watcher !== undefined) return watcher;
  const firing = doorsFiring(event);
  if (firing.length === HOOK_DOORS.length) return undefined;
  return `not fired by ${HOOK_DOORS.filter((door) => !firing.includes(door)).join(', ')}`;
}
