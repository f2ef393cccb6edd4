import { runProcess, runShellCommand, type RunResult } from '../process/processRunner';
import type { HookExecution, HookExecutor } from './hookExecution';
import type { HookAction } from './hookSpec';

/** Past this (stdout and stderr together) a hook's process group is killed and the run is a failure. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;

type CommandAction = Extract<HookAction, { type: 'command' }>;

/**
 * Runs `{type: 'command'}` hooks: a shell string through `/bin/sh -c`, the exec form `args` with no shell at
 * all (so `$(..)`, `;` and quotes in an argument reach the program as written). The process runs in its own
 * group, which is killed on timeout, on too much output and on cancellation; nothing of it outlives the run.
 */
export const commandHookExecutor: HookExecutor<CommandAction> = {
  async run(action, _spec, context) {
    const program = 'command' in action ? '/bin/sh' : action.args[0];
    if (program === undefined || program === '') return { kind: 'failed', message: "has an empty 'args' list, so there is no program to run", durationMs: 0 };
    const options = { cwd: context.cwd, env: context.env, stdin: context.input, timeoutMs: context.timeoutMs, maxOutputBytes: MAX_HOOK_OUTPUT_BYTES, signal: context.signal };
    const result = 'command' in action ? await runShellCommand(action.command, options) : await runProcess(program, action.args.slice(1), options);
    return toExecution(result, program, context.cwd, context.timeoutMs);
  },
};

/** A run that did not end on its own with an exit code is a failure saying why, so nobody reads half an answer. */
function toExecution(result: RunResult, program: string, cwd: string, timeoutMs: number): HookExecution {
  const durationMs = result.durationMs;
  if (result.cancelled) return { kind: 'failed', message: 'was cancelled with its call; nothing of it is left running', durationMs };
  if (result.timedOut) return { kind: 'failed', message: `did not finish within ${timeoutMs} ms; its process group was killed`, durationMs };
  if (result.truncated) return { kind: 'failed', message: `wrote more than ${MAX_HOOK_OUTPUT_BYTES / 1024} KiB of output; it was stopped and its answer discarded`, durationMs };
  if (result.exitCode === null && result.signal !== null) return { kind: 'failed', message: `was killed by ${result.signal}`, durationMs };
  if (result.exitCode === null) {
    // processRunner reports a spawn failure as "Could not start <file>: <why>".
    const why = result.stderr.replace(/^Could not start .*?: /, '').trim();
    return { kind: 'failed', message: `could not start '${program}' in ${cwd} (${why}); check that it is installed, on PATH and executable`, durationMs };
  }
  return { kind: 'exited', exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, durationMs };
}
