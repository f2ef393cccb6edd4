import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalizePath } from '../paths/canonicalPath';
import { runProcess } from '../process/processRunner';
import type { ExecutedFile } from './commandPolicy';

/** What git says about the files a command executes. */
export interface CommitCheck {
  changed: string[]; // workspace-relative paths that differ from the last commit (or were never committed)
  unverifiable: string[]; // why some could not be checked; each one is a reason to ask
}

export interface CommitCheckOptions {
  caseInsensitive: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

// git status over a handful of pathspecs takes milliseconds; past this the repository is unusually slow or stuck.
const DEFAULT_TIMEOUT_MS = 3000;
const MAX_OUTPUT_BYTES = 1 << 20;
const GLOB = /[*?[]/;

/**
 * Which of the files a command executes differ from the last git commit: modified, staged, deleted, untracked,
 * or ignored (so never committed). One `git status` answers for all of them. What git cannot vouch for (a path
 * outside the workspace, no repository, git missing, slow or failing) comes back as unverifiable: fail closed.
 */
export async function checkCommitted(root: string, cwdRel: string, files: readonly ExecutedFile[], options: CommitCheckOptions): Promise<CommitCheck> {
  const check: CommitCheck = { changed: [], unverifiable: [] };
  const literal = new Set<string>();
  const specs = new Set<string>();
  for (const file of files) {
    const rel = workspaceRelative(root, cwdRel, file.path);
    if (rel === null) {
      check.unverifiable.push(`runs ${file.path}, which is outside the workspace, so git cannot vouch for it`);
      continue;
    }
    for (const candidate of file.upward ? upward(rel) : [rel]) {
      if (GLOB.test(candidate)) {
        specs.add(`:(glob)${candidate === '' ? '.' : candidate}`);
        continue;
      }
      const real = candidate === '' ? { ok: true as const, value: { rel: '' } } : await canonicalizePath(root, candidate, 'read', { caseInsensitive: options.caseInsensitive });
      if (!real.ok) {
        check.unverifiable.push(`runs ${candidate}, which resolves outside the workspace or cannot be read (${real.error.message})`);
        continue;
      }
      // A link is judged by what it points at as well as by itself.
      for (const p of new Set([candidate, real.value.rel])) {
        literal.add(p);
        specs.add(`:(literal)${p === '' ? '.' : p}`);
      }
    }
  }
  if (specs.size === 0) return check;
  const prefix = repositoryPrefix(root);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  const run = await runProcess(
    'git',
    ['--no-optional-locks', '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--', ...specs],
    { cwd: root, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES, env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' }, signal: options.signal },
  );
  if (run.exitCode !== 0 || run.truncated || prefix === null) {
    const why = run.timedOut ? 'git status timed out' : run.cancelled ? 'the call was cancelled' : (run.stderr.trim().split('\n')[0] || `git exited with ${run.exitCode ?? run.signal}`);
    check.unverifiable.push(`cannot check with git whether what it runs changed since the last commit (${why}; is the workspace a git repository?)`);
    return check;
  }
  const changed = new Set<string>();
  for (const entry of statusEntries(run.stdout)) {
    const rel = entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path;
    // An ignored folder is listed whole; it matters only when a file the command runs is inside it.
    if (entry.status === '!!' && rel.endsWith('/') && ![...literal].some((p) => `${p}/`.startsWith(rel))) continue;
    changed.add(rel);
  }
  check.changed = [...changed];
  return check;
}

/** `cwdRel`-relative (or absolute) `file` as a workspace-relative path ('' is the root); null when outside. */
function workspaceRelative(root: string, cwdRel: string, file: string): string | null {
  if (file.startsWith('~')) return null;
  const rel = path.isAbsolute(file) ? path.relative(root, file).split(path.sep).join('/') : path.posix.normalize(path.posix.join(cwdRel || '.', file));
  if (rel === '' || rel === '.') return '';
  if (rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel)) return null;
  return rel.replace(/\/+$/, '');
}

/** `dir/name`, then the same name in every folder above, up to the workspace root. */
function upward(rel: string): string[] {
  const name = path.posix.basename(rel);
  const found: string[] = [];
  for (let dir = path.posix.dirname(rel); ; dir = path.posix.dirname(dir)) {
    found.push(dir === '.' ? name : `${dir}/${name}`);
    if (dir === '.' || dir === '/') return found;
  }
}

/** Where the workspace sits inside its repository ('' at the top, 'packages/app/' below it); null without one. */
function repositoryPrefix(root: string): string | null {
  const below: string[] = [];
  for (let dir = root; ; dir = path.dirname(dir)) {
    try {
      lstatSync(path.join(dir, '.git'));
      return below.length === 0 ? '' : `${below.reverse().join('/')}/`;
    } catch {
      // no .git here: keep climbing
    }
    if (path.dirname(dir) === dir) return null;
    below.push(path.basename(dir));
  }
}

/** Entries of `git status --porcelain=v1 -z`: "XY path\0", renames and copies followed by "orig\0". */
function statusEntries(output: string): Array<{ status: string; path: string }> {
  const fields = output.split('\0');
  const entries: Array<{ status: string; path: string }> = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.length < 4) continue;
    const status = field.slice(0, 2);
    entries.push({ status, path: field.slice(3) });
    if (status.includes('R') || status.includes('C')) entries.push({ status, path: fields[++i] ?? '' });
  }
  return entries;
}
