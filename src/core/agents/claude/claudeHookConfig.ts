import { AGENT_TIMEOUT_S, type JsonHooks } from '../common/hookConfig';
import type { ClaudeHookKind } from '../common/hookFileEdit';
import { OWN_MCP_PREFIX } from './claudeDialect';
import { claudeRouting, postToolMatcher, preToolMatcher, routingText, type ClaudeRouting } from './claudeRouting';
import { RESIDENT_HOOK_FIELDS, RESIDENT_HOOK_TOOL, RESIDENT_HOOK_TOOL_FOR_MODEL, RESIDENT_ROUTING_FIELD, RESIDENT_SERVER_NAME } from './residentHook';
import { NO_DECLARED_HOOKS } from '../../userHooks/declaredHooks';
import { CLAUDE_CODE_DOOR } from '../../userHooks/hookLayerFiles';

type Json = Record<string, unknown>;

/** Claude's local settings file: the command names this machine's path, so it stays out of the repository. */
export const CLAUDE_HOOK_FILE = '.claude/settings.local.json';

/**
 * The command hooks' matchers. PreToolUse also takes every other MCP server's tool (a regular expression, which
 * Claude Code tests unanchored): without it they ran unchecked, whatever the plan's mcp_tools said.
 */
const MATCHERS = {
  PreToolUse: `^(?:Write|Edit|MultiEdit|NotebookEdit|Bash|Read)$|^mcp__(?!${OWN_MCP_PREFIX.slice('mcp__'.length)})`,
  PostToolUse: 'Write|Edit|MultiEdit|Read|Bash',
};

/** Events that only the user's hooks (.orchestration/hooks.json, ~/.intent-governor/hooks.json) answer: forwarded so they hold for this agent too. */
const LIFECYCLE = ['PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification'];

/**
 * An `mcp_tool` hook calling the resident governor's hook tool with the whole hook input and the routing its
 * matchers were written for; a server that is not there blocks.
 */
function residentHook(routing: ClaudeRouting): Json {
  return {
    type: 'mcp_tool',
    server: RESIDENT_SERVER_NAME,
    tool: RESIDENT_HOOK_TOOL,
    input: { ...Object.fromEntries(RESIDENT_HOOK_FIELDS.map((field) => [field, `\${${field}}`])), [RESIDENT_ROUTING_FIELD]: routingText(routing) },
    onFailure: 'block',
    timeout: AGENT_TIMEOUT_S,
  };
}

function isOurResidentHook(hook: Json): boolean {
  return hook.type === 'mcp_tool' && hook.server === RESIDENT_SERVER_NAME && hook.tool === RESIDENT_HOOK_TOOL;
}

/**
 * With the resident governor: every event goes to the hook tool, tool events as `routing` says (see
 * claudeRouting.ts: PreToolUse for every tool but the read-only ones nothing needs, so a tool the governor does
 * not know, other MCP servers' included, never passes unchecked; PostToolUse for Read and whatever the user's hooks
 * need); SessionStart and SessionEnd stay command hooks (Claude Code offers mcp_tool hooks no MCP client there, and
 * SessionEnd frees what a running extension kept). Otherwise a command hook per event.
 */
export function claudeHookEntries(command: string, kind: ClaudeHookKind, routing: ClaudeRouting = claudeRouting({ hooks: [], unreadable: false })): Record<string, unknown[]> {
  const commands = [{ type: 'command', command, timeout: AGENT_TIMEOUT_S }];
  if (kind === 'mcp_tool') {
    const resident = [residentHook(routing)];
    return {
      PreToolUse: [{ matcher: preToolMatcher(routing), hooks: resident }],
      PostToolUse: [{ matcher: postToolMatcher(routing), hooks: resident }],
      SessionStart: [{ hooks: commands }],
      UserPromptSubmit: [{ hooks: resident }],
      SessionEnd: [{ hooks: commands }],
      ...Object.fromEntries(LIFECYCLE.map((event) => [event, [{ hooks: resident }]])),
    };
  }
  return {
    PreToolUse: [{ matcher: MATCHERS.PreToolUse, hooks: commands }],
    PostToolUse: [{ matcher: MATCHERS.PostToolUse, hooks: commands }],
    SessionStart: [{ hooks: commands }],
    UserPromptSubmit: [{ hooks: commands }],
    // Frees what the running extension keeps for the conversation (its read ledger).
    SessionEnd: [{ hooks: commands }],
    ...Object.fromEntries(LIFECYCLE.map((event) => [event, [{ hooks: commands }]])),
  };
}

/** Permissions without our deny rule; undefined when nothing of the user's is left. */
function withoutOurDeny(permissions: unknown): unknown {
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) return permissions;
  const rest = { ...(permissions as Json) };
  if (Array.isArray(rest.deny)) {
    const deny = rest.deny.filter((rule) => rule !== RESIDENT_HOOK_TOOL_FOR_MODEL);
    if (deny.length) rest.deny = deny;
    else delete rest.deny;
  }
  return Object.keys(rest).length ? rest : undefined;
}

/** The model must not call the hook tool itself (a hook's call skips permission checks, the model's does not). */
function withHookToolDenied(permissions: unknown): unknown {
  const base = typeof permissions === 'object' && permissions !== null && !Array.isArray(permissions) ? (permissions as Json) : {};
  const deny = Array.isArray(base.deny) ? base.deny : [];
  return { ...base, deny: [...deny, RESIDENT_HOOK_TOOL_FOR_MODEL] };
}

/** Claude Code's settings file: our hooks, and while the resident governor answers them, the hook tool denied to the model. */
export const claudeHooks: JsonHooks = {
  shape: {
    file: CLAUDE_HOOK_FILE,
    isOurHook: isOurResidentHook,
    permissions: (permissions, install) => ((install?.claudeHooks ?? 'mcp_tool') === 'mcp_tool' && install ? withHookToolDenied(withoutOurDeny(permissions)) : withoutOurDeny(permissions)),
  },
  entries: (command, context) => claudeHookEntries(command, context.claudeHooks ?? 'mcp_tool', claudeRouting(context.declaredHooks?.(CLAUDE_CODE_DOOR) ?? NO_DECLARED_HOOKS)),
};
