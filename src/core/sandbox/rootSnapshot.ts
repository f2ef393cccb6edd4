import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { protectedPatternFor } from '../paths/protectedPaths';
import type { WritableRoot } from './writableRoots';

/** What identifies a file's version without reading it: any write changes ctime, which no command can set back. */
interface Identity {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  mode: bigint;
}

export interface RootSnapshot {
  /** Workspace-relative POSIX path → identity, for every file and link under the writable roots. */
  entries: Map<string, Identity>;
  /** Protected folders and files found under the roots (`.git`, `.vscode`…): bound read-only over the root. */
  protectedInside: string[];
  /** False when the walk stopped at MAX_ENTRIES: changes past it are not seen. */
  complete: boolean;
}

export interface SnapshotChange {
  rel: string;
  kind: 'created' | 'modified' | 'deleted';
}

/** Enough for a scope's folders; a walk past it (a node_modules in scope) says so rather than taking seconds. */
export const MAX_ENTRIES = 50_000;

/**
 * Stats every entry under the writable roots (size, mtime, ctime, inode, mode), without reading contents: the
 * snapshot before and after a confined command tells which files it changed, and only those are read and hashed.
 */
export async function snapshotRoots(workspaceRoot: string, roots: readonly WritableRoot[]): Promise<RootSnapshot> {
  const snapshot: RootSnapshot = { entries: new Map(), protectedInside: [], complete: true };
  for (const root of roots) await walk(workspaceRoot, root.abs, snapshot, root.file);
  return snapshot;
}

export function diffSnapshots(before: RootSnapshot, after: RootSnapshot): SnapshotChange[] {
  const changes: SnapshotChange[] = [];
  for (const [rel, now] of after.entries) {
    const was = before.entries.get(rel);
    if (!was) changes.push({ rel, kind: 'created' });
    else if (!sameIdentity(was, now)) changes.push({ rel, kind: 'modified' });
  }
  for (const rel of before.entries.keys()) if (!after.entries.has(rel)) changes.push({ rel, kind: 'deleted' });
  return changes.sort((a, b) => a.rel.localeCompare(b.rel));
}

async function walk(workspaceRoot: string, abs: string, snapshot: RootSnapshot, single: boolean): Promise<void> {
  const stack = [abs];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    const rel = relative(workspaceRoot, path).split(sep).join('/');
    if (rel !== '' && path !== abs && protectedPatternFor(rel)) {
      snapshot.protectedInside.push(path);
      continue; // read-only in the sandbox; its contents are not ours to list
    }
    const stat = await lstat(path, { bigint: true }).catch(() => undefined);
    if (!stat) continue;
    if (stat.isDirectory() && !single) {
      const names = await readdir(path).catch(() => [] as string[]);
      for (const name of names) stack.push(join(path, name));
      continue;
    }
    if (snapshot.entries.size >= MAX_ENTRIES) {
      snapshot.complete = false;
      return;
    }
    snapshot.entries.set(rel, { size: stat.size, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs, ino: stat.ino, mode: stat.mode });
  }
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode;
}
