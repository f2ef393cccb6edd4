import type * as WorkerThreads from 'node:worker_threads';

/**
 * Ends a long-lived process whose event loop has stopped turning. The resident judges every agent's calls on one
 * thread: a judgment stuck in JavaScript would hold them all, and its own timers (the per-call deadlines that hand the
 * workspace to a fresh governor, the forced exit) could not fire. The main thread bumps a shared counter; a worker,
 * asleep in Atomics.wait, kills the process when the counter has not moved for `stallMs`. Killed, not exited: the
 * stuck thread would never run an exit, and a resident's lease and endpoint are taken over once its pid is gone.
 */
export interface EventLoopWatchdog {
  dispose(): void;
}

// Plain JavaScript evaluated in the worker: it only waits, compares, writes one log line and kills.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const beat = new Int32Array(workerData.beat);
let seen = Atomics.load(beat, 0);
let since = Date.now();
for (;;) {
  Atomics.wait(beat, 0, seen, workerData.checkMs);
  const now = Atomics.load(beat, 0);
  if (now < 0) break; // disposed
  if (now !== seen) { seen = now; since = Date.now(); continue; }
  if (Date.now() - since < workerData.stallMs) continue;
  try {
    require('node:fs').appendFileSync(workerData.logFile, new Date().toISOString() + ' [' + process.pid + '] error ' + workerData.message + '\\n');
  } catch {}
  process.kill(process.pid, 'SIGKILL');
  break;
}
`;

export interface WatchdogOptions {
  /** How long the loop may stand still before the process is killed. */
  stallMs: number;
  /** Where the line saying why goes. */
  logFile: string;
  /** That line. */
  message: string;
}

export function watchEventLoop(options: WatchdogOptions): EventLoopWatchdog {
  const { Worker } = require('node:worker_threads') as typeof WorkerThreads;
  const shared = new SharedArrayBuffer(4);
  const beat = new Int32Array(shared);
  const beatMs = Math.max(50, Math.floor(options.stallMs / 10));
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { beat: shared, checkMs: beatMs, ...options }, stdout: false, stderr: false });
  worker.unref();
  worker.on('error', () => undefined); // no watchdog: the process runs as it did before
  const timer = setInterval(() => Atomics.store(beat, 0, (Atomics.load(beat, 0) + 1) & 0x3fffffff), beatMs);
  timer.unref();
  return {
    dispose() {
      clearInterval(timer);
      Atomics.store(beat, 0, -1);
      Atomics.notify(beat, 0);
    },
  };
}
