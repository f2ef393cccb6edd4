// Child process for the cross-process lock tests.
//   hold <lock>                     take the lock, print "locked", then wait to be killed
//   count <lock> <counter> <times>  increment a number in <counter> under the lock, <times> times
import { readFileSync, writeFileSync } from 'node:fs';
import { acquireLock } from '../../src/core/trace/crossProcessLock';

async function main(): Promise<void> {
  const [mode, lockPath, counter, times] = process.argv.slice(2);
  if (mode === 'hold') {
    await acquireLock(lockPath);
    process.stdout.write('locked\n');
    setInterval(() => undefined, 1000);
    return;
  }
  for (let i = 0; i < Number(times); i += 1) {
    const lock = await acquireLock(lockPath, { timeoutMs: 60_000 });
    // Read-modify-write with a yield in between: without mutual exclusion increments get lost.
    const value = Number(readFileSync(counter, 'utf8'));
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(counter, String(value + 1));
    await lock.release();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exitCode = 1;
});
