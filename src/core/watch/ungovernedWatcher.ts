import type { Logger } from '../logger';
import { CallWindows, type WatchedCall } from './callWindows';
import { EventBatch, judgeChange, type KnownContent } from './ungovernedChanges';

/** The port for file events: `onPath` gets workspace-relative POSIX paths; `watch` throws when it cannot start. */
export interface FileEventSource {
  watch(root: string, onPath: (rel: string) => void, onError: (error: Error) => void): { close(): void };
}

/** What a path holds now: its hash and text (null hash: no file), a folder, or something that cannot be read. */
export type CurrentContent = { hash: string | null; text?: string } | 'folder' | 'unreadable';

/** One finding to put on the record. */
export type UngovernedFinding =
  | { kind: 'change'; call: WatchedCall; path: string; before: KnownContent; after: { hash: string | null; text?: string }; at: number }
  | { kind: 'unwatched'; call: WatchedCall; reason: string; at: number; unhashed?: number };

export interface UngovernedPorts {
  events: FileEventSource;
  /** What the governor last knew of `rel`: its record, a pending entry, what the session read, else git HEAD's. */
  known(rel: string, call: WatchedCall): Promise<KnownContent>;
  current(rel: string): Promise<CurrentContent>;
  record(finding: UngovernedFinding): Promise<void>;
  logger: Logger;
  now?: () => number;
}

export interface UngovernedWatchOptions {
  /** How long events settle before their paths are judged (INTENT_GOVERNOR_WATCH_SETTLE_MS in the resident). */
  settleMs: number;
  /** Most distinct paths hashed per batch; the rest are counted in one record. */
  maxPaths?: number;
  /** How long after its post a call still owns a change (its last write's event read just after the post). */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 25;

/**
 * Watches the workspace while any governed call is open (from its pre to its post), and puts on the record each
 * change in that window that no call explains: started with the first open call, stopped once the last one closed
 * and its events were judged, so it costs nothing at idle. A watcher that cannot start is a record too.
 */
export class UngovernedWatcher {
  private readonly windows: CallWindows;
  private readonly batch: EventBatch;
  private readonly now: () => number;
  private watching: { close(): void } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** What this watcher recorded of a path: the next change there is judged against it. */
  private readonly seen = new Map<string, KnownContent>();
  private failedFor: string | undefined;

  constructor(
    private readonly root: string,
    private readonly ports: UngovernedPorts,
    private readonly options: UngovernedWatchOptions,
  ) {
    this.windows = new CallWindows(options.graceMs ?? DEFAULT_GRACE_MS, 10 * options.settleMs + 1_000);
    this.batch = new EventBatch(options.maxPaths ?? 2_000);
    this.now = ports.now ?? Date.now;
  }

  get isWatching(): boolean {
    return this.watching !== undefined;
  }

  open(call: WatchedCall): void {
    this.windows.openCall(call, this.now());
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.stopTimer = undefined;
    if (this.watching) return;
    try {
      this.watching = this.ports.events.watch(this.root, (rel) => this.onPath(rel), (error) => this.failed(call, error));
      this.failedFor = undefined;
    } catch (error) {
      this.failed(call, error);
    }
  }

  close(session: string, key: string): void {
    if (this.windows.closeCall(session, key, this.now())) this.scheduleStop();
  }

  endSession(session: string): void {
    if (this.windows.closeSession(session, this.now())) this.scheduleStop();
  }

  /** Judges what is waiting and stops watching. */
  async dispose(): Promise<void> {
    if (this.stopTimer) clearTimeout(this.stopTimer);
    await this.flush();
    this.stop();
  }

  /** Resolves once every event seen so far is judged and recorded. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.judgeBatch());
    await this.flushing;
  }

  private onPath(rel: string): void {
    this.batch.add(rel, this.now());
    // Not pushed back by later events: a steady stream is still judged every settle period.
    this.timer ??= setTimeout(() => void this.flush(), this.options.settleMs);
  }

  private scheduleStop(): void {
    if (this.stopTimer) clearTimeout(this.stopTimer);
    // Events of the last call's final writes arrive a little after its post: judged before the watcher stops.
    this.stopTimer = setTimeout(() => {
      this.stopTimer = undefined;
      void this.flush().then(() => {
        if (!this.windows.anyOpen && !this.stopTimer) this.stop();
      });
    }, this.options.settleMs);
  }

  private stop(): void {
    this.watching?.close();
    this.watching = undefined;
    if (!this.windows.anyOpen) this.seen.clear();
  }

  private failed(call: WatchedCall, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.watching?.close();
    this.watching = undefined;
    this.ports.logger.error(`ungoverned-change watch: cannot watch ${this.root} during ${call.tool} (${call.call_id ?? call.key}) of session ${call.session_id}: ${reason}; changes in this window may be unrecorded, and governor check fails until a person accepts it`);
    if (this.failedFor === reason) return;
    this.failedFor = reason;
    void this.ports.record({ kind: 'unwatched', call, reason, at: this.now() }).catch((e: unknown) => this.ports.logger.error(`ungoverned-change watch: recording that ${this.root} is unwatched failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private async judgeBatch(): Promise<void> {
    const { paths, dropped } = this.batch.take();
    for (const [rel, at] of paths) {
      try {
        await this.judgeOne(rel, at);
      } catch (error) {
        this.ports.logger.error(`ungoverned-change watch: judging ${rel} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (dropped > 0) {
      const call = this.windows.attribute(this.now()) ?? this.windows.openCalls()[0];
      if (call) await this.ports.record({ kind: 'unwatched', call, reason: `${dropped} more changed paths in one burst than are hashed`, unhashed: dropped, at: this.now() });
    }
  }

  private async judgeOne(rel: string, at: number): Promise<void> {
    const current = await this.ports.current(rel);
    if (current === 'folder') return;
    const call = this.windows.attribute(at);
    if (!call) return;
    const known = this.seen.get(rel) ?? (await this.ports.known(rel, call));
    const verdict = judgeChange(rel, at, current === 'unreadable' ? `unreadable:${at}` : current.hash, known, this.windows);
    if (verdict.kind !== 'ungoverned') return;
    // A file that changed and cannot be read cannot be hashed: on the record as a window not fully watched.
    if (current === 'unreadable') return this.ports.record({ kind: 'unwatched', call: verdict.call, reason: `${rel} changed and cannot be read`, at });
    this.seen.set(rel, { hash: current.hash, from: 'recorded' });
    await this.ports.record({ kind: 'change', call: verdict.call, path: rel, before: known, after: current, at });
    this.ports.logger.warn(`ungoverned change: ${rel} changed during ${verdict.call.tool} (${verdict.call.call_id ?? verdict.call.key}) of session ${verdict.call.session_id}, and no governed call explains it (recorded; governor check fails until a person accepts or reverts it)`);
  }
}
