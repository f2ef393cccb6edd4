import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { errnoOf } from '../ioError';
import type { LinePosition } from '../io/lineStream';
import { readLogLines } from '../trace/logLines';
import { logParts, partAt } from '../trace/sealedSegments';

/** What a follower found: new lines (possibly none), or a log that is no longer the one it read. */
export type FollowResult = 'appended' | 'rewritten';

/**
 * Reads a JSONL log's complete lines once: each call hands over only the lines appended since the last one.
 * Logs are append-only, but git rewrites them (a union merge, a rebase, a checkout): a log that shrank, or
 * whose last line read is no longer where it was, is reported `rewritten` and read again from the start by
 * the next call. A torn last line (its writer is still at it) is left for the next call.
 */
export class LogFollower {
  private position: LinePosition = { offset: 0, line: 0 };
  private last: { offset: number; text: string } | undefined;

  constructor(readonly path: string) {}

  async follow(onLine: (line: number, text: string) => void): Promise<FollowResult> {
    if (!(await this.stillSame())) {
      this.reset();
      return 'rewritten';
    }
    for await (const { text, line, offset, bytes, complete } of readLogLines(this.path, this.position)) {
      if (!complete) break;
      this.position = { offset: offset + bytes + 1, line };
      this.last = { offset, text };
      onLine(line, text);
    }
    return 'appended';
  }

  reset(): void {
    this.position = { offset: 0, line: 0 };
    this.last = undefined;
  }

  /**
   * One read of the last line seen, where it was seen: cheap whatever the log's size. Opened without blocking
   * and checked to be a regular file first, so a FIFO or device put in the log's place cannot hang the keeper.
   */
  private async stillSame(): Promise<boolean> {
    // The last line may now be in a sealed segment (a seal moved it there, at the same place in the whole log).
    const part = this.last ? partAt(logParts(this.path).parts, this.last.offset) : { path: this.path, offset: 0 };
    let handle;
    try {
      handle = await open(part.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return this.last === undefined;
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile()) throw new Error(`${this.path} is not a regular file, so it cannot be read as a log`);
      if (!this.last) return true;
      const expected = Buffer.from(`${this.last.text}\n`, 'utf8');
      const actual = Buffer.alloc(expected.length);
      const { bytesRead } = await handle.read(actual, 0, expected.length, this.last.offset - part.offset);
      return bytesRead === expected.length && actual.equals(expected);
    } finally {
      await handle.close();
    }
  }
}
