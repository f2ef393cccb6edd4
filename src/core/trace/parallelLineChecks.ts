import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readFully } from '../io/jsonlTail';
import { errnoOf } from '../ioError';
import { unpackCheckedLines, type CheckedLineBatch } from './checkedLineBatch';
import type { CheckedLine, ChainFieldsName } from './lineChecks';
import type { LineCheckMessage, LineCheckShare } from './lineCheckWorker';
import { partAt, type LogPart } from './sealedSegments';

/**
 * A large log's line checks on worker threads: each takes one byte range (cut at line starts), and the lines
 * come back in file order, numbered here. Parsing, the canonical scan and hashing are most of a verify (a
 * team's merged log of 100k signed records is 150 MB); what needs the lines around it stays on this thread.
 */

/**
 * Below `minBytes` a log is checked on the calling thread: starting workers would cost more than they save.
 * `workerFile`: the worker's script, when not the one beside this module (a bench running the built one). Settings
 * of the process, not of a call, so a test can run every verify of a suite on workers.
 */
export const lineCheckDefaults: { minBytes: number; workerFile?: string } = { minBytes: 8 << 20 };
/** More workers than this gain little: this thread's own pass over the lines becomes the limit. */
const MAX_WORKERS = 4;
/** How far past a share's nominal start its first line start is looked for. */
const BOUNDARY_PROBE_BYTES = 1 << 16;

/** The worker's script beside this module: the bundle's `dist/lineCheckWorker.js`, or the source under tsx. */
export function lineCheckWorkerFile(): string | undefined {
  if (lineCheckDefaults.workerFile !== undefined) return lineCheckDefaults.workerFile;
  for (const name of ['lineCheckWorker.js', 'lineCheckWorker.ts']) {
    const file = join(__dirname, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

export function defaultLineCheckWorkers(): number {
  return Math.min(MAX_WORKERS, availableParallelism());
}

/** Byte offsets where each share starts: `workers` near-equal ranges, each moved forward to the start of a line. */
export function shareStarts(path: string, size: number, workers: number): number[] {
  const starts = [0];
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.alloc(BOUNDARY_PROBE_BYTES);
    for (let k = 1; k < workers; k += 1) {
      const nominal = Math.floor((size * k) / workers);
      if (nominal <= (starts.at(-1) as number)) continue;
      const read = readSync(fd, probe, 0, probe.length, nominal - 1);
      const newline = probe.subarray(0, read).indexOf(10);
      // A line longer than the probe: that share joins the one before it.
      if (newline >= 0 && nominal + newline < size && nominal + newline > (starts.at(-1) as number)) starts.push(nominal + newline);
    }
  } finally {
    closeSync(fd);
  }
  return starts;
}

/** The checked lines of the log, a batch at a time, in file order: the same as checkLine gives for each line. */
export async function* checkLinesInParallel(path: string, fields: ChainFieldsName, size: number, workers: number, workerFile: string): AsyncGenerator<CheckedLine[]> {
  const starts = shareStarts(path, size, workers);
  const shares = starts.map((from, k): LineCheckShare => ({ path, from, fields, ...(k + 1 < starts.length ? { to: starts[k + 1] } : {}) }));
  const queues = shares.map((share) => new ShareQueue(startWorker(workerFile, share)));
  let line = 0;
  try {
    for (const queue of queues) {
      for (;;) {
        const lines = await queue.next();
        if (!lines) break;
        for (const checked of lines) checked.line = ++line;
        yield lines;
      }
    }
  } finally {
    await Promise.all(queues.map((queue) => queue.stop()));
  }
}

function startWorker(file: string, share: LineCheckShare): Worker {
  // The TypeScript source (tests and benches under tsx): registered in the worker as tsx registers it for CommonJS.
  if (file.endsWith('.ts')) return new Worker(`require('tsx/cjs');require(${JSON.stringify(file)});`, { eval: true, workerData: share });
  return new Worker(file, { workerData: share });
}

/** One worker's batches as they arrive, taken in order; its error or early exit is an exception (a bug, or the file gone). */
class ShareQueue {
  private readonly batches: CheckedLineBatch[] = [];
  private finished = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly worker: Worker) {
    worker.on('message', (message: LineCheckMessage) => {
      if ('batch' in message) this.batches.push(message.batch);
      else if ('done' in message) this.finished = true;
      else this.failure = new Error(`a line check worker stopped: ${message.error}`);
      this.notify();
    });
    worker.on('error', (error) => {
      this.failure ??= error;
      this.notify();
    });
    worker.on('exit', (code) => {
      if (!this.finished) this.failure ??= new Error(`a line check worker exited (code ${code}) before its share was done`);
      this.notify();
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The next batch; undefined once the share is done. */
  async next(): Promise<CheckedLine[] | undefined> {
    for (;;) {
      const batch = this.batches.shift();
      if (batch) return unpackCheckedLines(batch);
      if (this.failure) throw this.failure;
      if (this.finished) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Reads one line back from the log (a record whose signature must be checked, which a worker did not send whole),
 * from whichever of its files (sealed segments, working file) holds the offset. Files stay open until `close` (the
 * end of verify); the audit's checks after that open them for each line.
 */
export class LineRereader {
  private readonly fds = new Map<string, number>();
  private closed = false;

  constructor(private readonly parts: readonly LogPart[]) {}

  /** The line's bytes; '' when the log no longer reaches that far (it changed under verify). */
  text(offset: number, bytes: number): string {
    const part = partAt(this.parts, offset);
    const fd = this.fds.get(part.path) ?? openSync(part.path, 'r');
    if (!this.closed) this.fds.set(part.path, fd);
    try {
      const buffer = Buffer.alloc(bytes);
      readFully(fd, buffer, offset - part.offset);
      return buffer.toString('utf8');
    } catch (error) {
      if (errnoOf(error) !== undefined) throw error;
      return ''; // readFully's end of file
    } finally {
      if (this.closed) closeSync(fd);
    }
  }

  close(): void {
    this.closed = true;
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}
