import { posix } from 'node:path';
import type { Intent } from '../intents/intent';
import { canonicalizePath, type CanonicalPath } from '../paths/canonicalPath';
import { protectedPathError, protectedPatternFor } from '../paths/protectedPaths';
import { fail, ok, toolError, type Result } from '../toolError';
import { hookTrustStores, ONLY_A_PERSON, trustStoreAt } from './hookTrustRules';
import { matchScope, scopeViolationError } from '../policy/scope';

export interface CommandTarget extends CanonicalPath {
  /** rm -r, mkdir and friends name directories; those are checked by what they contain. */
  directory: boolean;
}

/**
 * A path a shell command writes, resolved as the shell would from the command's cwd. A leading `~` is the
 * home directory to the shell, so it is refused here rather than joined onto the cwd as a literal name.
 */
export async function canonicalizeCommandTarget(root: string, cwdRel: string, target: string, caseInsensitive: boolean): Promise<Result<CommandTarget>> {
  if (target.startsWith('~')) {
    return fail(toolError('PATH_OUTSIDE_WORKSPACE', `The command writes '${target}', which the shell expands to the home directory, outside the workspace.`, { path: target }));
  }
  const joined = posix.isAbsolute(target) ? target : posix.join(cwdRel || '.', target);
  const asFile = await canonicalizePath(root, joined, 'write', { caseInsensitive });
  if (asFile.ok) return ok({ ...asFile.value, directory: false });
  if (asFile.error.meta?.reason !== 'directory') return asFile;
  const asDirectory = await canonicalizePath(root, joined, 'read', { caseInsensitive });
  return asDirectory.ok ? ok({ ...asDirectory.value, directory: true }) : asDirectory;
}

/** The same protected-path and scope checks write_file gets; a directory must have its contents in scope. */
export async function checkCommandTarget(root: string, cwdRel: string, target: string, intent: Intent, caseInsensitive: boolean): Promise<Result<CommandTarget>> {
  const resolved = await canonicalizeCommandTarget(root, cwdRel, target, caseInsensitive);
  if (!resolved.ok) return resolved;
  const { rel, abs, directory } = resolved.value;
  // A workspace can hold the stores (a home folder opened as the workspace); the real path decides, whatever the cwd.
  const store = trustStoreAt(abs, hookTrustStores());
  if (store) return fail(toolError('COMMAND_DENIED', `The command writes '${rel}', which is in ${store.what}: ${ONLY_A_PERSON}. Do not retry this command; ask the user.`, { path: rel }));
  const pattern = protectedPatternFor(rel);
  if (pattern) return fail(protectedPathError(rel, pattern));
  const probe = directory ? `${rel}/any-file` : rel;
  if (!matchScope(probe, intent.owned_scope, { caseInsensitive })) return fail(scopeViolationError(rel, intent.id, intent.owned_scope));
  return resolved;
}
