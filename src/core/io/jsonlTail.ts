import { readSync } from 'node:fs';

/** The end of a JSONL file as the writer needs it: its last complete line, and any partial line after it. */
export interface JsonlTail {
  /** Last newline-terminated line (without the newline), if any. */
  lastLine?: string;
  /** Byte offset where that line starts. */
  lastLineOffset: number;
  /** Where bytes after the last newline start (a torn append), if the file does not end with one. */
  tornOffset?: number;
}

const CHUNK = 64 * 1024;

/**
 * Reads backwards from `size`, so the cost is one or two records however large the log is. Synchronous:
 * it runs inside the writer's critical section (see chainedLog.ts).
 */
export function readJsonlTail(fd: number, size: number): JsonlTail {
  if (size === 0) return { lastLineOffset: 0 };
  const lastByte = Buffer.alloc(1);
  readFully(fd, lastByte, size - 1);
  let completeEnd = size; // exclusive end of the complete region (just after its final newline)
  let tornOffset: number | undefined;
  if (lastByte[0] !== 10) {
    tornOffset = lastNewlineBefore(fd, size) + 1;
    completeEnd = tornOffset;
  }
  if (completeEnd === 0) return { lastLineOffset: 0, tornOffset };
  const start = lastNewlineBefore(fd, completeEnd - 1) + 1;
  const buffer = Buffer.alloc(completeEnd - 1 - start);
  readFully(fd, buffer, start);
  return { lastLine: buffer.toString('utf8'), lastLineOffset: start, tornOffset };
}

/** Index of the last LF strictly before `end`, or -1. */
function lastNewlineBefore(fd: number, end: number): number {
  const buffer = Buffer.alloc(CHUNK);
  let high = end;
  while (high > 0) {
    const low = Math.max(0, high - CHUNK);
    const length = high - low;
    readFully(fd, buffer.subarray(0, length), low);
    const at = buffer.subarray(0, length).lastIndexOf(10);
    if (at >= 0) return low + at;
    high = low;
  }
  return -1;
}

export function readFully(fd: number, buffer: Buffer, position: number): void {
  let done = 0;
  while (done < buffer.length) {
    const bytesRead = readSync(fd, buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}
