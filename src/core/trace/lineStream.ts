import { createReadStream } from 'node:fs';
import { errnoOf } from '../ioError';

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

/**
 * Streams a file's lines without holding the file in memory, splitting on LF bytes so offsets are exact.
 * A missing file yields nothing.
 */
export async function* readLines(path: string): AsyncGenerator<FileLine> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let offset = 0;
  let line = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline < 0) break;
        const piece = chunk.subarray(start, newline);
        const bytes = carryBytes + piece.length;
        const text = carryBytes ? Buffer.concat([...carry, piece]).toString('utf8') : piece.toString('utf8');
        line += 1;
        yield { text, line, offset, bytes, complete: true };
        offset += bytes + 1;
        carry = [];
        carryBytes = 0;
        start = newline + 1;
      }
      if (start < chunk.length) {
        carry.push(chunk.subarray(start));
        carryBytes += chunk.length - start;
      }
    }
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw error;
  } finally {
    stream.destroy();
  }
  if (carryBytes) yield { text: Buffer.concat(carry).toString('utf8'), line: line + 1, offset, bytes: carryBytes, complete: false };
}
