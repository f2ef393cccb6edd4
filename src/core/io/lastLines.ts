import { closeSync, fstatSync, openSync } from 'node:fs';
import { errnoOf } from '../ioError';
import { readFully } from './jsonlTail';

const CHUNK = 256 * 1024;

/** A complete line near the end of a file: its text and where it sits (line numbers would need the whole file). */
export interface TailLine {
  text: string;
  offset: number;
  bytes: number;
}

/**
 * The last `maxLines` complete lines of a file within its last `maxBytes`, read back from the end. Synchronous
 * and bounded on purpose: it answers while a full read of the same log keeps the event loop busy, and a few
 * hundred KB cost well under a millisecond. A torn last line (no newline yet) is left out, as the full reader
 * leaves it for later; a missing file has no lines.
 */
export function readLastLines(path: string, maxLines: number, maxBytes: number): TailLine[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const floor = Math.max(0, size - maxBytes);
    // Read back until the region holds more newlines than lines wanted (one more ends the line before them).
    const chunks: Buffer[] = [];
    let low = size;
    let newlines = 0;
    while (low > floor && newlines <= maxLines) {
      const from = Math.max(floor, low - CHUNK);
      const chunk = Buffer.alloc(low - from);
      readFully(fd, chunk, from);
      chunks.unshift(chunk);
      newlines += countNewlines(chunk);
      low = from;
    }
    const region = Buffer.concat(chunks);
    const ends: number[] = [];
    for (let at = region.indexOf(10); at >= 0; at = region.indexOf(10, at + 1)) ends.push(at);
    // Past the start of the file the region begins mid-line: the text before its first newline is not a line.
    const first = Math.max(low > 0 ? 1 : 0, ends.length - maxLines);
    return ends.slice(first).map((end, i) => {
      const start = first + i === 0 ? 0 : ends[first + i - 1] + 1;
      return { text: region.toString('utf8', start, end), offset: low + start, bytes: end - start };
    });
  } finally {
    closeSync(fd);
  }
}

function countNewlines(buffer: Buffer): number {
  let count = 0;
  for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) count += 1;
  return count;
}
