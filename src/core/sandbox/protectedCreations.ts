import { lstatSync, rmSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { RootSnapshot } from './rootSnapshot';

/** A protected path the confined command made below a writable folder, and whether it is gone again. */
export interface ProtectedCreation {
  rel: string; // workspace-relative POSIX
  removed: boolean;
}

/**
 * The after-check that never skips protected paths: every protected entry under the roots now that was not there
 * before the command (`src/auth/n/.git`, a nested `.claude`) is removed, whatever it holds. The placeholders keep
 * them from being made where agents read them; this finds the ones made deeper, in folders the command created.
 * An entry born before the command started is never touched, nor anything when the list before is not whole.
 */
export function undoProtectedCreations(workspaceRoot: string, before: RootSnapshot, after: RootSnapshot, startedMs: number): ProtectedCreation[] {
  if (!before.protectedComplete) return []; // what was there before is not known: nothing can be told apart
  const known = new Set(before.protectedInside);
  const found: ProtectedCreation[] = [];
  for (const path of after.protectedInside) {
    if (known.has(path)) continue;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    // birthtime is 0 where the filesystem does not keep it: then the missing entry in `before` decides alone.
    if (stat.birthtimeMs > 0 && stat.birthtimeMs < startedMs - 1000) continue;
    let removed = true;
    try {
      rmSync(path, { recursive: true, force: true }); // a link is removed itself, never what it points to
    } catch {
      removed = false;
    }
    found.push({ rel: relative(workspaceRoot, path).split(sep).join('/'), removed });
  }
  return found;
}

/** What the answer and the governance log say of them: each path, and that an agent may not make it. */
export function protectedMadeMessage(made: readonly ProtectedCreation[]): string {
  const gone = made.filter((m) => m.removed).map((m) => m.rel);
  const left = made.filter((m) => !m.removed).map((m) => m.rel);
  return [
    ...(gone.length > 0 ? [`the sandbox refused ${gone.join(', ')}: the command made ${gone.length === 1 ? 'this protected path' : 'these protected paths'} (git, governor or agent configuration), and ${gone.length === 1 ? 'it was' : 'they were'} removed again`] : []),
    ...(left.length > 0 ? [`the command made the protected ${left.length === 1 ? 'path' : 'paths'} ${left.join(', ')}, which could not be removed: remove ${left.length === 1 ? 'it' : 'them'} by hand before running an agent again`] : []),
  ].join('; ');
}
