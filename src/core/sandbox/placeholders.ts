import { chmodSync, lstatSync, mkdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTECTED_ENTRIES } from '../paths/protectedPaths';
import type { Confinement, Placeholder } from './confinement';
import type { WritableRoot } from './writableRoots';
import { storeIn } from '../paths/userStores';

export interface PlannedPlaceholders {
  placeholders: Placeholder[];
  /** Folders bubblewrap makes on the way to a placeholder (`.github` for `.github/hooks`): removed with them. */
  parents: string[];
}

/**
 * Where a protected name is made most dangerously: `.git` and `.orchestration` in any folder (git, VS Code's git and
 * the governor act on a repository or plan wherever one appears); agents' hooks and configuration at the workspace
 * root, where agents read them. Each placeholder is a mount (about 0.3 ms), so the others below the root are left to
 * the after-check, which removes them once the command ends.
 */
const AT_EVERY_ROOT: ReadonlySet<string> = new Set(['.git', '.orchestration']);

/**
 * The protected names absent under each writable folder, by name and not by what exists: `.git` and `.orchestration`
 * under every root, every protected name at the workspace root. bubblewrap makes each mount point on disk.
 * Synchronous, as the snapshot is: a few lstat calls, paid on every command, cost less than the thread pool's trip.
 */
export function plannedPlaceholders(roots: readonly WritableRoot[]): PlannedPlaceholders {
  const placeholders: Placeholder[] = [];
  const parents = new Set<string>();
  for (const root of roots) {
    if (root.file) continue;
    for (const entry of PROTECTED_ENTRIES) {
      if (root.rel !== '' && !AT_EVERY_ROOT.has(entry.rel)) continue;
      const path = join(root.abs, entry.rel);
      if (statOf(path)) continue;
      const segments = entry.rel.split('/');
      let blocked = false;
      for (let depth = 1; depth < segments.length; depth++) {
        const parent = join(root.abs, ...segments.slice(0, depth));
        const stat = statOf(parent);
        if (stat === undefined) parents.add(parent);
        else if (!stat.isDirectory()) blocked = true; // `.github` is a file: nothing can be made below it
      }
      if (!blocked) placeholders.push({ path, kind: entry.kind });
    }
  }
  return { placeholders, parents: [...parents] };
}

/**
 * The empty folder and file the placeholders are bound from: in the governor's home, which the sandbox hides after
 * binding them, so no command can put anything in them. Made once per home, read-only.
 */
export function emptySources(home: string): Confinement['emptySource'] {
  const base = storeIn(home, 'sandbox');
  const dir = join(base, 'empty');
  const file = join(base, 'empty-file');
  if (!statOf(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o555);
  }
  if (!statOf(file)) {
    try {
      writeFileSync(file, '', { mode: 0o444, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return { dir, file };
}

/** After the command: the mount points bubblewrap left on disk go, when still empty (nothing could write into them). */
export function removePlaceholders(planned: PlannedPlaceholders): void {
  for (const { path, kind } of planned.placeholders) {
    const stat = statOf(path);
    if (!stat) continue;
    try {
      if (kind === 'dir' && stat.isDirectory()) rmdirSync(path);
      else if (kind === 'file' && stat.isFile() && stat.size === 0) unlinkSync(path);
    } catch {
      // not empty after all, or gone: left as it is
    }
  }
  for (const parent of [...planned.parents].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(parent);
    } catch {
      // holds something else now
    }
  }
}

function statOf(path: string): ReturnType<typeof lstatSync> {
  return lstatSync(path, { throwIfNoEntry: false });
}
