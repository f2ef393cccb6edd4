import type * as WorkerThreads from 'node:worker_threads';
import type { HookReply } from '../core/agents/common/hookDialect';

/**
 * A hook process's deadline kept by a thread of its own. The main thread's timer cannot fire while its judging is
 * stuck in JavaScript (a backtracking match, a loop), and a hook that never answers lets the agent's own timeout
 * decide, which may run the tool. The watchdog sleeps in Atomics.wait (no event loop to block), and at the deadline
 * writes the same refusal the timer would to fds 1 and 2, then ends the process with its exit code through the
 * inspector's session to the main thread (V8 runs it as an interrupt, even inside a running regex): a worker's own
 * process.exit ends only the worker.
 */
export interface HookWatchdog {
  /**
   * Whether this thread may answer: true unless the watchdog answered first (then it is ending the process, and the
   * caller must print nothing). After a true, the watchdog stays silent.
   */
  claim(): boolean;
}

/** Set once by whichever answers: 0 nobody yet, 1 the main thread, 2 the watchdog. */
const MAIN = 1;

// Plain JavaScript evaluated in the worker (no bundle to find); it only writes, waits and signals.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const flag = new Int32Array(workerData.flag);
const write = (fd, text) => {
  const bytes = Buffer.from(text);
  for (let at = 0, tries = 0; at < bytes.length && tries < 1000; tries++) {
    try { at += fs.writeSync(fd, bytes, at); } catch (error) { if (error.code !== 'EAGAIN') return; Atomics.wait(flag, 0, 2, 2); }
  }
};
const left = workerData.at - Date.now();
if ((left <= 0 || Atomics.wait(flag, 0, 0, left) === 'timed-out') && Atomics.compareExchange(flag, 0, 2) === 0) {
  write(1, workerData.stdout);
  write(2, workerData.stderr);
  // Node prints "Waiting for the debugger to disconnect..." on stderr at exit while the session below is open.
  if (process.platform !== 'win32') { try { fs.closeSync(2); fs.openSync('/dev/null', 'w'); } catch {} }
  try {
    const session = new (require('node:inspector').Session)();
    session.connectToMainThread();
    session.post('Runtime.evaluate', { expression: 'process.exit(' + workerData.exitCode + ')' });
  } catch {}
  // A main thread stuck in a system call never takes the interrupt: end it anyway, the answer is written. A timer,
  // not Atomics.wait: the session's message leaves through this thread's event loop.
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), workerData.grace);
}
`;

/** How long after asking the main thread to exit the watchdog kills the process instead. */
const EXIT_GRACE_MS = 2_000;

/**
 * Starts the watchdog: at `deadline` (a Date.now() time), unless claimed before, it answers `reply` and ends the
 * process. Starting a worker costs a Node environment's boot on another thread (see hookFlow for when it is armed).
 */
export function armHookWatchdog(deadline: number, reply: HookReply): HookWatchdog {
  // Required here: a call relayed to the extension never arms one, and never loads the module.
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { flag: shared, at: deadline, grace: EXIT_GRACE_MS, ...reply },
    stdout: false,
    stderr: false,
  });
  worker.unref();
  worker.on('error', () => undefined); // a watchdog that cannot start leaves the main thread's timer, as before
  return {
    claim() {
      const mine = Atomics.compareExchange(flag, 0, 0, MAIN) === 0;
      if (mine) Atomics.notify(flag, 0);
      return mine || Atomics.load(flag, 0) === MAIN;
    },
  };
}
