import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import { errnoOf } from '../ioError';
import type { AnchorHead, AnchorStore } from './anchorStore';
import { acquireLock, type LockOptions } from '../io/crossProcessLock';
import { readFully, readJsonlTail } from '../io/jsonlTail';
import {
  computeRecordHash,
  GENESIS_HASH,
  isChainHash,
  isSigningNote,
  recordLink,
  sealRecord,
  sealSignedRecord,
  SIGNATURE_KEY,
  SIGNING_KEY,
  SIGNING_SCHEME,
  signedText,
  type ChainFields,
} from './traceChain';
import type { MergeNote } from './traceRecord';
import { logParts } from './sealedSegments';
import { verifyLog } from './traceVerify';

const fdatasyncAsync = promisify(fdatasync);

/**
 * How long an acknowledged record can be lost for:
 * - `always`: never; the record is fdatasync'ed before `append` resolves (one fsync per batch of queued records).
 * - `batch`: `append` resolves once the line is written (it survives the process being killed); an fsync
 *   follows within `batchMs`, so a power loss or kernel crash can lose the last `batchMs` of records.
 * - `never`: as `batch`, but the OS decides when to flush (Linux: ~30 s); for benchmarks and throwaway logs.
 * With `batch`/`never` a power loss can also leave the anchor ahead of the file; verify then reports the
 * lost records as removed, which is what happened.
 */
export type FsyncMode = 'always' | 'batch' | 'never';

/** The writer's own records: a quarantined tail, a moved anchor, and a human's acceptance of the latter. */
export type NoteKind = 'recovery' | 'discontinuity' | 'acceptance';

export interface ChainedLogOptions {
  /** Absolute path of the JSONL file. */
  path: string;
  /** Stable name for the anchor (the workspace-relative path). */
  name: string;
  fields: ChainFields;
  fsync: FsyncMode;
  batchMs?: number;
  anchors: AnchorStore;
  /** The git ref HEAD points through ('' when none), read once per append cycle. */
  branch: () => Promise<string>;
  /** Builds the writer's own records (quarantine, vanished anchor) in this log's shape. */
  note: (kind: NoteKind, details: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** The `signature` of each record, given its canonical line with `hash` (see src/core/signing/). */
  sign?: (text: string) => unknown;
  /** The key `sign` signs with now, if any: its records name the last one it signed before (SIGNING_KEY). */
  signingKeyId?: () => string | undefined;
  /** Whether a signature on a record another process wrote is valid under the key `sign` uses now. */
  signedByMe?: (text: string, signature: unknown) => boolean;
  lock?: LockOptions;
  /**
   * Whether git accounts for the anchored head being missing or moved (a merge, rebase, revert): then the writer
   * moves its anchor without a `discontinuity` note, which would fail every clone's verify.
   */
  explainedByGit?: (anchor: AnchorHead) => Promise<boolean>;
}

interface Pending {
  record: Record<string, unknown>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What we know about the file as our last append left it; reused while nobody else has touched it. */
interface KnownTail {
  ino: number;
  size: number;
  /** Bytes of the log's sealed segments, before the working file (anchors count the whole log). */
  sealedBytes: number;
  branch: string;
  hash: string;
  line: number;
}

/** The last record signed with our key that this log knows of, and how much of the file was searched for a newer one. */
interface OwnRecord {
  keyId: string;
  /** Its recordLink, what the next record signed with the key names as `signing.prev`. */
  link: string;
  ino: number;
  /** File size up to which records were written or searched for a newer one signed with the key. */
  size: number;
}

interface SyncedTail {
  hash: string;
  line: number;
  /** The working file's size; the whole log's is sealedBytes more. */
  size: number;
  sealedBytes: number;
  notes: Record<string, unknown>[];
  merge?: MergeNote;
}

/** Most records written by one write call; bounds memory when a burst queues up. */
const MAX_BATCH = 512;

/**
 * How far back from the end (bytes, about 190 records) a writer that did not write the last records itself
 * looks for the newest record signed with its key, to name it as `signing.prev`. Not finding one only costs
 * verify one more Ed25519 check.
 */
const OWN_RECORD_SCAN = 256 * 1024;

/** Candidates with our key id checked (Ed25519) before giving up: forged ones do not make a writer search long. */
const OWN_RECORD_TRIES = 3;

/**
 * One append-only, hash-chained JSONL log shared by any number of processes. Records queue in process and
 * are appended in batches: lock, find the tail hash, write every queued line with one O_APPEND write, fsync
 * per mode, move the anchor, unlock. A torn or unparseable last line is quarantined to `<file>.corrupt`
 * first and a `recovery` record appended; committed lines are never rewritten.
 *
 * Inside the lock the small file operations are synchronous on purpose: each async call is a thread-pool
 * round trip (tens of µs, milliseconds at the tail), and every turn of the event loop while we hold the
 * lock is time other processes wait. Only fdatasync and the rare full scan are async.
 */
export class ChainedJsonlLog {
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;
  private fd: number | undefined;
  private ino = -1;
  private known: KnownTail | undefined;
  private own: OwnRecord | undefined;
  private unsynced = false;
  private fsyncTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ChainedLogOptions) {}

