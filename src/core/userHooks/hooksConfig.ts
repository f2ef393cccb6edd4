import { isOurCommand, isOurMcpToolHook } from './ourHookCommand';
import { commandHash, specHash } from './hookApprovals';
import { conditionProblem } from './hookCondition';
import { closestHookEvent, DECISION_EVENTS, isHookEventName, TOOL_EVENTS, type HookEventName } from './hookEvents';
import { matcherProblem } from './hookMatcher';
import { DEFAULT_HOOK_TIMEOUT_MS, type HookAction, type HookSource, type HookSpec, type OnFailure } from './hookSpec';

/**
 * One file's hooks in Claude Code's shape: `{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{...}]}]}}`.
 * `strict` (our own files, user and project): an event or hook type we do not know is a mistake to point out.
 * Not strict (Claude Code's `.claude/settings*.json`): a hook type we do not know is skipped with a note, our own
 * bridge entries silently (they call the governor; running them from the governor would loop), and every other
 * key of the settings file is none of our business. Unknown keys of a hook are ignored, as Claude Code does.
 * Both: Claude Code's `agent` hooks run as prompt hooks (no tools here); a user's `mcp_tool` hook, which only
 * Claude Code can call, is skipped with a note on an observation event and kept on a decision event, where its
 * `onFailure` decides (skipping it would weaken the decision).
 * Only what would weaken a decision is fatal to the file: a malformed entry of a decision event. An unknown event
 * or a malformed observation entry is a warning that costs that entry only, so the deny hooks beside it still run.
 */
export interface HooksConfigOptions {
  strict: boolean;
}

export type HooksConfigParse = { ok: true; hooks: HookSpec[]; notes: string[]; warnings: string[] } | { ok: false; message: string };

const HOOK_TYPES = ['command', 'http', 'prompt', 'agent', 'mcp_tool'] as const;
type HookType = (typeof HOOK_TYPES)[number];
const TYPES_TEXT = '"command", "http", "prompt", "agent" or "mcp_tool"';

/** Said wherever an mcp_tool hook cannot run (the listing's note, the refusal, the run log). */
export const MCP_TOOL_ONLY_IN_CLAUDE_CODE = 'mcp_tool hooks run only in Claude Code';

/** Claude Code's unit is seconds; beyond ten minutes a hook is not a check but a job. */
const MAX_TIMEOUT_S = 600;
const MAX_NAME_CHARS = 60;

/** `Bash(git:*)` as a matcher: users write it; as a regex it would silently never match. */
const RULE_MATCHER = /^([A-Za-z0-9_-]+)\((.*)\)$/s;
/**
 * Tools whose permission rules take a pattern: only these read as a rule, so a regex with a group such as
 * `mcp__(github|gitlab)` stays a regex.
 */
