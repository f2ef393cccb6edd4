import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runGit } from '../git/gitRun';
import { blobAt } from './anchorGitExplanation';
import { logParts, sealedDir, segmentStem } from './sealedSegments';

/** A sealed segment as git holds it at a commit. */
export interface CommittedSegment {
  /** Workspace-relative path. */
  path: string;
  blob: string;
  lastLine: number;
}

/** Where the working file starts in the whole log when the base's sealed segments are the working tree's, unchanged. */
export interface SealedPrefix {
  lines: number;
  bytes: number;
}

/** The log's sealed segments committed at `rev`, in order (none: no segments, or no such commit). */
export async function segmentsAt(root: string, rev: string, log: string): Promise<CommittedSegment[]> {
  const dir = relative(root, sealedDir(join(root, log)));
  const run = await runGit(root, ['ls-tree', '-z', rev, '--', `${dir}/`]);
  if (!run.ok) return [];
  const stem = segmentStem(log);
  const segments: CommittedSegment[] = [];
  for (const entry of run.stdout.toString('utf8').split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/u.exec(entry);
    const name = match?.[2].split('/').at(-1) ?? '';
    const named = /^(.+)\.(\d{9})\.jsonl$/u.exec(name);
    if (match && named && named[1] === stem) segments.push({ path: `${dir}/${name}`, blob: match[1], lastLine: Number(named[2]) });
  }
  return segments.sort((a, b) => a.lastLine - b.lastLine);
}

/** The whole log's bytes at `rev`: its sealed segments then its working file (undefined: neither committed there). */
export async function logBytesAt(root: string, rev: string, log: string): Promise<Buffer | undefined> {
  const segments = await segmentsAt(root, rev, log);
  const blobs = await Promise.all(segments.map((s) => blobAt(root, rev, s.path)));
  const working = await blobAt(root, rev, log);
  if (working === undefined && segments.length === 0) return undefined;
  return Buffer.concat([...blobs.map((b) => b ?? Buffer.alloc(0)), working ?? Buffer.alloc(0)]);
}

/** The whole log's bytes in the working tree. */
export async function logBytesOnDisk(root: string, log: string): Promise<Buffer> {
  const { parts } = logParts(join(root, log));
  return Buffer.concat(await Promise.all(parts.map((p) => readFile(p.path).catch(() => Buffer.alloc(0)))));
}

/**
 * Whether the working tree's sealed segments are exactly the base's (the same names, and git finds no difference,
 * from its index's file stats rather than by reading them): then only the working files need comparing, and the
 * segments are where the working file starts. Undefined when they differ (a seal since the base), or cannot be told.
 */
export async function sameSegmentsAs(root: string, base: string, log: string): Promise<SealedPrefix | undefined> {
  const committed = await segmentsAt(root, base, log);
  const { parts, sealedBytes, sealedLines } = logParts(join(root, log));
  const onDisk = parts.slice(0, -1).map((p) => relative(root, p.path).split('\\').join('/'));
  if (onDisk.length !== committed.length || onDisk.some((path, k) => path !== committed[k].path)) return undefined;
  if (committed.length === 0) return { lines: 0, bytes: 0 };
  const diff = await runGit(root, ['diff', '--quiet', base, '--', ...onDisk]);
  return diff.ok ? { lines: sealedLines, bytes: sealedBytes } : undefined;
}
