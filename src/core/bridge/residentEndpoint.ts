import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errnoOf } from '../ioError';
import { readResidentEndpoint, residentEndpointPath, type ResidentEndpoint } from '../agents/common/residentProtocol';

export type { ResidentEndpoint };

/*
 * The resident governor's endpoint file for one workspace folder (ResidentEndpoint): whoever governs the folder
 * writes it (the extension when VS Code runs on it, else the headless resident), and removes it only while it is
 * still its own.
 */

export function residentEndpointText(endpoint: ResidentEndpoint): string {
  return `${endpoint.port} ${endpoint.token} ${endpoint.pid}\n`;
}

/** Writes (replaces) the endpoint of `root` under `home`: a temp file created 0600 with O_EXCL, then renamed. */
export function writeResidentEndpoint(home: string, root: string, endpoint: ResidentEndpoint): string {
  const target = residentEndpointPath(home, root);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // mkdir's mode does not apply to a folder that already existed
  const temp = join(dir, `.${endpoint.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, residentEndpointText(endpoint));
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, target);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  return target;
}

/** The pid the endpoint file of `root` names; undefined when there is none or it is not ours to read. */
export function residentEndpointPid(home: string, root: string): number | undefined {
  return readResidentEndpoint(home, root)?.pid;
}

/** Removes the endpoint of `root` while it still names `pid` (another governor may have taken the folder over). Synchronous, for 'exit' handlers. */
export function removeOwnResidentEndpoint(home: string, root: string, pid: number = process.pid): void {
  if (residentEndpointPid(home, root) !== pid) return;
  try {
    unlinkSync(residentEndpointPath(home, root));
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
}
