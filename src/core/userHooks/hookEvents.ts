/**
 * Every event a user hook can be declared for: Claude Code's names (its hooks reference, 2026-11), plus the
 * governor's own. A file copied from Claude Code loads whole; which door fires which event is hookEventDoors.ts.
 */
export const CLAUDE_HOOK_EVENTS = [
  'Setup',
  'SessionStart',
  'SessionEnd',
  'InstructionsLoaded',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionRequest',
  'PermissionDenied',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'PreCompact',
  'PostCompact',
  'Notification',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreModelSwitch',
  'PostModelSwitch',
  'MessageDisplay',
  'DirectoryAdded',
] as const;

export const GOVERNOR_HOOK_EVENTS = ['IntentSelected', 'ScopeExpansionRequested', 'TraceRecorded'] as const;

export type HookEventName = (typeof CLAUDE_HOOK_EVENTS)[number] | (typeof GOVERNOR_HOOK_EVENTS)[number];

export const HOOK_EVENTS: readonly HookEventName[] = [...CLAUDE_HOOK_EVENTS, ...GOVERNOR_HOOK_EVENTS];

/**
 * Events whose hooks can stop or change what happens next at a governor's door. A failing hook blocks them by
 * default; on every other event (an observation) a failure is logged and the agent carries on. A malformed entry
 * for one of these makes its file a problem (decisions fail closed); on the others it is skipped with a warning.
 */
export const DECISION_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>([
  'PreToolUse',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'ScopeExpansionRequested',
]);

/** Events about one tool call: their matcher is compared with the call's tool names (native and governed). */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);

export function isHookEventName(value: unknown): value is HookEventName {
  return typeof value === 'string' && (HOOK_EVENTS as readonly string[]).includes(value);
}

/** The known event a misspelt name most likely means (same letters ignoring case, `_` and `-`), for the warning. */
export function closestHookEvent(name: string): HookEventName | undefined {
  const key = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');
  return HOOK_EVENTS.find((event) => key(event) === key(name));
}
