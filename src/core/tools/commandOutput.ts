import { CANCELLED_REASON } from '../approval/cancellation';
import type { AppliedChange, ToolOutput } from '../pipeline/hookTypes';
import type { RunResult } from '../process/processRunner';
import { ok, type Result } from '../toolError';

/** What the model reads of a finished command, and the structured result for programs. */
export function commandOutput(command: string, result: RunResult, timeoutMs: number, changes: AppliedChange[], note = ''): Result<ToolOutput> {
  const status = result.cancelled
    ? `${CANCELLED_REASON} (process group killed)`
    : result.timedOut
      ? `timed out after ${timeoutMs} ms (process group killed)`
      : `exit code ${result.exitCode ?? `signal ${result.signal}`}`;
  const cut = result.truncated ? '\n(output truncated)' : '';
  const text = `$ ${command}\n${status}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}${cut}${note}`;
  return ok({
    text,
    data: { exit_code: result.exitCode, signal: result.signal, timed_out: result.timedOut, cancelled: result.cancelled, truncated: result.truncated, stdout: result.stdout, stderr: result.stderr },
    changes,
  });
}
