import { join } from 'node:path';
import { parse } from 'yaml';
import { describeProblem, readRegularFileSync } from '../../io/regularFile';

export const USER_HOOKS_FILE = '.orchestration/hooks.yaml';
export const DEFAULT_USER_HOOK_TIMEOUT_MS = 5_000;
export const MAX_USER_HOOK_TIMEOUT_MS = 60_000;

/** One command hook a human declared in `.orchestration/hooks.yaml`. */
export interface UserHookSpec {
  name: string;
  event: 'pre' | 'post';
  /** Tool names it runs for: an exact name, or a regular expression matched against the whole name. */
  matcher: string;
  command: string;
  timeoutMs: number;
}

export type UserHooksLoad = { ok: true; hooks: UserHookSpec[] } | { ok: false; message: string };

/** A policy file, not a program: anything bigger is a mistake, and it is read on every governed call. */
export const MAX_USER_HOOKS_FILE_BYTES = 256 * 1024;

/** A missing file is no hooks; a file that cannot be read or understood is an error (the caller fails closed). */
export async function loadUserHooks(root: string): Promise<UserHooksLoad> {
  // The regular-file reader: a FIFO or device put here is refused at once instead of blocking a thread.
  const read = readRegularFileSync(join(root, USER_HOOKS_FILE), { maxBytes: MAX_USER_HOOKS_FILE_BYTES });
  if (!read.ok && read.problem.kind === 'missing') return { ok: true, hooks: [] };
  if (!read.ok) return { ok: false, message: `${describeProblem(USER_HOOKS_FILE, read.problem)}; replace it with a YAML file of hooks` };
  const text = read.bytes.toString('utf8');
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return { ok: false, message: `${USER_HOOKS_FILE} is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  if (doc === null || doc === undefined) return { ok: true, hooks: [] };
  const list = (doc as { hooks?: unknown }).hooks;
  if (typeof doc !== 'object' || !Array.isArray(list)) return { ok: false, message: `${USER_HOOKS_FILE} needs a top-level 'hooks:' list` };
  const hooks: UserHookSpec[] = [];
  for (const [index, raw] of list.entries()) {
    const where = `${USER_HOOKS_FILE} hooks[${index}]`;
    if (typeof raw !== 'object' || raw === null) return { ok: false, message: `${where} must be a mapping` };
    const h = raw as Record<string, unknown>;
    if (typeof h.command !== 'string' || h.command.trim() === '') return { ok: false, message: `${where} needs a 'command'` };
    const event = h.event ?? 'pre';
    if (event !== 'pre' && event !== 'post') return { ok: false, message: `${where}: event must be 'pre' or 'post'` };
    const matcher = h.matcher ?? '*';
    if (typeof matcher !== 'string' || matcher === '') return { ok: false, message: `${where}: matcher must be a tool name or a regular expression` };
    if (matcher !== '*') {
      try {
        new RegExp(`^(?:${matcher})$`);
      } catch {
        return { ok: false, message: `${where}: matcher '${matcher}' is not a valid regular expression` };
      }
    }
    const timeoutMs = h.timeout_ms ?? DEFAULT_USER_HOOK_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > MAX_USER_HOOK_TIMEOUT_MS) {
      return { ok: false, message: `${where}: timeout_ms must be an integer from 100 to ${MAX_USER_HOOK_TIMEOUT_MS}` };
    }
    const name = typeof h.name === 'string' && h.name !== '' ? h.name : `hook-${index + 1}`;
    hooks.push({ name, event, matcher, command: h.command, timeoutMs });
  }
  return { ok: true, hooks };
}

export function matchesTool(matcher: string, tool: string): boolean {
  return matcher === '*' || matcher === tool || new RegExp(`^(?:${matcher})$`).test(tool);
}
