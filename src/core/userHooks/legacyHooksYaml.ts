import { parse } from 'yaml';
import { LEGACY_HOOKS_FILE } from './hookLayerFiles';
import { commandHash, specHash } from './hookApprovals';
import type { HookSpec } from './hookSpec';

/**
 * `.orchestration/hooks.yaml`, the first user-hook format (a `hooks:` list of `{name, event: pre|post, matcher,
 * command, timeout_ms}`), read into the same HookSpec as Claude Code's format, so nobody's hooks silently stop.
 * Its meaning is kept: event pre/post, timeout in milliseconds (5 s by default), and a matcher that is an exact
 * tool name or a regular expression over the whole name.
 */

export const LEGACY_MIGRATION_NOTE = `${LEGACY_HOOKS_FILE} still works; move its hooks to .orchestration/hooks.json (Claude Code's hooks format); \`governor hooks list\` shows them`;

const DEFAULT_TIMEOUT_MS = 5_000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 60_000;

/** Claude Code's exact-name list; anything else was a regular expression over the whole name. */
const NAME_LIST = /^[A-Za-z0-9_\-,| ]+$/;

export type LegacyHooksParse = { ok: true; hooks: HookSpec[]; notes: string[] } | { ok: false; message: string };

export function parseLegacyHooksYaml(text: string): LegacyHooksParse {
  const fail = (message: string): LegacyHooksParse => ({ ok: false, message: `${LEGACY_HOOKS_FILE}: ${message}` });
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return fail(`the file is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
  if (doc === null || doc === undefined) return { ok: true, hooks: [], notes: [] };
  const list = (doc as { hooks?: unknown }).hooks;
  if (typeof doc !== 'object' || !Array.isArray(list)) return fail(`the file needs a top-level 'hooks:' list`);
  const hooks: HookSpec[] = [];
  for (const [index, raw] of list.entries()) {
    const where = `hooks[${index}]`;
    if (typeof raw !== 'object' || raw === null) return fail(`${where} must be a mapping`);
    const h = raw as Record<string, unknown>;
    if (typeof h.command !== 'string' || h.command.trim() === '') return fail(`${where} needs a 'command'`);
    const event = h.event ?? 'pre';
    if (event !== 'pre' && event !== 'post') return fail(`${where}: event must be 'pre' or 'post'`);
    const matcher = h.matcher ?? '*';
    if (typeof matcher !== 'string' || matcher === '') return fail(`${where}: matcher must be a tool name or a regular expression`);
    if (matcher !== '*') {
      try {
        new RegExp(`^(?:${matcher})$`);
      } catch {
        return fail(`${where}: matcher '${matcher}' is not a valid regular expression`);
      }
    }
    const timeoutMs = h.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS) {
      return fail(`${where}: timeout_ms must be an integer from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}`);
    }
    hooks.push({
      id: `${LEGACY_HOOKS_FILE}#${where}`,
      identity: specHash({ file: LEGACY_HOOKS_FILE, event, matcher, command: h.command, timeoutMs }),
      name: typeof h.name === 'string' && h.name !== '' ? h.name : `hook-${index + 1}`,
      event: event === 'pre' ? 'PreToolUse' : 'PostToolUse',
      // Claude Code tests a regex unanchored; this file always meant the whole name.
      matcher: matcher === '*' || NAME_LIST.test(matcher) ? matcher : `^(?:${matcher})$`,
      action: { type: 'command', command: h.command },
      timeoutMs,
      async: false,
      asyncRewake: false,
      once: false,
      onFailure: event === 'pre' ? 'block' : 'continue',
      source: { layer: 'legacy', file: LEGACY_HOOKS_FILE },
      // The command's own hash, as before: approvals given to this file still hold.
      approvalHash: commandHash(h.command),
    });
  }
  return { ok: true, hooks, notes: hooks.length > 0 ? [LEGACY_MIGRATION_NOTE] : [] };
}
