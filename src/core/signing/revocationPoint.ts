import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../ioError';

/** Where one workspace log stood when a key was revoked. */
export interface LogPosition {
  /** Complete lines (records) the log held. */
  records: number;
  /** The `hash` of its last record; absent for an empty log. */
  last_hash?: string;
}

/**
 * `.orchestration/signers/revoked/<name>.json`, beside the revoked `.pub`: where each log stood when the key was
 * revoked, by workspace-relative log path. A record the key signed up to that point was signed while the key was
 * trusted and still verifies; one after it does not. A revoked .pub without it: every record is revoked.
 */
export interface RevocationPoint {
  key_id: string;
  revoked_at: string;
  logs: Record<string, LogPosition>;
}

const MAX_POINT_BYTES = 64 * 1024;

/** `revoked/<name>.pub` → `revoked/<name>.json`. */
export function revocationPointFile(pubFile: string): string {
  return `${pubFile.slice(0, -'.pub'.length)}.json`;
}

export function parseRevocationPoint(value: unknown): RevocationPoint | string {
  const v = value as Partial<RevocationPoint> | null;
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  if (typeof v?.key_id !== 'string' || typeof v.revoked_at !== 'string') return 'key_id or revoked_at is missing';
  if (typeof v.logs !== 'object' || v.logs === null) return 'logs is missing';
  const logs: Record<string, LogPosition> = {};
  for (const [log, position] of Object.entries(v.logs)) {
    const p = position as Partial<LogPosition> | null;
    if (typeof p !== 'object' || p === null || !Number.isSafeInteger(p.records) || (p.records as number) < 0) return `logs.${log}.records is not a count`;
    if (p.last_hash !== undefined && typeof p.last_hash !== 'string') return `logs.${log}.last_hash is not a hash`;
    if ((p.records as number) > 0 && p.last_hash === undefined) return `logs.${log} has records but no last_hash`;
    logs[log] = p.last_hash === undefined ? { records: p.records as number } : { records: p.records as number, last_hash: p.last_hash };
  }
  return { key_id: v.key_id, revoked_at: v.revoked_at, logs };
}

/**
 * The revocation point of the key in `pubFile` (workspace-relative), undefined when there is none, or what is wrong
 * with the file. A point naming another key is a problem: it must not soften the revocation of this one.
 */
export async function readRevocationPoint(root: string, pubFile: string, keyId: string): Promise<RevocationPoint | undefined | { problem: string }> {
  const file = revocationPointFile(pubFile);
  let text: string;
  try {
    text = await readFile(join(root, file), 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    return { problem: `${file} cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  if (text.length > MAX_POINT_BYTES) return { problem: `${file} is too big for a revocation point` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: `${file} is not JSON` };
  }
  const point = parseRevocationPoint(parsed);
  if (typeof point === 'string') return { problem: `${file}: ${point}` };
  if (point.key_id !== keyId) return { problem: `${file} names the key ${point.key_id}, not ${keyId} of ${pubFile}` };
  return point;
}

export async function writeRevocationPoint(root: string, pubFile: string, point: RevocationPoint): Promise<string> {
  const file = revocationPointFile(pubFile);
  await writeFile(join(root, file), `${JSON.stringify(point, null, 2)}\n`, { flag: 'wx' });
  return file;
}
