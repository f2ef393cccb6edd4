import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import type { LogPosition } from '../signing/revocationPoint';
import { logParts } from './sealedSegments';
import type { ChainFields } from './traceChain';
import { WORKSPACE_LOGS } from './workspaceVerify';

/**
 * Where a log stands now: its complete lines (a torn last line from a crash is not a record yet) and the `hash` of
 * the last one, or what keeps the last record from being read.
 */
export async function logPosition(path: string, fields: ChainFields): Promise<LogPosition | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { records: 0 };
    return { problem: `cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  // Sealed segments come first in the log: their lines count, and a working file a seal emptied ends in their last record.
  const { sealedLines, parts } = logParts(path);
  if (sealedLines > 0 && text.lastIndexOf('\n') < 0) {
    const sealed = await readFile(parts[parts.length - 2].path, 'utf8');
    const last = lastLine(sealed);
    return last === undefined ? { problem: 'its last sealed segment has no complete line' } : positionOf(last, sealedLines, fields);
  }
  const last = lastLine(text);
  if (last === undefined) return { records: 0 };
  let records = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) records += 1;
  return positionOf(last, sealedLines + records, fields);
}

/** The last complete line of a log's text (undefined: none). */
function lastLine(text: string): string | undefined {
  const end = text.lastIndexOf('\n');
  return end < 0 ? undefined : text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
}

function positionOf(last: string, records: number, fields: ChainFields): LogPosition | { problem: string } {
  let hash: unknown;
  try {
    hash = fields(JSON.parse(last) as Record<string, unknown>)?.hash;
  } catch {
    return { problem: `its last line (${records}) is not JSON` };
  }
  return typeof hash === 'string' ? { records, last_hash: hash } : { problem: `its last record (line ${records}) has no hash` };
}

/** Both workspace logs' positions by workspace-relative path; a log whose position cannot be read is left out. */
export async function workspaceLogPositions(root: string): Promise<{ logs: Record<string, LogPosition>; problems: string[] }> {
  const logs: Record<string, LogPosition> = {};
  const problems: string[] = [];
  for (const { log, fields } of WORKSPACE_LOGS) {
    const position = await logPosition(join(root, log), fields);
    if ('problem' in position) problems.push(`${log} ${position.problem}`);
    else logs[log] = position;
  }
  return { logs, problems };
}
