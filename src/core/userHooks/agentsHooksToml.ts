import { parse } from 'smol-toml';
import { parseHooksConfig, type HooksConfigParse } from './hooksConfig';
import type { HookSource } from './hookSpec';

/** Seed 003's four events, as the Claude Code events they are; Claude Code's own names are accepted as they are. */
const SEED_EVENTS: Record<string, string> = { pre_tool: 'PreToolUse', post_tool: 'PostToolUse', pre_message: 'UserPromptSubmit', post_message: 'Stop' };

/**
 * `[[hooks]]` tables: `name`, `events` (pre_tool, post_tool, pre_message, post_message, or Claude Code's names),
 * `command` (a shell string, or a list: a program and its arguments), optional `tools` (names) or `matcher`,
 * `mode` (`sync`, `async`), `timeout` ("5s", "500ms", "2m" or seconds), `description`. Read into Claude Code's
 * shape and checked by the same reader, so every rule (fail closed on decision events) holds for it too; post_message
 * hooks always run in the background, as in seed 003.
 */
export function parseAgentsHooksToml(text: string, source: HookSource): HooksConfigParse {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, message: `${source.file}: the file is not valid TOML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const entries = doc.hooks ?? [];
  if (!Array.isArray(entries)) return { ok: false, message: `${source.file}: hooks must be a list of [[hooks]] tables` };
  const events: Record<string, unknown[]> = {};
  const warnings: string[] = [];
  entries.forEach((entry, index) => {
    const where = `${source.file}: hooks[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return warnings.push(`${where} is not a table; skipped`);
    const hook = entry as Record<string, unknown>;
    const names = Array.isArray(hook.events) ? hook.events : [hook.events];
    const timeout = seconds(hook.timeout);
    if (typeof timeout === 'string') return warnings.push(`${where}.timeout ${timeout}; skipped`);
    for (const name of names) {
      if (typeof name !== 'string') {
        warnings.push(`${where}.events must be a list of event names; skipped`);
        continue;
      }
      const event = SEED_EVENTS[name] ?? name;
      const tools = Array.isArray(hook.tools) ? hook.tools.filter((t): t is string => typeof t === 'string').join('|') : undefined;
      const matcher = typeof hook.matcher === 'string' ? hook.matcher : tools;
      const action = Array.isArray(hook.command) ? { args: hook.command } : { command: hook.command };
      const spec = {
        type: 'command',
        ...action,
        ...(typeof hook.name === 'string' ? { name: hook.name } : {}),
        ...(timeout !== undefined ? { timeout } : {}),
        ...(hook.mode === 'async' || name === 'post_message' ? { async: true } : {}),
      };
      (events[event] ??= []).push({ ...(matcher !== undefined ? { matcher } : {}), hooks: [spec] });
    }
  });
  const parsed = parseHooksConfig({ hooks: events }, source, { strict: true });
  return parsed.ok ? { ...parsed, warnings: [...warnings, ...parsed.warnings] } : parsed;
}

/** "5s", "500ms", "2m", or a number of seconds, as whole seconds for Claude's `timeout`; a string says what is wrong. */
function seconds(value: unknown): number | undefined | string {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value > 0) return Math.ceil(value);
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim()) : null;
  if (!match) return `'${String(value)}' is not a duration such as "5s", "500ms" or "2m"`;
  const amount = Number(match[1]);
  return Math.max(1, Math.ceil(match[2] === 'ms' ? amount / 1000 : match[2] === 'm' ? amount * 60 : amount));
}
