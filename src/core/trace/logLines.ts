import { open } from 'node:fs/promises';
import { readLineBatches, type FileLine, type LinePosition } from '../io/lineStream';
import { logParts, partAt, type LogPart } from './sealedSegments';

/**
 * A log's lines across its sealed segments and its working file, numbered and placed as in the whole log (see
 * sealedSegments). A segment's torn end is skipped here (verify names it); the working file's is the last line,
 * `complete: false`, as readLineBatches gives it. A log without segments is read exactly as its file.
 */
export async function* readLogBatches(logPath: string, from: LinePosition = { offset: 0, line: 0 }): AsyncGenerator<FileLine[]> {
  const { parts } = logParts(logPath);
  if (parts.length === 1) {
    yield* readLineBatches(logPath, from);
    return;
  }
  for (const [k, part] of parts.entries()) {
    const working = k === parts.length - 1;
    if (!working && from.offset >= part.offset + part.bytes) continue;
    yield* partBatches(part, working, from);
  }
}

export async function* readLogLines(logPath: string, from: LinePosition = { offset: 0, line: 0 }): AsyncGenerator<FileLine> {
  for await (const batch of readLogBatches(logPath, from)) yield* batch;
}

/** One part's lines, placed in the whole log; `from` may fall inside it (a follower resuming). */
export async function* partBatches(part: LogPart, working: boolean, from: LinePosition = { offset: 0, line: 0 }): AsyncGenerator<FileLine[]> {
  const local = from.offset > part.offset ? { offset: from.offset - part.offset, line: from.line - part.line } : { offset: 0, line: 0 };
  for await (const batch of readLineBatches(part.path, local)) {
    const placed: FileLine[] = [];
    for (const line of batch) {
      if (!line.complete && !working) continue;
      placed.push({ ...line, line: line.line + part.line, offset: line.offset + part.offset });
    }
    if (placed.length) yield placed;
  }
}

/** The whole log's size in bytes: its sealed segments and its working file. */
export function logSize(logPath: string): number {
  const working = logParts(logPath).parts.at(-1) as LogPart;
  return working.offset + working.bytes;
}

/** `bytes` bytes at `offset` of the whole log, read from the file that holds them (fewer at its end). */
export async function readLogBytes(logPath: string, offset: number, bytes: number): Promise<Buffer> {
  const part = partAt(logParts(logPath).parts, offset);
  const handle = await open(part.path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, offset - part.offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
