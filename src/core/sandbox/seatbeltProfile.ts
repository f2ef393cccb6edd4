import { PROTECTED_ENTRIES } from '../paths/protectedPaths';
import type { Confinement } from './confinement';

/**
 * The macOS sandbox profile for a confined command, in the order bubblewrap mounts (a later rule wins in SBPL):
 * writes denied, then allowed in the caches, denied in the workspace, allowed in the scope's roots and temp folder,
 * denied again on the protected paths and, by name, on every protected name at any depth below a root whether it
 * exists or not; the governor's stores can be neither read nor written. Seatbelt checks the real path, so links the
 * command makes lead nowhere new. Paths must be realpath'd (/private/tmp).
 */
export function seatbeltProfile(confinement: Confinement): string {
  const quote = (path: string) => `"${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const subpaths = (paths: readonly string[]) => paths.map((p) => `(subpath ${quote(p)})`).join(' ');
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  if (confinement.needs.length > 0) lines.push(`(allow file-write* ${subpaths(confinement.needs)})`);
  lines.push(`(deny file-write* ${subpaths([confinement.workspaceRoot])})`);
  lines.push(`(allow file-write* ${subpaths([...confinement.writable, confinement.tempDir])} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/"))`);
  if (confinement.readOnlyInside.length > 0) lines.push(`(deny file-write* ${subpaths(confinement.readOnlyInside)})`);
  // macOS folds case: `.Claude` is `.claude` there, so each letter matches either case.
  const names = PROTECTED_ENTRIES.map((entry) => caseless(regexEscape(entry.rel))).join('|');
  for (const root of confinement.writable) lines.push(`(deny file-write* (regex #"^${regexEscape(root)}/(.*/)?(${names})(/.*)?$"))`);
  if (confinement.hidden.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(confinement.hidden)})`);
  // The terminal the agent runs in: no TIOCSTI (typing into it) from inside.
  lines.push('(deny file-ioctl (literal "/dev/tty"))');
  if (confinement.denyNetwork) lines.push('(deny network-outbound (remote ip))', '(deny network-inbound (local ip))', '(deny network-outbound (remote unix-socket))');
  return lines.join('\n');
}

function caseless(pattern: string): string {
  return pattern.replace(/[a-z]/gi, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);
}

function regexEscape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|"]/g, '\\$&');
}
