import type * as ChildProcesses from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  /** Cap on stdout + stderr bytes together; past it the output is cut and the process group killed. */
  maxOutputBytes: number;
  env: NodeJS.ProcessEnv;
  stdin?: string;
  /** Time between SIGTERM and SIGKILL; 500 ms when absent. */
  killGraceMs?: number;
  /** Aborted when the call is cancelled: the process group is ended as on timeout (or never started). */
  signal?: AbortSignal;
  /**
   * Checked as stdout arrives: true = stop waiting now (a hook whose first line says `{"async": true}`). The result
   * comes back `detached`; the process runs on until it exits, its timeout or the signal ends its group.
   */
  detachWhen?: (stdoutSoFar: string) => boolean;
  /** Open descriptors the child gets as 3, 4, … (a sandbox's seccomp program). */
  extraFds?: number[];
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  /** Ended (or never started) because `signal` aborted. */
  cancelled: boolean;
  durationMs: number;
  /** `detachWhen` said so: returned while the process still runs (its exit code is not known). */
  detached?: boolean;
}

const DEFAULT_KILL_GRACE_MS = 500;
/** How long to keep reading pipes after the group is gone, for output already in flight. */
const PIPE_DRAIN_MS = 200;

/** `/bin/sh -c command`, with everything runProcess guarantees. */
export function runShellCommand(command: string, options: RunOptions): Promise<RunResult> {
  return runProcess('/bin/sh', ['-c', command], options);
}

/**
 * Runs a process in its own process group and never throws: a failing command is a result, and a spawn
 * failure (missing cwd or executable) is exitCode null with the reason in stderr.
 *
 * Nothing outlives the call: once the direct child exits, whatever is left of its group (`server &`,
 * `sleep 999 &`) is terminated too, because background processes keep running in the human's workspace
 * and keep our pipes open. The same SIGTERM-then-SIGKILL ends the group on timeout, on output overflow and
 * when the call is cancelled.
 * Processes that leave the group on purpose (setsid) are out of reach; we stop waiting for
 * their pipes once the group has been killed.
 */
export function runProcess(file: string, args: string[], options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;

  return new Promise<RunResult>((resolve) => {
    const stdoutChunks: Buffer[] = [];
    const stderrChunks: Buffer[] = [];
    let collected = 0;
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openPipes = 2;
    let pipesAbandoned = false;
    let terminating = false;
    let settled = false;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    if (options.signal?.aborted) {
      resolve({ exitCode: null, signal: null, stdout: '', stderr: `${file} was not started: the call was cancelled`, truncated, timedOut, cancelled: true, durationMs: 0 });
      return;
    }
    let child: ChildProcessWithoutNullStreams;
    try {
      // Required on use: a hook process that runs no command skips loading node:child_process.
      const { spawn } = require('node:child_process') as typeof ChildProcesses;
      const stdio: ChildProcesses.StdioOptions = options.extraFds?.length ? ['pipe', 'pipe', 'pipe', ...options.extraFds] : 'pipe';
      child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio, windowsHide: true }) as ChildProcessWithoutNullStreams;
    } catch (error) {
      // Invalid arguments (a NUL byte, a bad env value) throw synchronously; still a result, not a throw.
      const reason = error instanceof Error ? error.message : String(error);
      resolve({ exitCode: null, signal: null, stdout: '', stderr: `Could not start ${file}: ${reason}`, truncated, timedOut, cancelled, durationMs: 0 });
      return;
    }

    const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false;
      if (process.platform === 'win32') return child.kill(signal); // no process groups: the child only
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch {
        return false; // ESRCH: the group is already gone
      }
    };

    const finish = (result: Omit<RunResult, 'durationMs' | 'truncated' | 'timedOut' | 'cancelled'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(drainTimer);
      // The pending SIGKILL stays armed while anything of the group survives a SIGTERM.
      if (!signalGroup(0)) clearTimeout(killTimer);
      // A descendant that escaped the group may still hold the pipes: stop reading them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...result, truncated, timedOut, cancelled, durationMs: performance.now() - started });
    };

    const maybeFinish = (): void => {
      if (exit === undefined || (openPipes > 0 && !pipesAbandoned)) return;
      finish({
        exitCode: exit.code,
        signal: exit.signal,
        stdout: Buffer.concat(stdoutChunks).toString('utf8'),
        stderr: Buffer.concat(stderrChunks).toString('utf8'),
      });
    };

    // Once nothing of the group is left, open pipes can only be held by an escaped process: drain what
    // was already written, then stop waiting.
    const abandonPipesSoon = (): void => {
      if (drainTimer !== undefined) return;
      drainTimer = setTimeout(() => {
        pipesAbandoned = true;
        maybeFinish();
      }, PIPE_DRAIN_MS);
    };

    const terminateGroup = (): void => {
      if (terminating) return;
      terminating = true;
      if (!signalGroup('SIGTERM')) {
        abandonPipesSoon();
        return;
      }
      killTimer = setTimeout(() => {
        signalGroup('SIGKILL');
        abandonPipesSoon();
      }, graceMs);
    };

    // The agent stopped waiting: nobody will read the result, so the command must not go on changing things.
    function onAbort(): void {
      if (exit !== undefined) return;
      cancelled = true;
      terminateGroup();
    }

    const collect = (chunks: Buffer[]) => (chunk: Buffer) => {
      if (truncated) return; // keep draining so writers are not blocked, but buffer nothing more
      const room = options.maxOutputBytes - collected;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        collected = options.maxOutputBytes;
        truncated = true;
        terminateGroup();
        return;
      }
      chunks.push(chunk);
      collected += chunk.length;
    };

    child.stdout.on('data', collect(stdoutChunks));
    if (options.detachWhen) {
      const detachWhen = options.detachWhen;
      const watch = (): void => {
        if (settled || !detachWhen(Buffer.concat(stdoutChunks).toString('utf8'))) return;
        child.stdout.off('data', watch);
        // The promise settles now; finish() later only cleans up (a second resolve is a no-op).
        resolve({ exitCode: null, signal: null, stdout: Buffer.concat(stdoutChunks).toString('utf8'), stderr: '', truncated, timedOut, cancelled, durationMs: performance.now() - started, detached: true });
      };
      child.stdout.on('data', watch);
    }
    child.stderr.on('data', collect(stderrChunks));
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('close', () => {
        openPipes -= 1;
        maybeFinish();
      });
    }

    child.on('error', (error) => {
      // Spawn failures arrive here with no pid; errors while signalling a live child are ignored.
      if (child.pid !== undefined) return;
      finish({ exitCode: null, signal: null, stdout: '', stderr: `Could not start ${file}: ${error.message}` });
    });

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      terminateGroup(); // leftovers of the group: see the function comment
      maybeFinish();
    });

    child.stdin.on('error', () => undefined); // the command may exit without reading its input (EPIPE)
    child.stdin.end(options.stdin ?? '');

    timeoutTimer = setTimeout(() => {
      if (exit !== undefined) return;
      timedOut = true;
      terminateGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
