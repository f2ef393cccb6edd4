import { lstatSync, readdirSync, type BigIntStats, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { managedProtectsPaths, protectedPatternFor } from '../paths/protectedPaths';
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
  /** False when even the names were too many to scan (MAX_SCANNED): protected paths past it are not known. */
  protectedComplete: boolean;
  /** Names read so far. */
  scanned: number;
}

export interface SnapshotChange {
  rel: string;
  kind: 'created' | 'modified' | 'deleted';
}

/** Enough for a scope's folders; a walk past it (a node_modules in scope) says so rather than taking seconds. */
export const MAX_ENTRIES = 50_000;
/** Names scanned for protected entries past MAX_ENTRIES (a readdir each folder, no stat): beyond it, no confinement. */
export const MAX_SCANNED = 2_000_000;

/**
 * Stats every entry under the writable roots (size, mtime, ctime, inode, mode), without reading contents: the
 * snapshot before and after a confined command tells which files it changed, and only those are read and hashed.
 */
export async function snapshotRoots(workspaceRoot: string, roots: readonly WritableRoot[]): Promise<RootSnapshot> {
  const snapshot: RootSnapshot = { entries: new Map(), protectedInside: [], complete: true, protectedComplete: true, scanned: 0 };
  for (const root of roots) walk(workspaceRoot, root.abs, snapshot, root.file);
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

/**
 * Synchronous on purpose: a few hundred lstat calls take well under a millisecond this way and ~10 ms through the
 * thread pool, and the command's cost is paid on every call. Past MAX_ENTRIES identities are no longer kept, but the
 * walk goes on naming protected entries (up to MAX_SCANNED names): a protected path not seen is not kept read-only,
 * and one made by the command must be found wherever it is.
 */
function walk(workspaceRoot: string, abs: string, snapshot: RootSnapshot, single: boolean): void {
  const top = statOf(abs);
  if (!top) return;
  if (single || !top.isDirectory()) {
    record(snapshot, relPath(workspaceRoot, abs), top);
    return;
  }
  // The managed file's protected paths follow no naming rule: with any, every path gets the full check.
  const checkAll = managedProtectsPaths();
  const folders = [abs];
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    let names: Dirent[];
    try {
      names = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    snapshot.scanned += names.length;
    if (snapshot.scanned > MAX_SCANNED) {
      snapshot.protectedComplete = false;
      return;
    }
    for (const dirent of names) {
      const path = join(folder, dirent.name);
      const rel = relPath(workspaceRoot, path);
      if ((checkAll || mayBeProtected(rel)) && protectedPatternFor(rel)) {
        snapshot.protectedInside.push(path); // read-only in the sandbox; its contents are not ours to list
        continue;
      }
      if (snapshot.complete) {
        const stat = statOf(path);
        if (!stat) continue;
        if (stat.isDirectory()) folders.push(path);
        else record(snapshot, rel, stat);
      } else if (dirent.isDirectory() || (!dirent.isFile() && !dirent.isSymbolicLink() && statOf(path)?.isDirectory())) {
        folders.push(path);
      }
    }
  }
}

// Every protected pattern has a segment starting with '.', or names opencode.json(c), or .git's 8.3 alias; other
// spellings of them need non-ASCII. The full check (NFKC, folding, 40 globs) is only worth it for those paths.
const MAYBE_PROTECTED = /(^|\/)[.]|opencode|git~|[^\x20-\x7e]/i;

function mayBeProtected(rel: string): boolean {
  return MAYBE_PROTECTED.test(rel);
}

function statOf(path: string): BigIntStats | undefined {
  return lstatSync(path, { bigint: true, throwIfNoEntry: false });
}

function record(snapshot: RootSnapshot, rel: string, stat: BigIntStats): void {
  if (snapshot.entries.size >= MAX_ENTRIES) snapshot.complete = false;
  else snapshot.entries.set(rel, { size: stat.size, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs, ino: stat.ino, mode: stat.mode });
}

function relPath(workspaceRoot: string, path: string): string {
  return relative(workspaceRoot, path).split(sep).join('/');
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode;
}