const RULE_TOOLS = new Set(['Bash', 'Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'run_command', 'read_file', 'write_file', 'edit_file', 'delete_file', 'list_files']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SHAPE_EXAMPLE = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}`;

type Json = Record<string, unknown>;

class ConfigError extends Error {}

export function parseHooksConfig(value: unknown, source: HookSource, options: HooksConfigOptions): HooksConfigParse {
  try {
    return { ok: true, ...new ConfigReader(source, options).read(value) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, message: error.message };
    throw error;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For listings and messages: whitespace collapsed, about 60 characters. */
function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_NAME_CHARS ? flat : `${flat.slice(0, MAX_NAME_CHARS - 1)}…`;
}

class ConfigReader {
  private readonly hooks: HookSpec[] = [];
  private readonly notes: string[] = [];
  private readonly warnings: string[] = [];

  constructor(
    private readonly source: HookSource,
    private readonly options: HooksConfigOptions,
  ) {}

  private fail(where: string, what: string): never {
    throw new ConfigError(`${this.source.file}: ${where} ${what}`);
  }

  private note(where: string, what: string): void {
    this.notes.push(`${this.source.file}: ${where} ${what}`);
  }

  read(value: unknown): { hooks: HookSpec[]; notes: string[]; warnings: string[] } {
    if (!isObject(value)) this.fail('the file', `must be a JSON object such as ${SHAPE_EXAMPLE}`);
    const events = value.hooks;
    if (events === undefined || events === null) return { hooks: [], notes: [], warnings: [] };
    if (!isObject(events)) this.fail('hooks', `must be an object of events, e.g. ${SHAPE_EXAMPLE}`);
    for (const [event, groups] of Object.entries(events)) {
      if (!isHookEventName(event)) {
        const meant = closestHookEvent(event);
        this.warnings.push(`${this.source.file}: hooks.${event} is not an event Claude Code or Intent Governor has${meant ? ` (did you mean ${meant}?)` : ''}; its hooks are skipped, the rest of the file holds`);
        continue;
      }
      this.entry(event, () => {
        if (!Array.isArray(groups)) this.fail(`hooks.${event}`, `must be a list of matcher groups, e.g. [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]`);
        groups.forEach((group, g) => this.entry(event, () => this.group(event, group, g)));
      });
    }
    return { hooks: this.hooks, notes: this.notes, warnings: this.warnings };
  }

  /** A mistake in a decision event's entry fails the file (decisions fail closed); elsewhere it skips that entry. */
  private entry(event: HookEventName, read: () => void): void {
    try {
      read();
    } catch (error) {
      if (!(error instanceof ConfigError) || DECISION_EVENTS.has(event)) throw error;
      this.warnings.push(`${error.message}; skipped (a ${event} hook decides nothing, so the rest of the file holds)`);
    }
  }

  private group(event: HookEventName, group: unknown, g: number): void {
    const where = `hooks.${event}[${g}]`;
    if (!isObject(group)) this.fail(where, 'must be an object with "matcher" and "hooks"');
    const written = group.matcher ?? '';
    if (typeof written !== 'string') this.fail(`${where}.matcher`, 'must be a string: tool names (Edit|Write) or a regular expression; leave it out for every tool');
    let matcher: string = written;
    let condition: string | undefined;
    const rule = RULE_MATCHER.exec(matcher);
    if (rule && RULE_TOOLS.has(rule[1])) {
      const problem = conditionProblem(matcher);
      if (problem) this.fail(`${where}.matcher:`, problem);
      const list = Array.isArray(group.hooks) ? group.hooks : [];
      if (list.some((hook) => isObject(hook) && hook.if !== undefined)) {
        this.fail(`${where}.matcher`, `'${matcher}' is a permission rule and its hooks have their own "if"; write "matcher": "${rule[1]}" and put both conditions in one "if" per hook`);
      }
      this.note(`${where}.matcher`, `'${matcher}' is a permission rule: read as "matcher": "${rule[1]}" with "if": "${matcher}" (write it that way to silence this note)`);
      condition = matcher;
      matcher = rule[1];
    }
    const problem = matcherProblem(matcher);
    if (problem) this.fail(`${where}:`, problem);
    if (!Array.isArray(group.hooks)) this.fail(`${where}.hooks`, 'must be a list of hooks, e.g. [{"type": "command", "command": "./check.sh"}]');
    group.hooks.forEach((hook, h) => this.entry(event, () => this.hook(event, matcher, condition, hook, `${where}.hooks[${h}]`)));
  }

  private hook(event: HookEventName, matcher: string, groupCondition: string | undefined, hook: unknown, where: string): void {
    if (!isObject(hook)) this.fail(where, `must be an object with a "type": ${TYPES_TEXT}`);
    const type = hook.type;
    if (typeof type !== 'string') this.fail(where, `needs a "type": ${TYPES_TEXT}`);
    // Ours is how Claude Code reaches the resident governor: running it from the governor would ask itself.
    if (isOurMcpToolHook(hook)) {
      if (this.options.strict) this.note(where, "is Intent Governor's own mcp_tool hook (Claude Code's way to the resident governor); skipped here");
      return;
    }
    if (!(HOOK_TYPES as readonly string[]).includes(type)) {
      if (this.options.strict) this.fail(`${where}.type`, `'${type}' is not a hook type Intent Governor runs; use ${TYPES_TEXT}`);
      this.note(where, `is a hook of type '${type}', which only Claude Code runs; skipped here`);
      return;
    }
    if (type === 'mcp_tool' && !DECISION_EVENTS.has(event)) {
      // It decides nothing, so leaving it to Claude Code weakens nothing.
      this.note(where, `calls the MCP tool ${String(hook.server)}/${String(hook.tool)}: ${MCP_TOOL_ONLY_IN_CLAUDE_CODE}; on ${event}, which decides nothing, it is skipped here`);
      return;
    }
    if (!this.options.strict && type === 'command' && isOurCommand(hook.command)) return;
    const action = this.action(type as HookType, hook, where);
    const flags = { async: this.flag(hook, 'async', where), asyncRewake: this.flag(hook, 'asyncRewake', where), once: this.flag(hook, 'once', where) };
    if ((flags.async || flags.asyncRewake) && DECISION_EVENTS.has(event)) {
      // As in Claude Code: it runs, in the background, and whatever it answers decides nothing.
      this.note(where, `has "${flags.async ? 'async' : 'asyncRewake'}": true on ${event}: it runs in the background and cannot block the call (remove it for a hook that decides)`);
    }
    if (type === 'agent') this.note(where, 'is an agent hook: runs as a prompt hook here: no tools (one model judgement on its prompt and the hook input, answering {"ok": …, "reason": …})');
    const onFailure = this.onFailure(event, hook, where);
    if (action.type === 'mcp_tool') {
      this.note(where, `calls the MCP tool ${action.server}/${action.tool}: ${MCP_TOOL_ONLY_IN_CLAUDE_CODE}; on ${event} it never runs here, and its onFailure ("${onFailure}") ${onFailure === 'block' ? 'refuses what it matches' : 'lets what it matches go on without it'}`);
    }
    const condition = this.condition(event, hook, groupCondition, where);
    const spec: HookSpec = {
      id: `${this.source.file}#${where.slice('hooks.'.length)}`,
      identity: specHash({ file: this.source.file, event, matcher, if: condition ?? null, action, ...flags, onFailure: hook.onFailure ?? null, timeout: hook.timeout ?? null }),
      name: this.optionalString(hook, 'name', where) || shorten(actionText(action)),
      event,
      matcher,
      action,
      timeoutMs: this.timeout(hook, where),
      ...flags,
      onFailure,
      source: this.source,
      // A sh command keeps the hash hooks.yaml gave it; PowerShell's is of the whole action (another program runs it).
      approvalHash: 'command' in action && action.shell === undefined ? commandHash(action.command) : specHash(action),
    };
    if (condition !== undefined) spec.if = condition;
    const label = this.optionalString(hook, 'name', where);
    if (label) spec.label = label;
    const statusMessage = this.optionalString(hook, 'statusMessage', where);
    if (statusMessage) spec.statusMessage = statusMessage;
    this.hooks.push(spec);
  }

  private action(type: HookType, hook: Json, where: string): HookAction {
    switch (type) {
      case 'command':
        return this.commandAction(hook, where);
      case 'http':
        return this.httpAction(hook, where);
      case 'prompt':
      case 'agent': {
        if (typeof hook.prompt !== 'string' || hook.prompt.trim() === '') this.fail(`${where}.prompt`, 'must be a non-empty string; $ARGUMENTS in it is replaced by the hook input JSON');
        const model = this.optionalString(hook, 'model', where);
        return { type: 'prompt', prompt: hook.prompt, ...(model ? { model } : {}), ...(type === 'agent' ? { agent: true as const } : {}) };
      }
      case 'mcp_tool':
        return this.mcpToolAction(hook, where);
    }
  }

  private mcpToolAction(hook: Json, where: string): HookAction {
    for (const key of ['server', 'tool'] as const) {
      const value = hook[key];
      if (typeof value !== 'string' || value.trim() === '') this.fail(`${where}.${key}`, `must be a non-empty string: the MCP ${key === 'server' ? "server's name in Claude Code's config" : "tool's name on that server"}`);
    }
    const input = hook.input ?? {};
    if (!isObject(input)) this.fail(`${where}.input`, 'must be an object of the tool\'s arguments, e.g. "input": {"path": "${tool_input.file_path}"}');
    return { type: 'mcp_tool', server: hook.server as string, tool: hook.tool as string, input: { ...input } };
  }

  private commandAction(hook: Json, where: string): HookAction {
    const how = '"command" (a shell string) or "args" (a program and its arguments, no shell)';
    if (hook.command !== undefined && hook.args !== undefined) this.fail(where, `has both "command" and "args"; keep one: ${how}`);
    if (hook.command === undefined && hook.args === undefined) this.fail(where, `needs ${how}`);
    if (hook.command !== undefined) {
      if (typeof hook.command !== 'string' || hook.command.trim() === '') this.fail(`${where}.command`, 'must be a non-empty shell command, e.g. "command": "./scripts/check.sh"');
      const shell = hook.shell;
      if (shell !== undefined && shell !== 'sh' && shell !== 'bash' && shell !== 'powershell') this.fail(`${where}.shell`, 'must be "sh" (the default) or "powershell"');
      return shell === 'powershell' ? { type: 'command', command: hook.command, shell } : { type: 'command', command: hook.command };
    }
    const args = hook.args;
    if (!Array.isArray(args) || args.length === 0 || !args.every((arg) => typeof arg === 'string') || args[0] === '') {
      this.fail(`${where}.args`, 'must be a non-empty list of strings, the program first, e.g. "args": ["node", "scripts/check.js"]');
    }
    return { type: 'command', args: [...(args as string[])] };
  }

  private httpAction(hook: Json, where: string): HookAction {
    const example = 'e.g. "url": "http://127.0.0.1:8080/hook"';
    if (typeof hook.url !== 'string') this.fail(`${where}.url`, `must be an http: or https: URL, ${example}`);
    let protocol: string;
    try {
      protocol = new URL(hook.url).protocol;
    } catch {
      this.fail(`${where}.url`, `'${hook.url}' is not a URL; write an http: or https: URL, ${example}`);
    }
    if (protocol !== 'http:' && protocol !== 'https:') this.fail(`${where}.url`, `'${hook.url}' is not http: or https:; write an http: or https: URL, ${example}`);
    const headers = hook.headers ?? {};
    if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string')) {
      this.fail(`${where}.headers`, 'must map header names to strings, e.g. "headers": {"Authorization": "Bearer $TOKEN"}');
    }
    const allowed = hook.allowedEnvVars ?? [];
    if (!Array.isArray(allowed) || !allowed.every((name) => typeof name === 'string' && ENV_NAME.test(name))) {
      this.fail(`${where}.allowedEnvVars`, 'must be a list of environment variable names, e.g. "allowedEnvVars": ["TOKEN"]');
    }
    return { type: 'http', url: hook.url, headers: { ...(headers as Record<string, string>) }, allowedEnvVars: [...(allowed as string[])] };
  }

  private flag(hook: Json, key: 'async' | 'asyncRewake' | 'once', where: string): boolean {
    const value = hook[key];
    if (value === undefined) return false;
    if (typeof value !== 'boolean') this.fail(`${where}.${key}`, 'must be true or false');
    return value;
  }

  private optionalString(hook: Json, key: 'name' | 'statusMessage' | 'model', where: string): string | undefined {
    const value = hook[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') this.fail(`${where}.${key}`, 'must be a string');
    return value;
  }

  private timeout(hook: Json, where: string): number {
    const value = hook.timeout;
    if (value === undefined) return DEFAULT_HOOK_TIMEOUT_MS;
    const whole = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_S;
    if (whole) return value * 1000;
    // Claude Code's own files may hold what Claude Code accepts: any positive number of seconds.
    if (!this.options.strict && typeof value === 'number' && Number.isFinite(value) && value > 0) {
      if (value <= MAX_TIMEOUT_S) return Math.ceil(value * 1000);
      this.note(`${where}.timeout`, `is ${value} seconds; Intent Governor stops a hook after ${MAX_TIMEOUT_S}`);
      return MAX_TIMEOUT_S * 1000;
    }
    this.fail(`${where}.timeout`, `must be a whole number of seconds from 1 to ${MAX_TIMEOUT_S} (Claude Code's unit), e.g. "timeout": 30`);
  }

  private onFailure(event: HookEventName, hook: Json, where: string): OnFailure {
    const value = hook.onFailure;
    if (value === undefined) return DECISION_EVENTS.has(event) ? 'block' : 'continue';
    if (value !== 'block' && value !== 'continue') this.fail(`${where}.onFailure`, 'must be "block" (a failing hook refuses the call) or "continue" (its failure is logged)');
    return value;
  }

  private condition(event: HookEventName, hook: Json, groupCondition: string | undefined, where: string): string | undefined {
    const value = hook.if ?? groupCondition;
    if (value === undefined) return undefined;
    if (typeof value !== 'string') this.fail(`${where}.if`, 'must be a permission rule string, e.g. "Bash(git push:*)" or "Write(src/**)"');
    const problem = conditionProblem(value);
    if (problem) this.fail(`${where}:`, problem);
    if (!TOOL_EVENTS.has(event)) {
      const events = [...TOOL_EVENTS].join(', ');
      if (this.options.strict) this.fail(`${where}.if`, `only applies to tool events (${events}); remove it, or move the hook to one of them`);
      // Without a tool call there is nothing to test: the hook runs whenever its event fires.
      this.note(`${where}.if`, `only applies to tool events (${events}); ignored on ${event}`);
      return undefined;
    }
    return value;
  }
}

function actionText(action: HookAction): string {
  switch (action.type) {
    case 'command':
      return 'command' in action ? action.command : action.args.join(' ');
    case 'http':
      return action.url;
    case 'prompt':
      return action.prompt;
    case 'mcp_tool':
      return `mcp_tool ${action.server}/${action.tool}`;
  }
}
