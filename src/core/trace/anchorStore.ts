import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { copyFile, mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { errnoOf } from '../ioError';
import { isChainHash, sha256Hex } from './traceChain';
import { anchorsDir } from '../paths/userStores';

/**
 * The last record a governor writer appended to a log, kept where the agent does not write (user config
 * dir, extension global storage). A verifier that cannot find this head in the log knows records were
 * removed or the chain was recomputed, which the chain alone cannot show.
 */
export interface AnchorHead {
  hash: string;
  /** 1-based line of that record, i.e. how many lines the log had. */
  line: number;
  /** Log size in bytes right after the append. */
  size: number;
  updated: string;
}

/**
 * Port for anchors. `log` names the log (its workspace-relative path); `branch` is the git ref HEAD points
 * through ('' outside git or when detached), so switching branches does not look like tampering.
 * Writers call `write` only while holding the log's cross-process lock, so writes to one log never race.
 */
export interface AnchorStore {
  read(log: string, branch: string): Promise<AnchorHead | undefined>;
  write(log: string, branch: string, head: AnchorHead): Promise<void>;
  /** Hashes of `discontinuity` records a human accepted on this machine (`governor trace reanchor`). */
  accepted(log: string): Promise<Set<string>>;
  /** Adds to the accepted set; kept apart from the heads, which writers rewrite on every append. */
  accept(log: string, hashes: string[]): Promise<void>;
}

interface AnchorFile {
  workspace: string;
  log: string;
  heads: Record<string, AnchorHead>;
}

/** `$INTENT_GOVERNOR_ANCHOR_DIR`, else `<config dir>/intent-governor/anchors` (XDG on Unix, APPDATA on Windows). */
export function defaultAnchorDir(env: NodeJS.ProcessEnv = process.env): string {
  return anchorsDir(env);
}

/** Anchor files are padded to whole pages and rewritten in place. */
const PAGE = 4096;
/** Heads kept per log; the least recently updated branches are dropped first. */
const MAX_BRANCHES = 32;

/**
 * Anchors as small JSON files: `<dir>/<sha256 of the workspace realpath>-<log name>.json`, one per log so
 * the trace and the governance log (each under its own lock) never overwrite each other's head.
 * Updated with one in-place write of whole pages (space-padded JSON), not temp file + rename: on ext4 a
 * rename or truncate over existing data forces a flush, which cost ~1-4 ms at p99 per append. A write torn by
 * a crash reads as "no anchor", which weakens one check and never invents tampering.
 */
export class FileAnchorStore implements AnchorStore {
  private workspaceKey: Promise<{ path: string; hash: string }> | undefined;
  /**
   * Last content seen per log, so `write` need not read first. `read` always goes to disk and refreshes it,
   * and writers call `read` whenever anyone else touched the log, so heads of other branches are kept.
   */
  private readonly docs = new Map<string, { file?: AnchorFile; bytes: number }>();
  private dirReady = false;

  /**
   * `adoptFrom`: a directory an older version kept anchors in (the extension's global storage). A log with
   * no anchor here takes its anchor file from there, once, so its history stays anchored.
   */
  constructor(
    private readonly workspaceRoot: string,
    private readonly dir: string = defaultAnchorDir(),
    private readonly options: { adoptFrom?: string } = {},
  ) {}

  async read(log: string, branch: string): Promise<AnchorHead | undefined> {
    const doc = await this.readDoc(log);
    this.docs.set(log, doc);
    const head = doc.file?.heads[branch];
    return head && typeof head.hash === 'string' && typeof head.line === 'number' ? head : undefined;
  }

  async write(log: string, branch: string, head: AnchorHead): Promise<void> {
    const { path: workspace } = await this.key();
    const doc = this.docs.get(log) ?? (await this.readDoc(log));
    const file = doc.file ?? { workspace, log, heads: {} };
    file.heads[branch] = head;
    pruneHeads(file);
    const text = JSON.stringify(file, null, 2);
    // Never shorter than what is there, so no stale bytes survive past the padding (and no truncate is needed).
    const size = Math.max(doc.bytes, Math.ceil((Buffer.byteLength(text) + 1) / PAGE) * PAGE);
    const bytes = Buffer.alloc(size, ' ');
    bytes.write(text);
    bytes[size - 1] = 10;
    await this.ensureDir();
    // Synchronous: writers call this inside their critical section (see chainedLog.ts).
    const fd = openSync(await this.fileFor(log), constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      writeSync(fd, bytes, 0, size, 0);
    } finally {
      closeSync(fd);
    }
    this.docs.set(log, { file, bytes: size });
  }

  async accepted(log: string): Promise<Set<string>> {
    const raw = await readFile(await this.fileFor(log, '.accepted.json'), 'utf8').catch(() => undefined);
    if (raw === undefined) return new Set();
    try {
      const parsed = JSON.parse(raw) as { accepted?: unknown };
      return new Set(Array.isArray(parsed.accepted) ? parsed.accepted.filter(isChainHash) : []);
    } catch {
      // A damaged file accepts nothing: the discontinuities show as tampering again, never the reverse.
      return new Set();
    }
  }

  async accept(log: string, hashes: string[]): Promise<void> {
    const { path: workspace } = await this.key();
    const all = [...new Set([...(await this.accepted(log)), ...hashes])];
    await this.ensureDir();
    const file = await this.fileFor(log, '.accepted.json');
    // Written rarely (a human's decision), so temp file + rename: never half a list.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, `${JSON.stringify({ workspace, log, accepted: all }, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, file);
  }

  /** The anchor file used for a log; exposed so tests and `governor` can tell the user where it is. */
  async fileFor(log: string, suffix = '.json', dir = this.dir): Promise<string> {
    const { hash } = await this.key();
    const name = basename(log, extname(log)).replace(/[^A-Za-z0-9_.-]/g, '_');
    return join(dir, `${hash}-${name}${suffix}`);
  }

  private async ensureDir(): Promise<void> {
    if (this.dirReady) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.dirReady = true;
  }

  private async readDoc(log: string): Promise<{ file?: AnchorFile; bytes: number }> {
    let raw = await readFile(await this.fileFor(log)).catch(() => undefined);
    if (raw === undefined && this.options.adoptFrom && (await this.adopt(log))) raw = await readFile(await this.fileFor(log)).catch(() => undefined);
    if (raw === undefined) return { bytes: 0 };
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as AnchorFile;
      const valid = typeof parsed.heads === 'object' && parsed.heads !== null;
      return { file: valid ? parsed : undefined, bytes: raw.length };
    } catch {
      return { bytes: raw.length };
    }
  }

  /** Copies the older anchor file in, unless one appeared here meanwhile (another process adopted it, or wrote). */
  private async adopt(log: string): Promise<boolean> {
    const from = await this.fileFor(log, '.json', this.options.adoptFrom);
    await this.ensureDir();
    try {
      await copyFile(from, await this.fileFor(log), constants.COPYFILE_EXCL);
      return true;
    } catch (error) {
      // Nothing to adopt, or unreadable: a migration nicety must never stop the trace from being written.
      return errnoOf(error) === 'EEXIST';
    }
  }

  private key(): Promise<{ path: string; hash: string }> {
    this.workspaceKey ??= realpath(this.workspaceRoot)
      .catch(() => resolve(this.workspaceRoot))
      .then((path) => ({ path, hash: sha256Hex(path) }));
    return this.workspaceKey;
  }
}

function pruneHeads(file: AnchorFile): void {
  const branches = Object.keys(file.heads);
  if (branches.length <= MAX_BRANCHES) return;
  branches.sort((a, b) => (file.heads[a].updated < file.heads[b].updated ? -1 : 1));
  for (const branch of branches.slice(0, branches.length - MAX_BRANCHES)) delete file.heads[branch];
}

/** Keeps anchors in memory: for tests and hosts that persist them elsewhere. */
export class MemoryAnchorStore implements AnchorStore {
  readonly heads = new Map<string, AnchorHead>();

  async read(log: string, branch: string): Promise<AnchorHead | undefined> {
    return this.heads.get(`${log}\u0000${branch}`);
  }

  async write(log: string, branch: string, head: AnchorHead): Promise<void> {
    this.heads.set(`${log}\u0000${branch}`, { ...head });
  }

  readonly acceptedHashes = new Map<string, Set<string>>();

  async accepted(log: string): Promise<Set<string>> {
    return new Set(this.acceptedHashes.get(log));
  }

  async accept(log: string, hashes: string[]): Promise<void> {
    this.acceptedHashes.set(log, new Set([...(this.acceptedHashes.get(log) ?? []), ...hashes]));
  }
}
