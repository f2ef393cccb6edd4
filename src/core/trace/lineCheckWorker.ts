import { parentPort, workerData } from 'node:worker_threads';
import { readLineBatches } from '../io/lineStream';
import { packCheckedLines, type CheckedLineBatch } from './checkedLineBatch';
import { CHAIN_FIELDS_BY_NAME, checkLine, compactCheckedLine, type ChainFieldsName } from './lineChecks';

/** A worker thread's share of a verify: the lines of one byte range of the log, checked (lineChecks), sent back in order. */
export interface LineCheckShare {
  path: string;
  from: number;
  /** Exclusive; none: to the end of the file. */
  to?: number;
  fields: ChainFieldsName;
}

/** What the worker posts: a batch of checked lines (unnumbered, compacted, packed), then `done`, or the error that stopped it. */
export type LineCheckMessage = { batch: CheckedLineBatch } | { done: true } | { error: string };

async function checkShare(share: LineCheckShare): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const fields = CHAIN_FIELDS_BY_NAME[share.fields];
  try {
    for await (const batch of readLineBatches(share.path, { offset: share.from, line: 0 }, share.to)) {
      port.postMessage({ batch: packCheckedLines(batch.map((line) => compactCheckedLine(checkLine(line, fields)))) } satisfies LineCheckMessage);
    }
    port.postMessage({ done: true } satisfies LineCheckMessage);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies LineCheckMessage);
  }
}

void checkShare(workerData as LineCheckShare);
