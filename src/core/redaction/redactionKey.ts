import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errnoOf } from '../ioError';

const KEY_FILE = 'redaction.key';
const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The per-user key that redaction markers are keyed with: `<governor home>/redaction.key`, 32 random bytes
 * as hex, mode 0600. Every writer of the same user (extension, CLI, hook) uses it, so one secret gives one
 * marker across records and logs, while the marker alone cannot be brute-forced back into the secret.
 * Created on first need; a racing creator's key wins (link fails if the name exists), so all agree.
 */
export function loadRedactionKey(home: string): Buffer {
  const file = join(home, KEY_FILE);
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  const created = readKey(file);
  if (!created) throw new Error(`${file} does not hold a redaction key (64 hex digits): delete it and a new one is made`);
  return created;
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  return KEY_PATTERN.test(text) ? Buffer.from(text, 'hex') : undefined;
}
