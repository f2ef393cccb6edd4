import { fail, toolError, type Result } from '../toolError';
import { canonicalizePath, type CanonicalPath, type PathOptions } from './canonicalPath';

/**
 * Where a file named in a trace record is, for opening it in an editor. A log is a file anyone with the workspace
 * can edit, so its paths are untrusted input: they go through the canonicaliser like an agent's read, and one
 * that leads outside the workspace (`..`, absolute, a link out) is refused with a message for the human.
 */
export async function resolveRecordedPath(root: string, recorded: string, options: PathOptions): Promise<Result<CanonicalPath>> {
  const resolved = await canonicalizePath(root, recorded, 'read', options);
  if (resolved.ok) return resolved;
  const shown = JSON.stringify(String(recorded).slice(0, 200));
  if (resolved.error.code === 'PATH_OUTSIDE_WORKSPACE') {
    const message = `The trace names ${shown}, which is outside the workspace, so it was not opened. Records name workspace files only: run "Intent Governor: Verify Agent Trace" to see whether the log was edited.`;
    return fail(toolError('PATH_OUTSIDE_WORKSPACE', message, { path: recorded }));
  }
  return fail(toolError(resolved.error.code, `The trace names ${shown}, which cannot be opened safely: ${resolved.error.message}`, { path: recorded }));
}
