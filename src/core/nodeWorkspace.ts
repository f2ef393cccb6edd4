import { randomBytes } from 'node:crypto';
import { constants, realpathSync, type Dirent, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { problemError, readRegularFile } from './io/regularFile';
import { errnoOf, ioToolError } from './ioError';
import { toolError, type ToolError } from './toolError';
import type { EntryInfo, ReplaceOptions, StagedReplace, Workspace } from './workspace';
import { checkAncestors } from './paths/ancestorCheck';

/** Directories a recursive listing never descends into: huge, generated, and not the agent's business. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);
/** Our own temp files (see tempPathFor); a listing taken mid-replace must not show them. */
const TEMP_FILE = /^\..*\.[0-9a-f]{12}\.ig-tmp$/;

/**
 * The Workspace port over the Node file system, for the CLI, the hook bridge and tests.
 * File-system failures come back as HOOK_ERROR values with `meta.errno` (see ioError.ts), never as throws.
 * Rejects when the root does not exist, because there is nothing to govern.
 */
export async function createNodeWorkspace(root: string): Promise<Workspace> {
  const realRoot = realpathSync(root);
  return {
    root: realRoot,
    readFile: (absPath) => readFileBytes(realRoot, absPath),
    entryInfo: (absPath) => entryInfo(absPath),
    replaceFile: (absPath, data, options) => replaceFile(realRoot, absPath, data, options),
    deleteFile: (absPath, options) => deleteFile(realRoot, absPath, options),
    listFiles: (absDir, options) => listFiles(realRoot, absDir, options),
  };
}

/** A governed read holds the whole file in memory (hashing, diffs, the stale check): larger files are refused. */
export const MAX_WORKSPACE_READ_BYTES = 64 * 1024 * 1024;

/**
 * Through the regular-file reader: a FIFO, a device or a file over the cap is refused without blocking or
 * reading it, as an error whose message names the file (`src/x is a FIFO (named pipe), not a regular file:
 * refused`). Paths come canonical (realpath'd), so a final symbolic link here appeared since the check: refused.
 * A file with another name (a hard link an agent made to a file outside) is refused too: the workspace path
 * says nothing about where its bytes come from.
 */
async function readFileBytes(root: string, absPath: string): Promise<Uint8Array | undefined> {
  const read = await readRegularFile(absPath, { maxBytes: MAX_WORKSPACE_READ_BYTES, noFollow: true, singleLink: true });
  if (read.ok) return new Uint8Array(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  if (read.problem.kind === 'missing') return undefined;
  throw problemError(relativeInside(root, absPath) || absPath, read.problem);
}

async function entryInfo(absPath: string): Promise<EntryInfo | undefined> {
  const stats = await lstatOrUndefined(absPath);
  if (!stats) return undefined;
  return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

async function replaceFile(root: string, absPath: string, data: Uint8Array, options: ReplaceOptions = {}): Promise<ToolError | undefined> {
  const rel = relativeInside(root, absPath);
  if (rel === undefined || rel === '') return outsideError(absPath);
  const dir = path.dirname(absPath);
  let tempPath: string | undefined;
  try {
    const dirError = await ensureDirectory(root, dir);
    if (dirError) return dirError;
    // Before a single byte of the new content is written: no folder on the way may have become a link.
    const moved = checkAncestors(root, absPath, rel);
    if (moved) return moved;
    const existing = await lstatOrUndefined(absPath);
    if (existing?.isDirectory()) throw errnoError('EISDIR', absPath);
    // Renaming over a read-only file would succeed; refuse it as a plain write would.
    if (existing) await fs.access(absPath, constants.W_OK);
    const mode = existing?.isFile() ? existing.mode & 0o7777 : undefined;
    tempPath = tempPathFor(absPath);
    // 'wx': never reuse a path someone else created; 0o666 lets the umask decide for new files.
    const handle = await fs.open(tempPath, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode); // open() filtered the mode through the umask
      await handle.sync();
    } finally {
      await handle.close();
    }
    const veto = await runBeforeReplace(options, rel, { tempPath });
    if (veto) return veto;
    await fs.rename(tempPath, absPath);
    tempPath = undefined;
    await syncDirectory(dir);
    return undefined;
  } catch (error) {
    return ioToolError(error, 'write', rel);
  } finally {
    if (tempPath !== undefined) await fs.rm(tempPath, { force: true }).catch(() => undefined);
  }
}

async function deleteFile(root: string, absPath: string, options: ReplaceOptions = {}): Promise<ToolError | undefined> {
  const rel = relativeInside(root, absPath);
  if (rel === undefined || rel === '') return outsideError(absPath);
  try {
    const veto = await runBeforeReplace(options, rel);
    if (veto) return veto;
    await fs.unlink(absPath);
    await syncDirectory(path.dirname(absPath));
    return undefined;
  } catch (error) {
    return ioToolError(error, 'delete', rel);
  }
}

async function listFiles(
  root: string,
  absDir: string,
  options: { recursive: boolean; limit: number },
): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  if (relativeInside(root, absDir) === undefined) return { files, truncated };

  // Entries are visited in an order that makes the output sorted as full paths, so the walk can stop at
  // the limit instead of listing a whole monorepo: a directory sorts as "name/", exactly as its files will.
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: list what can be read
    }
    const sorted = entries
      .map((entry) => ({ entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry } of sorted) {
      if (truncated) return;
      const abs = path.join(dir, entry.name);
      // Dirent types come from lstat, so a symlink to a directory is never entered (no loops, no escapes).
      if (entry.isDirectory()) {
        if (options.recursive && !SKIPPED_DIRECTORIES.has(entry.name)) await walk(abs);
      } else if (entry.isFile() && !TEMP_FILE.test(entry.name)) {
        if (files.length >= options.limit) {
          truncated = true;
          return;
        }
        files.push(toPosix(path.relative(root, abs)));
      }
    }
  };
  await walk(absDir);
  return { files, truncated };
}

