import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { FileDerived } from '../io/fileDerived';
import { readRegularFile } from '../io/regularFile';

/** Where a repository keeps HEAD (`gitDir`) and its refs (`commonDir`; differs for linked worktrees). */
export interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/** The commit HEAD points at and, unless detached, the branch ref it points through. */
export interface GitHead {
  revision: string;
  ref?: string;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** packed-refs of a large monorepo runs to megabytes; nothing git keeps here is near this. */
const MAX_GIT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A git metadata file's text, or undefined. Through the non-blocking regular-file reader: these are read while a
 * call is decided, and a FIFO at .git/HEAD would otherwise hold a thread-pool thread forever, which also keeps
 * the hook process from exiting after its deadline.
 */
async function gitFile(path: string, seen?: string[]): Promise<string | undefined> {
  seen?.push(path);
  const read = await readRegularFile(path, { maxBytes: MAX_GIT_FILE_BYTES });
  return read.ok ? read.bytes.toString('utf8') : undefined;
}

/** Finds the repository containing `root` by walking up to a `.git` directory or `gitdir:` file; no git process. */
export async function findGitDirs(root: string): Promise<GitDirs | undefined> {
  let dir = resolve(root);
  for (;;) {
    const candidate = join(dir, '.git');
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return withCommonDir(candidate);
    if (info?.isFile()) {
      const text = (await gitFile(candidate)) ?? '';
      const match = /^gitdir:\s*(.+)$/m.exec(text);
      if (match) return withCommonDir(resolve(dir, match[1].trim()));
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

async function withCommonDir(gitDir: string): Promise<GitDirs> {
  const common = await gitFile(join(gitDir, 'commondir'));
  return { gitDir, commonDir: common ? resolve(gitDir, common.trim()) : gitDir };
}

/** Reads HEAD and resolves it through loose refs and packed-refs; undefined on an unborn branch or a broken repo. */
export async function readGitHead(dirs: GitDirs, seen?: string[]): Promise<GitHead | undefined> {
  const head = ((await gitFile(join(dirs.gitDir, 'HEAD'), seen)) ?? '').trim();
  if (SHA.test(head)) return { revision: head };
  const match = /^ref:\s*(\S+)$/.exec(head);
  if (!match) return undefined;
  const ref = match[1];
  const revision = await resolveRef(dirs, ref, 0, seen);
  return revision ? { revision, ref } : undefined;
}

async function resolveRef(dirs: GitDirs, ref: string, depth: number, seen?: string[]): Promise<string | undefined> {
  if (depth > 5 || ref.includes('..')) return undefined;
  // Per-worktree refs (HEAD-like, refs/bisect…) live in gitDir; branches and tags in commonDir.
  for (const base of dirs.gitDir === dirs.commonDir ? [dirs.gitDir] : [dirs.gitDir, dirs.commonDir]) {
    const loose = (await gitFile(join(base, ref), seen))?.trim();
    if (loose === undefined) continue;
    if (SHA.test(loose)) return loose;
    const symbolic = /^ref:\s*(\S+)$/.exec(loose);
    if (symbolic) return resolveRef(dirs, symbolic[1], depth + 1, seen);
  }
  const packed = (await gitFile(join(dirs.commonDir, 'packed-refs'), seen)) ?? '';
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trim() === ref && SHA.test(line.slice(0, space))) return line.slice(0, space);
  }
  return undefined;
}

/**
 * readGitHead for a writer that asks on every record (twice: the record's revision, the anchor's branch): read again
 * only when one of the files the last read looked at (HEAD, the ref's loose file, packed-refs) appeared, went or
 * changed, so a record costs a few stats instead of several reads on the thread pool.
 */
export class GitHeadReader {
  private readonly derived = new FileDerived<Promise<GitHead | undefined>>();
  private files: string[];

  constructor(private readonly dirs: GitDirs) {
    this.files = [join(dirs.gitDir, 'HEAD')];
  }

  read(): Promise<GitHead | undefined> {
    return this.derived.get(this.files, () => {
      const seen: string[] = [];
      return readGitHead(this.dirs, seen).finally(() => (this.files = seen));
    });
  }
}

/** The ref anchors are keyed by: the branch HEAD points through, '' outside git or when detached. */
export async function currentBranch(root: string): Promise<string> {
  const dirs = await findGitDirs(root);
  return dirs ? ((await readGitHead(dirs))?.ref ?? '') : '';
}
