import { createHash, randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { errnoOf } from '../ioError';
import { pidAlive } from '../io/processIdentity';
import { homeStore } from '../paths/userStores';

/** What a local client needs to reach a running governor: written by the host, read by CLIs and agents. */
export interface DiscoveryEntry {
  port: number;
  /** The bearer token; the reason the file is 0600 in a 0700 directory. */
  token: string;
  /** The extension host's pid; an entry whose process is gone is stale. */
  pid: number;
  workspaceFolders: string[];
  url: string;
}

/** A live entry as read back, with the file it came from. */
export interface DiscoveredServer extends DiscoveryEntry {
  file: string;
}

const FILE_VERSION = 1;

/** `$INTENT_GOVERNOR_HOME/servers`, else `~/.intent-governor/servers`. */
export function defaultServersDir(env: NodeJS.ProcessEnv = process.env): string {
  return homeStore('servers', env);
}

/**
 * A file-name-safe key for a workspace folder: its base name (readable in a listing) and a hash of the whole
 * path (two folders with one name stay apart). Every window on the folder computes the same key.
 */
export function folderKey(folder: string): string {
  const name = basename(folder).replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'folder';
  return `${name}-${createHash('sha256').update(folder, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * One file per workspace folder, `<folder key>.json`, so every window and reload of a folder announces the
 * same place; an entry without a folder falls back to `<port>.json` (the name older versions used).
 */
export function discoveryFilePath(entry: Pick<DiscoveryEntry, 'port' | 'workspaceFolders'>, dir: string = defaultServersDir()): string {
  const folder = entry.workspaceFolders[0];
  return join(dir, `${folder === undefined ? String(entry.port) : folderKey(folder)}.json`);
}

/**
 * Writes the entry's discovery file (see discoveryFilePath) holding the token. The content goes to a temp file created 0600 with O_EXCL
 * (so it is never world-readable, not even between create and chmod, and a planted symlink is not
 * followed), then is renamed over the target, so readers never see half a file.
 */
export async function writeDiscoveryFile(entry: DiscoveryEntry, dir: string = defaultServersDir()): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a directory that already existed (or to parents created on the way).
  await chmod(dir, 0o700);
  const target = discoveryFilePath(entry, dir);
  const temp = join(dir, `.${entry.port}.${randomBytes(6).toString('hex')}.tmp`);
  const content = `${JSON.stringify({ version: FILE_VERSION, ...entry }, null, 2)}\n`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    // The umask can only clear bits, but say it outright: the mode is part of the contract.
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return target;
}

/** Synchronous so it also works from a process 'exit' handler; a file already gone is fine. */
export function removeDiscoveryFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * Removes the file only while it is still `pid`'s entry: once another window has taken the folder over, the
 * file is its announcement, not ours to delete. Synchronous, for 'exit' handlers too.
 */
export function removeOwnDiscoveryFile(path: string, pid: number = process.pid): void {
  const entry = parseEntry(readEntryText(path) ?? '');
  if (entry?.pid === pid) removeDiscoveryFile(path);
}

/** The live entry of one file, or undefined (missing, malformed, or its process is gone). */
export function readDiscoveryFile(path: string): DiscoveredServer | undefined {
  const entry = parseEntry(readEntryText(path) ?? '');
  return entry && pidAlive(entry.pid) ? { ...entry, file: path } : undefined;
}

function parseEntry(text: string): DiscoveryEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const ok =
    Number.isInteger(v.port) &&
    typeof v.token === 'string' &&
    Number.isInteger(v.pid) &&
    (v.pid as number) > 0 &&
    typeof v.url === 'string' &&
    Array.isArray(v.workspaceFolders) &&
    v.workspaceFolders.every((f) => typeof f === 'string');
  if (!ok) return undefined;
  return { port: v.port as number, token: v.token as string, pid: v.pid as number, workspaceFolders: v.workspaceFolders as string[], url: v.url as string };
}

/** An entry is a few hundred bytes; a bigger file is not one of ours. */
const MAX_ENTRY_BYTES = 64 * 1024;

/**
 * The text of an entry, or undefined when it is not a readable regular file. Every hook process reads these
 * before deciding, so a FIFO or device put in the directory must not block it: the non-blocking reader.
 */
function readEntryText(file: string): string | undefined {
  const read = readRegularFileSync(file, { maxBytes: MAX_ENTRY_BYTES, noFollow: true });
  return read.ok ? read.bytes.toString('utf8') : undefined;
}

/** A new server may have taken the same port (and file) since we read it; only the stale content is removed. */
async function removeIfUnchanged(file: string, text: string): Promise<void> {
  if (readEntryText(file) === text) removeDiscoveryFile(file);
}

/**
 * The servers that are running now. Entries of dead processes (a crashed or killed host never removed its
 * file) are deleted as they are found; unreadable or malformed files are skipped and left for a human.
 */
export async function readDiscoveryFiles(dir: string = defaultServersDir()): Promise<DiscoveredServer[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  const live: DiscoveredServer[] = [];
  // Folder-named entries and the `<port>.json` ones of older versions; dot files are temp files mid-write.
  for (const name of names.filter((n) => /^[^.].*\.json$/.test(n)).sort()) {
    const file = join(dir, name);
    const text = readEntryText(file) ?? '';
    const entry = parseEntry(text);
    if (!entry) continue;
    if (pidAlive(entry.pid)) live.push({ ...entry, file });
    else await removeIfUnchanged(file, text);
  }
  return live;
}
