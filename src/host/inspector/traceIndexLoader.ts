import { readLastLines } from '../../core/io/lastLines';
import type { LinePosition } from '../../core/io/lineStream';
import { logSize, readLogBytes, readLogLines } from '../../core/trace/logLines';
import { logParts } from '../../core/trace/sealedSegments';
import { governanceLogPath, traceFilePath } from '../../core/trace/traceFiles';
import type { RowSource } from '../../shared/inspectorProtocol';
import { TraceIndex } from './traceIndex';

/** Preview keys count up from here: far below zero, where the full index's keys never go. */
export const PREVIEW_KEY_BASE = -(2 ** 31);

export interface RefreshResult {
  added: number;
  /** A log shrank, so every row was read again and old keys mean nothing. */
  reset: boolean;
}

/**
 * Follows both logs into a TraceIndex: the first refresh streams them whole, later ones read only the bytes
 * appended since (logs are append-only; a log that shrank was rewritten, and everything is read again).
 * A torn last line is left for the next refresh, when its writer has finished it. Refreshes never overlap.
 */
export class TraceIndexLoader {
  private readonly positions: Record<RowSource, LinePosition> = { trace: start(), governance: start() };
  private running: Promise<RefreshResult> = Promise.resolve({ added: 0, reset: false });

  constructor(
    private readonly index: TraceIndex,
    private readonly paths: Record<RowSource, string>,
  ) {}

  static forWorkspace(index: TraceIndex, root: string): TraceIndexLoader {
    return new TraceIndexLoader(index, { trace: traceFilePath(root), governance: governanceLogPath(root) });
  }

  path(source: RowSource): string {
    return this.paths[source];
  }

  /**
   * The newest `maxLines` records of each log (within its last `maxBytes`) in an index of their own, read
   * from the logs' ends in about a millisecond: something to show while the first refresh still streams a
   * large trace. Its keys are negative, so they never name a row of the full index, and its rows have no
   * line numbers (line 0): those need the whole log, so a preview row is opened through the full index.
   */
  preview(maxLines: number, maxBytes: number): TraceIndex {
    const preview = new TraceIndex(PREVIEW_KEY_BASE);
    for (const source of ['trace', 'governance'] as const) {
      // The working file's end; its offsets are placed after the log's sealed segments, as the full index places them.
      const { sealedBytes } = logParts(this.paths[source]);
      for (const { text, offset, bytes } of readLastLines(this.paths[source], maxLines, maxBytes)) {
        const record = parseObject(text);
        if (record) preview.add(source, 0, { offset: sealedBytes + offset, bytes }, record);
      }
    }
    return preview;
  }

  refresh(): Promise<RefreshResult> {
    this.running = this.running.then(() => this.readNew(), () => this.readNew());
    return this.running;
  }

  private async readNew(): Promise<RefreshResult> {
    let reset = false;
    for (const source of ['trace', 'governance'] as const) {
      if (logSize(this.paths[source]) < this.positions[source].offset) reset = true;
    }
    if (reset) {
      this.index.clear();
      this.positions.trace = start();
      this.positions.governance = start();
    }
    let added = 0;
    for (const source of ['trace', 'governance'] as const) {
      const position = this.positions[source];
      for await (const { text, line, offset, bytes, complete } of readLogLines(this.paths[source], position)) {
        if (!complete) break;
        position.offset = offset + bytes + 1;
        position.line = line;
        const record = parseObject(text);
        if (!record) continue;
        this.index.add(source, line, { offset, bytes }, record);
        added += 1;
      }
    }
    return { added, reset };
  }
}

/** Reads back the one line a row points at (the index keeps no records). */
export async function readRecordAt(path: string, offset: number, bytes: number): Promise<Record<string, unknown> | undefined> {
  return parseObject((await readLogBytes(path, offset, bytes)).toString('utf8'));
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function start(): LinePosition {
  return { offset: 0, line: 0 };
}
