import * as vscode from 'vscode';
import { TraceIndex } from './traceIndex';
import { PREVIEW_KEY_BASE, TraceIndexLoader, type RefreshResult } from './traceIndexLoader';

/** How long to gather watcher events before reading: an agent's burst of writes becomes one refresh. */
const SETTLE_MS = 75;
/** Records per log shown while the first index is built: a few pages of the newest ones, from at most 4 MB. */
const PREVIEW_LINES = 500;
const PREVIEW_BYTES = 4 * 1024 * 1024;

/**
 * The host's live view of both logs: a TraceIndex kept current by a watcher on `.orchestration/*.jsonl`,
 * shared by the inspector panel and the blame decorations. Loads lazily on first use, so a window that never
 * opens the inspector never reads a large trace.
 */
export class InspectorModel implements vscode.Disposable {
  readonly index = new TraceIndex();
  readonly loader: TraceIndexLoader;
  private readonly changed = new vscode.EventEmitter<RefreshResult>();
  /** New rows were indexed (only once something asked for the index). */
  readonly onDidChange = this.changed.event;
  private readonly logsChanged = new vscode.EventEmitter<void>();
  /** A log changed on disk, whether or not the index is loaded (blame rereads the trace itself). */
  readonly onDidChangeLogs = this.logsChanged.event;
  private readonly disposables: vscode.Disposable[] = [];
  private loaded: Promise<void> | undefined;
  private indexed = false;
  private previewed: TraceIndex | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    folder: vscode.WorkspaceFolder,
    root: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.loader = TraceIndexLoader.forWorkspace(this.index, root);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.orchestration/*.jsonl'));
    const schedule = () => this.schedule();
    this.disposables.push(this.changed, this.logsChanged, watcher, watcher.onDidCreate(schedule), watcher.onDidChange(schedule), watcher.onDidDelete(schedule));
  }

  /** Resolves once the logs have been read the first time. */
  ready(): Promise<void> {
    const started = Date.now();
    this.loaded ??= this.loader.refresh().then(
      (result) => this.log.info(`inspector: indexed ${result.added} records in ${Date.now() - started} ms`),
      (error: unknown) => this.log.error(`inspector: reading the logs failed: ${String(error)}`),
    ).finally(() => (this.indexed = true));
    return this.loaded;
  }

  /**
   * The index to answer a query from now: the full one once built, else the newest records of both logs
   * (`partial`), so a large trace shows its latest rows while the rest is still being read.
   */
  current(): { index: TraceIndex; partial: boolean } {
    void this.ready();
    if (this.indexed) return { index: this.index, partial: false };
    try {
      this.previewed ??= this.loader.preview(PREVIEW_LINES, PREVIEW_BYTES);
    } catch (error) {
      this.log.error(`inspector: reading the newest records failed: ${String(error)}`);
      this.previewed = new TraceIndex(PREVIEW_KEY_BASE);
    }
    return { index: this.previewed, partial: true };
  }

  /**
   * The full index's key for a row the webview shows: a preview row (negative key) is found by where its
   * line starts once the index is built, so the detail pane always shows the record's real line and key.
   */
  async fullKey(key: number): Promise<number | undefined> {
    if (key >= 0) return key;
    const location = this.previewed?.location(key);
    await this.ready();
    return location ? this.index.keyAt(location.source, location.offset) : undefined;
  }

  /** Reads what was appended since the last read, now (the watcher calls this after SETTLE_MS). */
  async refresh(): Promise<void> {
    if (!this.loaded) return;
    await this.loaded;
    const result = await this.loader.refresh().catch((error: unknown) => {
      this.log.error(`inspector: reading appended records failed: ${String(error)}`);
      return undefined;
    });
    if (result && (result.added > 0 || result.reset)) this.changed.fire(result);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.logsChanged.fire();
      void this.refresh();
    }, SETTLE_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