  /** Resolves once the record is written (and fsynced under `always`): acknowledged. */
  /** Appends one of the writer's own records (see NoteKind), built in this log's shape, chained and signed like any. */
  async appendNote(kind: NoteKind, details: Record<string, unknown>): Promise<void> {
    await this.append(await this.options.note(kind, details));
  }

  append(record: Record<string, unknown>): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Opens the file and repairs a torn tail now rather than at the first append. */
  async open(): Promise<void> {
    await this.cycle([]);
  }

  /** Waits for queued records and forces them to disk whatever the mode. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    await this.syncNow();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.cycle(batch.map((p) => p.record));
        for (const p of batch) p.resolve();
      } catch (error) {
        this.known = undefined;
        for (const p of batch) p.reject(error);
      }
    }
    this.draining = undefined;
  }

  private async cycle(records: Record<string, unknown>[]): Promise<void> {
    const { path, fields, anchors, name } = this.options;
    const branch = await this.options.branch();
    if (this.fd === undefined) await mkdir(dirname(path), { recursive: true });
    const lock = await acquireLock(`${path}.lock`, this.options.lock).catch(async (error: unknown) => {
      // The directory went away under an open log (deleted .orchestration): recreate it once.
      if (errnoOf(error) !== 'ENOENT') throw error;
      await mkdir(dirname(path), { recursive: true });
      return acquireLock(`${path}.lock`, this.options.lock);
    });
    try {
      const tail = await this.syncTail(branch);
      const all = [...tail.notes, ...records];
      if (all.length === 0) {
        // Nothing to write (an open with a healthy tail); remember the head unless a merge note is still owed.
        if (!tail.merge) this.known = { ino: this.ino, branch, hash: tail.hash, line: tail.line, size: tail.size, sealedBytes: tail.sealedBytes };
        return;
      }
      if (tail.merge) (fields(all[0]) ?? {}).merge = tail.merge;
      const { sign } = this.options;
      const keyId = sign ? this.options.signingKeyId?.() : undefined;
      let ownLink = keyId === undefined ? undefined : this.ownLink(keyId, tail.size);
      let prev = tail.hash;
      const lines = all.map((record) => {
        let line = keyId !== undefined && sign ? sealSignedRecord(record, prev, fields, keyId, sign, ownLink) : sealRecord(record, prev, fields, sign);
        const holder = fields(record);
        const signature = holder?.[SIGNATURE_KEY] as { key_id?: unknown; sig?: unknown } | undefined;
        if (keyId !== undefined && (signature?.key_id !== keyId || typeof signature.sig !== 'string')) {
          // The key changed between naming it and signing with it: seal the record without a key chain.
          line = sealRecord(record, prev, fields, sign);
        } else if (keyId !== undefined) {
          ownLink = recordLink(holder?.hash as string, keyId, signature?.sig as string);
        }
        prev = holder?.hash as string;
        return line;
      });
      const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      this.writeAll(data);
      if (this.options.fsync === 'always') await this.syncNow();
      else if (this.options.fsync === 'batch') this.scheduleSync();
      const head = { hash: prev, line: tail.line + lines.length, size: tail.size + data.length };
      if (keyId !== undefined && ownLink !== undefined) this.own = { keyId, link: ownLink, ino: this.ino, size: head.size };
      await anchors.write(name, branch, { ...head, size: tail.sealedBytes + head.size, updated: new Date().toISOString() });
      this.known = { ino: this.ino, branch, ...head, sealedBytes: tail.sealedBytes };
    } finally {
      await lock.release();
    }
  }

  /** Under the lock: reopen if the path now names another file (checkout, merge), repair, find the head. */
  private async syncTail(branch: string): Promise<SyncedTail> {
    const { path, fields, anchors, name } = this.options;
    let current;
    try {
      current = statSync(path);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
    let size: number;
    if (this.fd === undefined || !current || current.ino !== this.ino) {
      if (this.fd !== undefined) {
        // The old inode is no longer the log (a checkout replaced it); nothing of ours there needs syncing.
        if (this.fsyncTimer) clearTimeout(this.fsyncTimer);
        this.fsyncTimer = undefined;
        this.unsynced = false;
        closeSync(this.fd);
      }
      this.fd = undefined;
      this.fd = openSync(path, 'a+', 0o644);
      // A new file is only durable once its directory entry is: sync the directory too (not on Windows).
      if (!current && this.options.fsync !== 'never' && process.platform !== 'win32') syncDirectory(dirname(path));
      const opened = fstatSync(this.fd);
      this.ino = opened.ino;
      size = opened.size;
      this.known = undefined;
    } else {
      size = current.size;
    }
    const fd = this.fd;
    const known = this.known;
    if (known && known.size === size && known.branch === branch) return { hash: known.hash, line: known.line, size, sealedBytes: known.sealedBytes, notes: [] };
    const { parts, sealedBytes } = logParts(path);

    const notes: Record<string, unknown>[] = [];
    let tail = readJsonlTail(fd, size);
    let lastHash = tail.lastLine === undefined ? GENESIS_HASH : hashOfLine(tail.lastLine, fields);
    const quarantineFrom = tail.tornOffset ?? (lastHash === undefined ? tail.lastLineOffset : undefined);
    if (quarantineFrom !== undefined) {
      notes.push(await this.options.note('recovery', this.quarantine(fd, quarantineFrom, size)));
      size = quarantineFrom;
      tail = readJsonlTail(fd, size);
      lastHash = tail.lastLine === undefined ? GENESIS_HASH : hashOfLine(tail.lastLine, fields);
    }
    // A working file emptied by a seal: the head is the last sealed record.
    const head = (tail.lastLine === undefined && parts.length > 1 ? lastSealedHash(parts[parts.length - 2].path, fields) : lastHash) ?? GENESIS_HASH;
    const anchor = await anchors.read(name, branch);
    // The head alone is not enough: a record inserted before it leaves the last line as it was, but not the size.
    if (anchor && anchor.hash === head && anchor.size === sealedBytes + size) return { hash: head, line: anchor.line, size, sealedBytes, notes };

    // Someone other than a governor writer changed the file (merge, pull, crash before the anchor moved,
    // tampering), or we have no anchor yet: one full pass tells which, and how many lines there are.
    const result = await verifyLog(path, { fields, anchor });
    if (anchor && (result.anchor === 'missing' || result.anchor === 'moved') && !(await this.options.explainedByGit?.(anchor))) {
      // Once the anchor moves past this point the finding would be forgotten: the log keeps it instead.
      notes.push(await this.options.note('discontinuity', { reason: result.anchorProblem, anchored_head: anchor }));
    }
    const others = result.openHeads.filter((h) => h !== head);
    const merge = others.length && result.mergeFromLine
      ? { heads: others, chains: others.length + 1, from_line: result.mergeFromLine }
      : undefined;
    return { hash: head, line: result.records, size, sealedBytes, notes, merge };
  }

  /**
   * Under the lock: the recordLink of the newest record signed with `keyId` that this writer knows of, for
   * the next record's `signing.prev`. Bytes appended since this writer last looked (at most the last
   * OWN_RECORD_SCAN) are searched for a newer one, which another process signing with the same key wrote:
   * taken only once its signature checks out under our key, so a record forged in our name is never
   * vouched for. A remembered record no longer in the file (a checkout) is harmless: verify finds no record
   * by that link, and the chain starts again here.
   */
  private ownLink(keyId: string, size: number): string | undefined {
    const own = this.own?.keyId === keyId ? this.own : undefined;
    const from = own && own.ino === this.ino && own.size <= size ? own.size : 0;
    const found = from < size ? this.findOwnRecord(keyId, Math.max(from, size - OWN_RECORD_SCAN), from, size) : undefined;
    this.own = found ? { keyId, link: found, ino: this.ino, size } : own && { ...own, ino: this.ino, size };
    return this.own?.link;
  }

  /** Searches the file between `start` and `end` backwards for a scheme-2 record validly signed with `keyId`. */
  private findOwnRecord(keyId: string, start: number, lineStart: number, end: number): string | undefined {
    const { fields, signedByMe } = this.options;
    if (!signedByMe || this.fd === undefined) return undefined;
    const bytes = Buffer.alloc(end - start);
    readFully(this.fd, bytes, start);
    // Lines are canonical JSON, whose sorted keys put key_id first in the signing note.
    const needle = Buffer.from(`"${SIGNING_KEY}":{"key_id":${JSON.stringify(keyId)}`);
    // Where a line may start: `start` itself only when it is the start of a line.
    const first = start === lineStart ? 0 : bytes.indexOf(10) + 1;
    let tries = 0;
    for (let at = bytes.lastIndexOf(needle); at >= first && tries < OWN_RECORD_TRIES; at = at > 0 ? bytes.lastIndexOf(needle, at - 1) : -1) {
      const lineFrom = bytes.lastIndexOf(10, at) + 1;
      if (lineFrom < first) break;
      const lineEnd = bytes.indexOf(10, at);
      if (lineEnd < 0) continue;
      tries += 1;
      const line = bytes.toString('utf8', lineFrom, lineEnd);
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const holder = fields(record);
      const signature = holder?.[SIGNATURE_KEY] as { key_id?: unknown; sig?: unknown } | undefined;
      const note = holder?.[SIGNING_KEY];
      if (!isSigningNote(note) || note.key_id !== keyId || note.scheme !== SIGNING_SCHEME || !isChainHash(holder?.hash)) continue;
      if (signature?.key_id !== keyId || typeof signature.sig !== 'string') continue;
      if (signedByMe(signedText(line, record, fields), signature)) return recordLink(holder.hash, keyId, signature.sig);
    }
    return undefined;
  }

  /** Moves bytes from `offset` to the end into `<file>.corrupt` (appended, with a header), then cuts them off. */
  private quarantine(fd: number, offset: number, size: number): Record<string, unknown> {
    const bytes = Buffer.alloc(size - offset);
    readFully(fd, bytes, offset);
    const sha256 = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const header = JSON.stringify({ quarantined_at: new Date().toISOString(), from: basename(this.options.path), offset, bytes: bytes.length, sha256 });
    const corrupt = `${this.options.path}.corrupt`;
    appendFileSync(corrupt, Buffer.concat([Buffer.from(`${header}\n`), bytes, Buffer.from('\n')]));
    const corruptFd = openSync(corrupt, 'r');
    try {
      fsyncSync(corruptFd);
    } finally {
      closeSync(corruptFd);
    }
    // Only now, with the bytes safe elsewhere, cut them off; everything before `offset` stays as it was.
    ftruncateSync(fd, offset);
    fsyncSync(fd);
    return { reason: 'torn or unparseable last line moved aside', quarantine_file: basename(corrupt), offset, bytes: bytes.length, quarantined_sha256: sha256 };
  }

  private writeAll(data: Buffer): void {
    let done = 0;
    while (done < data.length) {
      // Position null = append; a regular-file write normally completes in this one call.
      done += writeSync(this.fd as number, data, done, data.length - done, null);
    }
    this.unsynced = true;
  }

  private scheduleSync(): void {
    if (this.fsyncTimer) return;
    this.fsyncTimer = setTimeout(() => void this.syncNow().catch(() => undefined), this.options.batchMs ?? 50);
    this.fsyncTimer.unref();
  }

  private async syncNow(): Promise<void> {
    if (this.fsyncTimer) clearTimeout(this.fsyncTimer);
    this.fsyncTimer = undefined;
    if (!this.unsynced || this.fd === undefined) return;
    this.unsynced = false;
    await fdatasyncAsync(this.fd);
  }
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The hash of a sealed segment's last record (undefined: none readable, which verify reports). */
function lastSealedHash(path: string, fields: ChainFields): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const tail = readJsonlTail(fd, fstatSync(fd).size);
    return tail.lastLine === undefined ? undefined : hashOfLine(tail.lastLine, fields);
  } finally {
    closeSync(fd);
  }
}

/** The chain hash a line ends with: its stated hash, or (for a record without one) its computed hash; undefined if not JSON. */
function hashOfLine(line: string, fields: ChainFields): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const stated = fields(record as Record<string, unknown>)?.hash;
  return isChainHash(stated) ? stated : computeRecordHash(record as Record<string, unknown>, fields);
}
