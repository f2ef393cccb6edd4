import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

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

/** Finds the repository containing `root` by walking up to a `.git` directory or `gitdir:` file; no git process. */
export async function findGitDirs(root: string): Promise<GitDirs | undefined> {
  let dir = resolve(root);
  for (;;) {
    const candidate = join(dir, '.git');
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return withCommonDir(candidate);
    if (info?.isFile()) {
      const text = await readFile(candidate, 'utf8').catch(() => '');
      const match = /^gitdir:\s*(.+)$/m.exec(text);
      if (match) return withCommonDir(resolve(dir, match[1].trim()));
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

async function withCommonDir(gitDir: string): Promise<GitDirs> {
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return { gitDir, commonDir: common ? resolve(gitDir, common.trim()) : gitDir };
}

/** Reads HEAD and resolves it through loose refs and packed-refs; undefined on an unborn branch or a broken repo. */
export async function readGitHead(dirs: GitDirs): Promise<GitHead | undefined> {
  const head = (await readFile(join(dirs.gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
  if (SHA.test(head)) return { revision: head };
  const match = /^ref:\s*(\S+)$/.exec(head);
  if (!match) return undefined;
  const ref = match[1];
  const revision = await resolveRef(dirs, ref, 0);
  return revision ? { revision, ref } : undefined;
}

async function resolveRef(dirs: GitDirs, ref: string, depth: number): Promise<string | undefined> {
  if (depth > 5 || ref.includes('..')) return undefined;
  // Per-worktree refs (HEAD-like, refs/bisect…) live in gitDir; branches and tags in commonDir.
  for (const base of dirs.gitDir === dirs.commonDir ? [dirs.gitDir] : [dirs.gitDir, dirs.commonDir]) {
    const loose = (await readFile(join(base, ref), 'utf8').catch(() => undefined))?.trim();
    if (loose === undefined) continue;
    if (SHA.test(loose)) return loose;
    const symbolic = /^ref:\s*(\S+)$/.exec(loose);
    if (symbolic) return resolveRef(dirs, symbolic[1], depth + 1);
  }
  const packed = await readFile(join(dirs.commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trim() === ref && SHA.test(line.slice(0, space))) return line.slice(0, space);
  }
  return undefined;
}

/** The ref anchors are keyed by: the branch HEAD points through, '' outside git or when detached. */
export async function currentBranch(root: string): Promise<string> {
  const dirs = await findGitDirs(root);
  return dirs ? ((await readGitHead(dirs))?.ref ?? '') : '';
}
