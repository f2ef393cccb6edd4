import { isAbsolute, resolve } from 'node:path';

/** A write the sandbox stopped, as the command's own error output named it. */
export interface SandboxRefusal {
  /** Absolute path when the message named one (relative names are resolved against the command's folder). */
  path?: string;
  line: string;
}

// EROFS is what a read-only bind answers; EXDEV is a hardlink from a writable mount to a read-only one;
// EPERM is Seatbelt's answer on macOS.
const REFUSAL = /read-only file system|\bEROFS\b|invalid cross-device link|\bEXDEV\b|operation not permitted/i;
const QUOTED = /[‘'"`]([^‘’'"`\n]+)[’'"`]/g;
const MAX_REFUSALS = 20;

/**
 * The refused writes in a confined command's stderr: each line that carries the kernel's answer, with the path it
 * names where one can be told (quoted, as coreutils, Python, Node and git print it, or `sh: 1: cannot create X:`).
 */
export function sandboxRefusals(stderr: string, cwd: string): SandboxRefusal[] {
  const found: SandboxRefusal[] = [];
  for (const line of stderr.split('\n')) {
    if (!REFUSAL.test(line)) continue;
    const named = namedPath(line);
    found.push(named === undefined ? { line: line.trim() } : { path: isAbsolute(named) ? named : resolve(cwd, named), line: line.trim() });
    if (found.length >= MAX_REFUSALS) break;
  }
  return found;
}

function namedPath(line: string): string | undefined {
  const quoted = [...line.matchAll(QUOTED)].map((m) => m[1]).filter((text) => !/^(\w+|[A-Z_]+)$/.test(text) || text.includes('/') || text.includes('.'));
  // `ln: failed to create hard link 'a' => 'b'` names the new link first: that is where the write was refused.
  if (quoted.length > 0) return quoted[0];
  // sh: 1: cannot create src/x: Read-only file system / bash: line 1: src/x: Read-only file system
  const parts = line.split(': ');
  const at = parts.findIndex((part) => REFUSAL.test(part));
  if (at <= 0) return undefined;
  // `could not lock config file ../x`, `cannot create src/x`: the path is the last word of the phrase.
  const candidate = parts[at - 1].trim().split(/\s+/).pop() ?? '';
  return candidate === '' || /^(\d+|sh|bash|dash|zsh)$/.test(candidate) || /^line$/.test(candidate) ? undefined : candidate;
}
