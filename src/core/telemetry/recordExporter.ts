import { appendFileSync, mkdirSync, statSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { logEntryOf, type ExportedLog, type OtlpLogEntry, type OtlpSender } from './otlpLogEntry';
import type { TelemetryConfig } from './telemetryConfig';

/** What the trace writer hands a record to once it stands in its log. Never waits, never throws. */
export interface RecordExporter {
  export(log: ExportedLog, record: Record<string, unknown>): void;
  /** Sends what is queued, giving up after `timeoutMs`; never rejects. */
  flush(timeoutMs?: number): Promise<void>;
  stats(): ExportStats;
}

export interface ExportStats {
  url: string;
  queued: number;
  exported: number;
  /** Records never sent: the queue was full (the collector slow or down), or the process exited first. */
  dropped: number;
  /** Records a batch of which the collector did not take (down, refused, timed out). */
  failed: number;
  lastError?: string;
}

export interface RecordExporterOptions {
  /** The bound of the queue: past it a record is dropped and counted, so memory and the call stay flat. Default 2048. */
  maxQueue?: number;
  /** Records per OTLP request. Default 512. */
  batchSize?: number;
  /** How long records wait to be batched. Default 1000 ms. */
  delayMs?: number;
  /** One request's timeout, the exporter's retries included. Default: the config's. */
  exportTimeoutMs?: number;
  /** How long a process about to exit waits for its queue to go out. Default: the config's (1000 ms). */
  exitFlushMs?: number;
  /** Where drops and failures are appended for `governor doctor` (telemetryStats.ts). */
  statsFile?: string;
  /** Recorded as service.version and the scope's version. */
  version?: string;
  /** Tests: the sender instead of the lazily loaded OpenTelemetry one. */
  sender?: () => Promise<OtlpSender>;
}

/**
 * Records leave for an OpenTelemetry collector in the background: `export` only queues (bounded; a full queue
 * drops and counts), a timer that does not keep the process alive batches them, one request at a time; the
 * OpenTelemetry packages are loaded on the first send, never in a process that exports nothing. A process about to
 * exit (beforeExit) sends what is left for at most `exitFlushMs` (1 s; the packages' first load alone can take
 * 50-400 ms on a busy machine), then exits as it would have.
 */
export class OtlpRecordExporter implements RecordExporter {
  private readonly queue: OtlpLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private sender: Promise<OtlpSender | string> | undefined;
  private counts = { exported: 0, dropped: 0, failed: 0 };
  private lastError: string | undefined;
  private reported = { dropped: 0, failed: 0 };
  private exiting = false;
  private readonly opts: Required<Omit<RecordExporterOptions, 'statsFile' | 'sender'>> & Pick<RecordExporterOptions, 'statsFile' | 'sender'>;

  constructor(
    private readonly config: TelemetryConfig,
    options: RecordExporterOptions = {},
  ) {
    this.opts = { maxQueue: 2048, batchSize: 512, delayMs: 1000, exportTimeoutMs: config.timeoutMs, exitFlushMs: config.exitFlushMs, version: '0.0.0', ...options };
    watchExit(this);
  }

  export(log: ExportedLog, record: Record<string, unknown>): void {
    try {
      if (this.queue.length >= this.opts.maxQueue) {
        this.counts.dropped += 1;
        return;
      }
      this.queue.push(logEntryOf(log, record));
      this.schedule();
    } catch {
      this.counts.dropped += 1; // a record that cannot be turned into a log entry is dropped, never thrown at the writer
    }
  }

  async flush(timeoutMs = this.opts.exitFlushMs): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.drain(), deadline]);
    clearTimeout(timer);
    this.report();
  }

  stats(): ExportStats {
    return { url: this.config.url, queued: this.queue.length, ...this.counts, ...(this.lastError ? { lastError: this.lastError } : {}) };
  }

  private schedule(): void {
    if (this.timer || this.draining) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.opts.delayMs);
    this.timer.unref();
  }

  private drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.draining ??= this.sendAll().finally(() => {
      this.draining = undefined;
      if (this.queue.length) this.schedule();
    });
    return this.draining;
  }

  private async sendAll(): Promise<void> {
    while (this.queue.length) {
      const sender = await this.loadSender();
      const batch = this.queue.splice(0, this.opts.batchSize);
      const problem = typeof sender === 'string' ? sender : await sender.send(batch);
      if (problem === undefined) {
        this.counts.exported += batch.length;
      } else {
        this.counts.failed += batch.length;
        this.lastError = problem;
        this.report();
        return; // the collector is down: what is queued waits for the next record, the queue's bound limits it
      }
    }
  }

  private loadSender(): Promise<OtlpSender | string> {
    this.sender ??= (this.opts.sender ?? (async () => createSenderFrom(await import('./otlpSdk'), this.config, this.opts.version, this.opts.exportTimeoutMs)))().catch(
      (error: unknown) => `the OpenTelemetry packages could not be loaded (${error instanceof Error ? error.message : String(error)})`,
    );
    return this.sender;
  }

  /** The loop is empty: whatever is queued goes out now, for exitFlushMs at most; a request still open is cut short. */
  onBeforeExit(): void {
    if (this.exiting) return;
    this.exiting = true;
    if (!this.queue.length && !this.draining) {
      this.report();
      return;
    }
    void this.flush().then(() => {
      if (this.draining) {
        this.counts.dropped += this.queue.length;
        this.report();
        process.exit(); // keeps process.exitCode; only the request to a collector that does not answer is cut
      }
    });
  }

  /** Appends drops and failures since the last report to the stats file, for `governor doctor`. */
  private report(): void {
    const dropped = this.counts.dropped - this.reported.dropped;
    const failed = this.counts.failed - this.reported.failed;
    if (!this.opts.statsFile || (dropped === 0 && failed === 0)) return;
    this.reported = { dropped: this.counts.dropped, failed: this.counts.failed };
    try {
      mkdirSync(dirname(this.opts.statsFile), { recursive: true, mode: 0o700 });
      if ((statSync(this.opts.statsFile, { throwIfNoEntry: false })?.size ?? 0) > STATS_MAX_BYTES) truncateSync(this.opts.statsFile);
      const line = { at: new Date().toISOString(), pid: process.pid, url: this.config.url, dropped, failed, ...(this.lastError ? { last_error: this.lastError.slice(0, 300) } : {}) };
      appendFileSync(this.opts.statsFile, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch {
      // the counts stay in memory; telemetry never fails a call
    }
  }
}

const STATS_MAX_BYTES = 1024 * 1024;

type OtlpSdkModule = typeof import('./otlpSdk');

/** The bundles load otlpSdk as dist/vendor/otel.js (CommonJS) through import(): its exports may sit on `default`. */
function createSenderFrom(module: OtlpSdkModule & { default?: OtlpSdkModule }, config: TelemetryConfig, version: string, timeoutMs: number): OtlpSender {
  return (module.createOtlpSender ?? module.default?.createOtlpSender)(config, version, timeoutMs);
}

const live = new Set<OtlpRecordExporter>();
let exitWatched = false;

/** One beforeExit listener for every exporter of the process (a test makes many). */
function watchExit(exporter: OtlpRecordExporter): void {
  live.add(exporter);
  if (exitWatched) return;
  exitWatched = true;
  process.once('beforeExit', () => {
    for (const each of live) each.onBeforeExit();
  });
}

const shared = new Map<string, OtlpRecordExporter>();

/** The exporter of this process for `config`: every trace stack sending to the same place shares one queue. */
export function exporterFor(config: TelemetryConfig, options: RecordExporterOptions = {}): OtlpRecordExporter {
  const key = JSON.stringify([config.url, config.headers, config.serviceName, options.statsFile]);
  let exporter = shared.get(key);
  if (!exporter) {
    exporter = new OtlpRecordExporter(config, options);
    shared.set(key, exporter);
  }
  return exporter;
}
