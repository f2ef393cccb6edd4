import { createReadStream } from 'node:fs';
import { errnoOf } from '../ioError';
import { openRegularFile, problemError } from './regularFile';

/** One line of a JSONL file; `complete` is false only for a last line with no newline (a torn append). */
export interface FileLine {
  text: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset where the line starts. */
  offset: number;
  /** Byte length without the newline. */
  bytes: number;
  complete: boolean;
}

/** Where to resume reading: a byte offset at the start of a line and the number of lines before it. */
export interface LinePosition {
  offset: number;
  line: number;
}

/**
 * Streams a file's lines without holding the file in memory, splitting on LF bytes so offsets are exact.
 * A missing file yields nothing. `from` resumes after lines already read (a follower reading appends).
 */
export async function* readLines(path: string, from: LinePosition = { offset: 0, line: 0 }): AsyncGenerator<FileLine> {
  for await (const batch of readLineBatches(path, from)) yield* batch;
}

/**
 * `readLines`, a read's worth of lines at a time (up to 1 MB): a reader of 100k lines then pays the async
 * iteration once per batch instead of once per line (verify of a large log). `to` stops at that byte offset
 * (one worker's share of the file; give it at the start of a line).
 */
export async function* readLineBatches(path: string, from: LinePosition = { offset: 0, line: 0 }, to?: number): AsyncGenerator<FileLine[]> {
  if (to !== undefined && to <= from.offset) return;
  // A regular file only: a FIFO or a device at a log's name would hold the read (and its thread) forever.
  const opened = openRegularFile(path, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (!opened.ok) {
    if (opened.problem.errno === 'ENOENT') return; // as below: no file, no lines
    throw problemError(path, opened.problem);
  }
  const stream = createReadStream('', { fd: opened.fd, highWaterMark: 1 << 20, start: from.offset, ...(to !== undefined ? { end: to - 1 } : {}) });
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let offset = from.offset;
  let line = from.line;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const batch: FileLine[] = [];
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline < 0) break;
        const bytes = carryBytes + newline - start;
        const text = carryBytes ? Buffer.concat([...carry, chunk.subarray(start, newline)]).toString('utf8') : chunk.toString('utf8', start, newline);
        line += 1;
        batch.push({ text, line, offset, bytes, complete: true });
        offset += bytes + 1;
        carry = [];
        carryBytes = 0;
        start = newline + 1;
      }
      if (start < chunk.length) {
        carry.push(chunk.subarray(start));
        carryBytes += chunk.length - start;
      }
      if (batch.length) yield batch;
    }
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw error;
  } finally {
    stream.destroy();
  }
  if (carryBytes) yield [{ text: Buffer.concat(carry).toString('utf8'), line: line + 1, offset, bytes: carryBytes, complete: false }];
}
