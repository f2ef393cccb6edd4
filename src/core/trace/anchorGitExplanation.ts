import { open } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runGit } from '../git/gitRun';
import type { AnchorHead } from './anchorStore';
import { logParts } from './sealedSegments';

/**
 * Whether git accounts for an anchored head that is missing or moved, so no writer leaves a note that would fail
 * every clone: the log on disk is what HEAD committed plus lines appended after it, and the anchored record was
 * itself committed (in HEAD's log, or in the log of the commit HEAD was before: a revert or a reset). Then a merge,
 * a fast-forward, a rebase or a revert moved it, and what such an operation dropped is `check --base`'s to judge
 * against the shared base. Records only this machine held (never committed) stay witnessed by the anchor alone.
 * A confined command cannot write `.git`, so it cannot make git vouch for a change of its own.
 */
export async function gitExplainsAnchor(root: string, log: string, anchor: AnchorHead): Promise<boolean> {
  const committed = await blobAt(root, 'HEAD', log);
  if (committed === undefined || !(await startsWith(join(root, log), committed))) return false;
  const needle = `"hash":${JSON.stringify(anchor.hash)}`;
  if (committed.includes(needle) || (await inCommittedSegment(root, log, needle))) return true;
  const before = await blobAt(root, 'HEAD@{1}', log);
  return before !== undefined && before.includes(needle);
}

/** The log's bytes as committed at `rev`, or undefined (no repository, no such commit, not committed there). */
export async function blobAt(root: string, rev: string, log: string): Promise<Buffer | undefined> {
  const run = await runGit(root, ['cat-file', 'blob', `${rev}:./${log}`]);
  return run.ok ? run.stdout : undefined;
}

/** Whether a sealed segment that HEAD committed, unchanged on disk, holds the record (a seal moved it there). */
async function inCommittedSegment(root: string, log: string, needle: string): Promise<boolean> {
  for (const part of logParts(join(root, log)).parts.slice(0, -1)) {
    const committed = await blobAt(root, 'HEAD', relative(root, part.path).split('\\').join('/'));
    if (committed !== undefined && committed.length === part.bytes && committed.includes(needle) && (await startsWith(part.path, committed))) return true;
  }
  return false;
}

async function startsWith(path: string, prefix: Buffer): Promise<boolean> {
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return prefix.length === 0;
  try {
    const bytes = Buffer.alloc(prefix.length);
    const { bytesRead } = await file.read(bytes, 0, prefix.length, 0);
    return bytesRead === prefix.length && bytes.equals(prefix);
  } finally {
    await file.close();
  }
}
