import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { toolError, type ToolError } from '../toolError';

/**
 * Write-time check of a canonical path: every existing folder between the root and the file is still a real
 * directory, not a symbolic link. The canonicaliser resolved links when the call was checked; a folder swapped
 * for a link since (while a human looked at the approval dialog) would carry the write elsewhere. Missing
 * levels are fine: the writer creates them and refuses links there too. Synchronous: a few lstat calls under
 * the write lock, where every event-loop turn is time other writers wait.
 */
export function checkAncestors(root: string, abs: string, rel: string): ToolError | undefined {
  const below = path.relative(root, path.dirname(abs));
  if (below.startsWith('..') || path.isAbsolute(below)) return changedError(rel, 'now resolves outside the workspace');
  let current = root;
  for (const segment of below.split(path.sep).filter(Boolean)) {
    current = path.join(current, segment);
    let stats;
    try {
      stats = lstatSync(current, { throwIfNoEntry: false });
    } catch (error) {
      return changedError(rel, `could not be checked (${error instanceof Error ? error.message : String(error)})`);
    }
    if (stats === undefined) return undefined; // created by the writer, which refuses links on the way
    const shown = path.relative(root, current).split(path.sep).join('/');
    if (stats.isSymbolicLink()) return changedError(rel, `has a folder that became a symbolic link since the call was checked (${shown})`);
    if (!stats.isDirectory()) return changedError(rel, `has a folder that is no longer a directory (${shown})`);
  }
  return undefined;
}

function changedError(rel: string, what: string): ToolError {
  return toolError(
    'PATH_OUTSIDE_WORKSPACE',
    `The path ${rel} ${what}; nothing was written. Check the folder with the human, then list_files and retry.`,
    { path: rel, reason: 'path_changed' },
  );
}
