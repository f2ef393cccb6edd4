import { codexHookEntries } from '../codex/codexHookConfig';
import { copilotHookEntries } from '../copilot/copilotHookConfig';
import { geminiHookEntries } from '../gemini/geminiHookConfig';
import { RESIDENT_HOOK_FIELDS, RESIDENT_HOOK_TOOL, RESIDENT_HOOK_TOOL_FOR_MODEL, RESIDENT_SERVER_NAME } from '../claude/residentHook';

/**
 * The hook configuration each agent reads, merged into what is there: the user's other hooks and keys are
 * kept, ours (recognised by their command: `node "<cli>" hook <agent>`) are replaced or removed. Pure: text in,
 * text out; the host command and `governor hooks` do the file I/O.
 */
export type HookAgent = 'vscode' | 'claude' | 'cursor' | 'gemini' | 'codex' | 'copilot' | 'opencode' | 'cline';
export const HOOK_AGENTS: readonly HookAgent[] = ['vscode', 'claude', 'cursor', 'gemini', 'codex', 'copilot', 'opencode', 'cline'];

/** Seconds the agent waits for our hook; the bridge answers "blocked" before (see --timeout-ms). */
const AGENT_TIMEOUT_S = 120;
const BRIDGE_TIMEOUT_MS = 110_000;

/** Where each agent reads its hooks, relative to the workspace. Claude's local file: the command names this machine's path. */
export const HOOK_CONFIG_FILES: Record<HookAgent, string> = {
  vscode: '.github/hooks/intent-governor.json',
  claude: '.claude/settings.local.json',
  cursor: '.cursor/hooks.json',
  gemini: '.gemini/settings.json',
  // Codex loads a project's .codex/ only once the person trusts the project, and runs each hook once trusted (see codexHookTrust).
  codex: '.codex/hooks.json',
  // GitHub Copilot CLI reads every .github/hooks/*.json (VS Code's agent too): a file of its own, beside VS Code's.
  copilot: '.github/hooks/intent-governor-copilot.json',
  // OpenCode's hooks are plugins: a module of ours (opencodePlugin.ts) rather than a JSON config.
  opencode: '.opencode/plugins/intent-governor.js',
  // Cline's hooks are a script per event in this folder (clineHookFiles.ts).
  cline: '.clinerules/hooks/',
};

export function hookCommandLine(cliPath: string, agent: HookAgent): string {
  return `node ${JSON.stringify(cliPath)} hook ${agent} --timeout-ms ${BRIDGE_TIMEOUT_MS}`;
}

export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && /^node "[^"]+" hook (vscode|claude|cursor|gemini|codex|copilot)\b/.test(command);
}

type Json = Record<string, unknown>;
export type ConfigEdit = { ok: true; text: string | null } | { ok: false; message: string };

const CLAUDE_MATCHERS = { PreToolUse: 'Write|Edit|MultiEdit|NotebookEdit|Bash|Read', PostToolUse: 'Write|Edit|MultiEdit|Read|Bash' };

/** Events that only the user's hooks (.orchestration/hooks.json, ~/.intent-governor/hooks.json) answer: forwarded so they hold for this agent too. */
const CLAUDE_LIFECYCLE = ['PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification'];
const VSCODE_LIFECYCLE = ['Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];

/**
 * How Claude Code reaches the governor: `mcp_tool` hooks answered by the resident governor (no process per tool
 * call, one session state; Claude Code 2.1.118+), or a command hook per event (older versions).
 */
export type ClaudeHookKind = 'mcp_tool' | 'command';

export interface HookInstallOptions {
  claudeHooks?: ClaudeHookKind;
}

/** An `mcp_tool` hook calling the resident governor's hook tool with the whole hook input; a server that is not there blocks. */
function residentHook(): Json {
  return {
    type: 'mcp_tool',
    server: RESIDENT_SERVER_NAME,
    tool: RESIDENT_HOOK_TOOL,
    input: Object.fromEntries(RESIDENT_HOOK_FIELDS.map((field) => [field, `\${${field}}`])),
    onFailure: 'block',
    timeout: AGENT_TIMEOUT_S,
  };
}

function isOurResidentHook(hook: Json): boolean {
  return hook.type === 'mcp_tool' && hook.server === RESIDENT_SERVER_NAME && hook.tool === RESIDENT_HOOK_TOOL;
}

/**
 * Claude Code with the resident governor: every tool (matcher `*`, so no tool passes unchecked, other MCP
 * servers' included) and every event goes to the hook tool; SessionStart and SessionEnd stay command hooks
 * (Claude Code offers mcp_tool hooks no MCP client there, and SessionEnd frees what a running extension kept).
 */
function claudeResidentEntries(command: string): Record<string, unknown[]> {
  const resident = [residentHook()];
  const commands = [{ type: 'command', command, timeout: AGENT_TIMEOUT_S }];
  return {
    PreToolUse: [{ matcher: '*', hooks: resident }],
    PostToolUse: [{ matcher: '*', hooks: resident }],
    SessionStart: [{ hooks: commands }],
    UserPromptSubmit: [{ hooks: resident }],
    SessionEnd: [{ hooks: commands }],
    ...Object.fromEntries(CLAUDE_LIFECYCLE.map((event) => [event, [{ hooks: resident }]])),
  };
}

/** Our entries per event, in each agent's shape. */
function ourEntries(agent: HookAgent, command: string, options: HookInstallOptions): Record<string, unknown[]> {
  if (agent === 'claude' && (options.claudeHooks ?? 'mcp_tool') === 'mcp_tool') return claudeResidentEntries(command);
  if (agent === 'gemini') return geminiHookEntries(command);
  if (agent === 'codex') return codexHookEntries(command);
  if (agent === 'copilot') return copilotHookEntries(command);
  if (agent === 'claude') {
    const hooks = [{ type: 'command', command, timeout: AGENT_TIMEOUT_S }];
    return {
      PreToolUse: [{ matcher: CLAUDE_MATCHERS.PreToolUse, hooks }],
      PostToolUse: [{ matcher: CLAUDE_MATCHERS.PostToolUse, hooks }],
      SessionStart: [{ hooks }],
      UserPromptSubmit: [{ hooks }],
      // Frees what the running extension keeps for the conversation (its read ledger).
      SessionEnd: [{ hooks }],
      ...Object.fromEntries(CLAUDE_LIFECYCLE.map((event) => [event, [{ hooks }]])),
    };
  }
  if (agent === 'vscode') {
    const entry = { type: 'command', command, timeout: AGENT_TIMEOUT_S };
    return { PreToolUse: [entry], PostToolUse: [entry], SessionStart: [entry], UserPromptSubmit: [entry], ...Object.fromEntries(VSCODE_LIFECYCLE.map((event) => [event, [entry]])) };
  }
  const entry = { command };
  return { beforeShellExecution: [entry], beforeReadFile: [entry], afterFileEdit: [entry], beforeSubmitPrompt: [entry], stop: [entry] };
}

/** Whether a hook list entry is ours: a command entry, or (Claude) a matcher group whose hooks are all ours. */
function entryIsOurs(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Json;
  if (isOurCommand(e.command)) return true;
  return Array.isArray(e.hooks) && e.hooks.length > 0 && e.hooks.every((h) => typeof h === 'object' && h !== null && (isOurCommand((h as Json).command) || isOurResidentHook(h as Json)));
}

function parseConfig(text: string | undefined, file: string): { ok: true; value: Json } | { ok: false; message: string } {
  if (text === undefined || text.trim() === '') return { ok: true, value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: `${file} is not a JSON object; fix or remove it first` };
    return { ok: true, value: value as Json };
  } catch (error) {
    return { ok: false, message: `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); it was left unchanged` };
  }
}

