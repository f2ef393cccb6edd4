import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../ioError';
import type { LogPosition } from '../signing/revocationPoint';
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
  const end = text.lastIndexOf('\n');
  if (end < 0) return { records: 0 };
  let records = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at <= end; at = text.indexOf('\n', at + 1)) records += 1;
  const last = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
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
