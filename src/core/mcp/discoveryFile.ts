import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readRegularFileSync } from '../io/regularFile';
import { errnoOf } from '../ioError';
import { pidAlive } from '../trace/processIdentity';

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
  return join(env.INTENT_GOVERNOR_HOME || join(homedir(), '.intent-governor'), 'servers');
}

export function discoveryFilePath(port: number, dir: string = defaultServersDir()): string {
  return join(dir, `${port}.json`);
}

/**
 * Writes `<dir>/<port>.json` holding the token. The content goes to a temp file created 0600 with O_EXCL
 * (so it is never world-readable, not even between create and chmod, and a planted symlink is not
 * followed), then is renamed over the target, so readers never see half a file.
 */
export async function writeDiscoveryFile(entry: DiscoveryEntry, dir: string = defaultServersDir()): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a directory that already existed (or to parents created on the way).
  await chmod(dir, 0o700);
  const target = discoveryFilePath(entry.port, dir);
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
  for (const name of names.filter((n) => /^\d+\.json$/.test(n)).sort()) {
    const file = join(dir, name);
    const text = readEntryText(file) ?? '';
    const entry = parseEntry(text);
    if (!entry) continue;
    if (pidAlive(entry.pid)) live.push({ ...entry, file });
    else await removeIfUnchanged(file, text);
  }
  return live;
}