function withoutOurs(hooks: Json): Json {
  const kept: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      kept[event] = list;
      continue;
    }
    const rest = list.filter((entry) => !entryIsOurs(entry));
    if (rest.length) kept[event] = rest;
  }
  return kept;
}

/** The config with our hooks in it (added once, replacing an older install of ours). */
export function installHookConfig(agent: HookAgent, existing: string | undefined, cliPath: string, options: HookInstallOptions = {}): ConfigEdit {
  const parsed = parseConfig(existing, HOOK_CONFIG_FILES[agent]);
  if (!parsed.ok) return parsed;
  const config = parsed.value;
  const current = typeof config.hooks === 'object' && config.hooks !== null && !Array.isArray(config.hooks) ? (config.hooks as Json) : {};
  const hooks = withoutOurs(current);
  for (const [event, entries] of Object.entries(ourEntries(agent, hookCommandLine(cliPath, agent), options))) {
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), ...entries];
  }
  const resident = agent === 'claude' && (options.claudeHooks ?? 'mcp_tool') === 'mcp_tool';
  const permissions = withHookToolDenied(withoutOurDeny(config.permissions), resident);
  const next: Json = agent === 'cursor' || agent === 'copilot' ? { version: config.version ?? 1, ...config, hooks } : { ...config, hooks, ...(permissions ? { permissions } : {}) };
  if (!permissions) delete next.permissions;
  return { ok: true, text: `${JSON.stringify(next, null, 2)}\n` };
}

/** The config without our hooks; null when nothing else is left in it (the file can go). */
export function uninstallHookConfig(agent: HookAgent, existing: string | undefined): ConfigEdit {
  if (existing === undefined) return { ok: true, text: null };
  const parsed = parseConfig(existing, HOOK_CONFIG_FILES[agent]);
  if (!parsed.ok) return parsed;
  const config = { ...parsed.value };
  const hooks = typeof config.hooks === 'object' && config.hooks !== null && !Array.isArray(config.hooks) ? withoutOurs(config.hooks as Json) : config.hooks;
  if (hooks !== undefined && typeof hooks === 'object' && hooks !== null && Object.keys(hooks).length === 0) delete config.hooks;
  else if (hooks !== undefined) config.hooks = hooks;
  const permissions = withoutOurDeny(config.permissions);
  if (permissions === undefined) delete config.permissions;
  else config.permissions = permissions;
  const meaningful = Object.keys(config).filter((k) => !((agent === 'cursor' || agent === 'copilot') && k === 'version'));
  return { ok: true, text: meaningful.length === 0 ? null : `${JSON.stringify(config, null, 2)}\n` };
}

/** The model must not call the hook tool itself (a hook's call skips permission checks, the model's does not). */
function withHookToolDenied(permissions: unknown, resident: boolean): unknown {
  if (!resident) return permissions;
  const base = typeof permissions === 'object' && permissions !== null && !Array.isArray(permissions) ? (permissions as Json) : {};
  const deny = Array.isArray(base.deny) ? base.deny : [];
  return { ...base, deny: [...deny, RESIDENT_HOOK_TOOL_FOR_MODEL] };
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
