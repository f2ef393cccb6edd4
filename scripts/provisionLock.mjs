// The lock both provisioning scripts hold while they build into their cache, so two test runs on a cold
// machine never install into the same folders at once.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function holderAlive(lockPath) {
  try {
    process.kill(Number(readFileSync(lockPath, 'utf8')), 0);
    return true;
  } catch (error) {
    // EPERM: alive but not ours. A missing or unreadable lock file, or ESRCH, means nobody holds it.
    return error?.code === 'EPERM';
  }
}

/**
 * Takes the lock at `lockPath`, waiting up to `waitMs` for a live holder (`onWait` is called once) and taking
 * over from a dead one. Returns the release function.
 */
export function acquireProvisionLock(lockPath, waitMs, onWait) {
  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
    }
    if (!holderAlive(lockPath)) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lockPath} still held after ${waitMs / 60_000} min`);
    if (!announced) onWait();
    announced = true;
    sleepSync(1_000);
  }
}