/** A ToolError from the check, or one standing in for a check that threw: fail closed either way. */
async function runBeforeReplace(options: ReplaceOptions, rel: string, staged?: StagedReplace): Promise<ToolError | undefined> {
  if (!options.beforeReplace) return undefined;
  try {
    return await options.beforeReplace(staged);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return toolError('HOOK_ERROR', `The final check before changing ${rel} failed (${detail}); nothing was changed. Retry the call.`, {
      path: rel,
    });
  }
}

/**
 * mkdir -p that stays inside the workspace: each missing level is created one at a time, and a level that is
 * a symbolic link is refused, so nothing is ever created through a link that appeared after the path was checked.
 */
async function ensureDirectory(root: string, dir: string): Promise<ToolError | undefined> {
  const existing = await lstatOrUndefined(dir);
  if (existing?.isDirectory()) return undefined;
  const rel = relativeInside(root, dir);
  if (rel === undefined) return outsideError(dir);
  let current = root;
  for (const segment of rel.split(path.sep).filter(Boolean)) {
    current = path.join(current, segment);
    let stats = await lstatOrUndefined(current);
    if (!stats) {
      await fs.mkdir(current).catch((error: unknown) => {
        if (errnoOf(error) !== 'EEXIST') throw error; // lost a race to another creator: fine
      });
      stats = await fs.lstat(current);
    }
    // Canonical paths hold no links (the canonicaliser resolved them), so a link here appeared since the check.
    if (stats.isSymbolicLink()) return linkedFolderError(root, current);
    if (!stats.isDirectory()) throw errnoError('ENOTDIR', current);
  }
  return undefined;
}

/** `.<base>.<12 hex>.ig-tmp` beside the target, so the final rename never crosses a file system. */
function tempPathFor(absPath: string): string {
  const base = path.basename(absPath).slice(0, 100); // keep the name under NAME_MAX
  return path.join(path.dirname(absPath), `.${base}.${randomBytes(6).toString('hex')}.ig-tmp`);
}

/** Makes the rename itself durable; some platforms cannot open or fsync a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

async function lstatOrUndefined(absPath: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(absPath);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function kindOf(stats: Stats): EntryInfo['kind'] {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

/** Workspace-relative POSIX path ('' for the root itself), or undefined when outside the root. */
function relativeInside(root: string, absPath: string): string | undefined {
  const rel = path.relative(root, absPath);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return toPosix(rel);
}

function toPosix(rel: string): string {
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

function outsideError(absPath: string): ToolError {
  return toolError('PATH_OUTSIDE_WORKSPACE', `${absPath} is outside the workspace; only files inside it can be changed.`, {
    path: absPath,
  });
}

function linkedFolderError(root: string, dir: string): ToolError {
  const rel = toPosix(path.relative(root, dir));
  return toolError('PATH_OUTSIDE_WORKSPACE', `The folder ${rel} became a symbolic link since the call was checked; nothing was written. Check the folder with the human, then retry.`, {
    path: rel,
    reason: 'path_changed',
  });
}

function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errnoError(code: string, absPath: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${absPath}`), { code, path: absPath });
}
