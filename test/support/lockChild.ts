// Child process for the cross-process lock tests.
//   hold <lock>                     print "trying", take the lock, print "locked", then wait to be killed
//   count <lock> <counter> <times>  increment a number in <counter> under the lock, <times> times; fails
//                                   at once if another process is inside the critical section too
import { openSync, closeSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { acquireLock } from '../../src/core/io/crossProcessLock';

async function main(): Promise<void> {
  const [mode, lockPath, counter, times] = process.argv.slice(2);
  if (mode === 'hold') {
    process.stdout.write('trying\n');
    await acquireLock(lockPath, { timeoutMs: 60_000 });
    process.stdout.write('locked\n');
    setInterval(() => undefined, 1000);
    return;
  }
  const inside = `${counter}.inside`;
  for (let i = 0; i < Number(times); i += 1) {
    const lock = await acquireLock(lockPath, { timeoutMs: 60_000 });
    // O_EXCL: a second process inside the critical section finds the file there and fails loudly.
    closeSync(openSync(inside, 'wx'));
    // Read-modify-write with a yield in between: without mutual exclusion increments get lost.
    const value = Number(readFileSync(counter, 'utf8'));
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(counter, String(value + 1));
    unlinkSync(inside);
    await lock.release();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
