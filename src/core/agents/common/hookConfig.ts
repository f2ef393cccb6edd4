import { isOurCommand } from '../../userHooks/ourHookCommand';
import type { ConfigEdit, HookInstallContext } from './hookFileEdit';

/**
 * Merging our hooks into an agent's JSON hook configuration: the user's other hooks and keys are kept, ours
 * (recognised by their command, or by `isOurHook`) are replaced or removed. Pure: text in, text out; each agent's
 * adapter says which entries are ours and the installer does the file I/O.
 */

/** Seconds an agent waits for our hook; the bridge answers "blocked" before (see --timeout-ms). */
export const AGENT_TIMEOUT_S = 120;

type Json = Record<string, unknown>;

/** How one agent's config file is shaped around its `hooks` object. */
export interface HookConfigShape {
  /** The file, relative to the workspace: named in messages. */
  file: string;
  /** Cursor and Copilot CLI: a top-level `version: 1`, which alone does not keep the file. */
  versioned?: boolean;
  /** Factory Droid's hooks.json: the file is the `hooks` object itself, its keys the events. */
  topLevel?: boolean;
  /** A hook of ours that is not a command (Claude Code's mcp_tool hooks). */
  isOurHook?: (hook: Json) => boolean;
  /** The permissions with our rules for this install (`install` undefined: uninstall, only the user's are left). */
  permissions?: (permissions: unknown, install: HookInstallContext | undefined) => unknown;
}

/** An agent whose hooks are one JSON file of the workspace: its shape and our entries in it. */
export interface JsonHooks {
  shape: HookConfigShape;
  /** `command`: the hook command every entry runs (agentHookCommand: the launcher, guarded by the agent's blocking answer). */
  entries(command: string, context: HookInstallContext): Record<string, unknown[]>;
}

/** Whether a hook list entry is ours: a command entry, or a matcher group whose hooks are all ours. */
function entryIsOurs(entry: unknown, shape: HookConfigShape): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Json;
  if (isOurCommand(e.command)) return true;
  const ours = (h: unknown) => typeof h === 'object' && h !== null && (isOurCommand((h as Json).command) || shape.isOurHook?.(h as Json) === true);
  return Array.isArray(e.hooks) && e.hooks.length > 0 && e.hooks.every(ours);
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

function withoutOurs(hooks: Json, shape: HookConfigShape): Json {
  const kept: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      kept[event] = list;
      continue;
    }
    const rest = list.filter((entry) => !entryIsOurs(entry, shape));
    if (rest.length) kept[event] = rest;
  }
  return kept;
}

/** The config with our `entries` in it (added once, replacing an older install of ours). */
export function mergeHookConfig(existing: string | undefined, entries: Record<string, unknown[]>, shape: HookConfigShape, context: HookInstallContext = {}): ConfigEdit {
  const parsed = parseConfig(existing, shape.file);
  if (!parsed.ok) return parsed;
  const config = parsed.value;
  const current = shape.topLevel ? config : typeof config.hooks === 'object' && config.hooks !== null && !Array.isArray(config.hooks) ? (config.hooks as Json) : {};
  const hooks = withoutOurs(current, shape);
  for (const [event, list] of Object.entries(entries)) {
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), ...list];
  }
  if (shape.topLevel) return { ok: true, text: `${JSON.stringify(hooks, null, 2)}\n` };
  if (shape.versioned) return { ok: true, text: `${JSON.stringify({ version: config.version ?? 1, ...config, hooks }, null, 2)}\n` };
  const permissions = shape.permissions ? shape.permissions(config.permissions, context) : config.permissions;
  const next: Json = { ...config, hooks, ...(permissions ? { permissions } : {}) };
  if (!permissions) delete next.permissions;
  return { ok: true, text: `${JSON.stringify(next, null, 2)}\n` };
}

/** The config without our hooks; null when nothing else is left in it (the file can go). */
export function removeHookConfig(existing: string | undefined, shape: HookConfigShape): ConfigEdit {
  if (existing === undefined) return { ok: true, text: null };
  const parsed = parseConfig(existing, shape.file);
  if (!parsed.ok) return parsed;
  if (shape.topLevel) {
    const rest = withoutOurs(parsed.value, shape);
    return { ok: true, text: Object.keys(rest).length === 0 ? null : `${JSON.stringify(rest, null, 2)}\n` };
  }
  const config = { ...parsed.value };
  const hooks = typeof config.hooks === 'object' && config.hooks !== null && !Array.isArray(config.hooks) ? withoutOurs(config.hooks as Json, shape) : config.hooks;
  if (hooks !== undefined && typeof hooks === 'object' && hooks !== null && Object.keys(hooks).length === 0) delete config.hooks;
  else if (hooks !== undefined) config.hooks = hooks;
  const permissions = shape.permissions ? shape.permissions(config.permissions, undefined) : config.permissions;
  if (permissions === undefined) delete config.permissions;
  else config.permissions = permissions;
  const meaningful = Object.keys(config).filter((k) => !(shape.versioned && k === 'version'));
  return { ok: true, text: meaningful.length === 0 ? null : `${JSON.stringify(config, null, 2)}\n` };
}
