/**
 * Every event a user hook can be declared for: Claude Code's names, plus the governor's own. Which door fires
 * which event is a table in README ("Hook events per door").
 */
export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'Notification',
] as const;

export const GOVERNOR_HOOK_EVENTS = ['IntentSelected', 'ScopeExpansionRequested', 'TraceRecorded'] as const;

export type HookEventName = (typeof CLAUDE_HOOK_EVENTS)[number] | (typeof GOVERNOR_HOOK_EVENTS)[number];

export const HOOK_EVENTS: readonly HookEventName[] = [...CLAUDE_HOOK_EVENTS, ...GOVERNOR_HOOK_EVENTS];

/**
 * Events whose hooks can stop or change what happens next. A failing hook blocks them by default; on every
 * other event (an observation) a failure is logged and the agent carries on. `async` is refused on these.
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
