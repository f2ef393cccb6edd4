import type { ConfigEdit } from '../common/hookFileEdit';
import { commandWithUnposted, EVERY_TOOL } from '../common/unpostedTools';
import { isPostHook, type DeclaredHooks } from '../../userHooks/declaredHooks';

/**
 * Cline's hooks are files, one per event, in `<workspace>/.clinerules/hooks/`; Cline runs every file whose name
 * without its extension is the event's, so ours (`<Event>.sh`) sit beside a user's own `<Event>` script.
 */
export const CLINE_HOOKS_DIR = '.clinerules/hooks';

/** PreToolUse judges, PostToolUse traces, SessionShutdown frees the session (TaskStart runs detached: no handshake). */
export const CLINE_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionShutdown'] as const;

/**
 * The scripts an install writes for `command`, each event's command, or null for an event left out. Cline runs its
 * PostToolUse file for every tool (a file has no matcher), and each run is a process of its own, so there is none
 * unless a PostToolUse hook of the user's may need it (or a hook file cannot be read): the PreToolUse script says
 * every tool is unposted (unpostedTools.ts) and the resident governor completes each change itself
 * (selfCompletions.ts). Nothing else is lost: Cline's reads pass (the governor never sees them) and its commands
 * run unconfined, whose post records nothing. A command that cannot say so (Windows' form) keeps the post.
 */
export function clineHookCommands(command: string, declared: DeclaredHooks | undefined): Record<(typeof CLINE_HOOK_EVENTS)[number], string | null> {
  const postHooked = declared !== undefined && (declared.unreadable || declared.hooks.some(isPostHook));
  const pre = postHooked ? undefined : commandWithUnposted(command, [EVERY_TOOL]);
  return { PreToolUse: pre ?? command, PostToolUse: pre === undefined ? command : null, SessionShutdown: command };
}

const MARKER = '# intent-governor: written by `governor hooks install --agent cline`; `governor hooks uninstall` removes it';

export function clineHookFile(event: string): string {
  return `${CLINE_HOOKS_DIR}/${event}.sh`;
}

/**
 * Our script for one event: the shared hook command (agentHookCommand), which names the per-user launcher and, since
 * Cline runs the tool when a hook prints no JSON (node missing, the launcher missing, a crash), prints Cline's cancel
 * on every failure. The hook reads the payload from the script's stdin.
 */
export function clineHookScript(command: string): string {
  return `#!/bin/sh\n${MARKER}\n${command}\n`;
}

export function isOurClineHook(text: string): boolean {
  return text.includes(MARKER);
}

/** Our script for one event; a user's own file of that name is never overwritten. */
export function installClineHook(existing: string | undefined, file: string, command: string): ConfigEdit {
  if (existing !== undefined && !isOurClineHook(existing)) {
    return { ok: false, message: `${file} is not Intent Governor's (it has no intent-governor marker); move it to another name (Cline runs every ${file.replace(/^.*\//u, '').replace(/\.sh$/u, '')}.* file) and install again.` };
  }
  return { ok: true, text: clineHookScript(command) };
}

/** Removes only our script. */
export function uninstallClineHook(existing: string | undefined): ConfigEdit {
  if (existing === undefined) return { ok: true, text: null };
  return { ok: true, text: isOurClineHook(existing) ? null : existing };
}
