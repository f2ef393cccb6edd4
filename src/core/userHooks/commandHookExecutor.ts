import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runProcess, runShellCommand, type RunResult } from '../process/processRunner';
import type { HookExecution, HookExecutor } from './hookExecution';
import type { HookAction } from './hookSpec';

/** Past this (stdout and stderr together) a hook's process group is killed and the run is a failure. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;

type CommandAction = Extract<HookAction, { type: 'command' }>;

/**
 * Runs `{type: 'command'}` hooks: a shell string through `/bin/sh -c` (or PowerShell for `"shell": "powershell"`),
 * the exec form `args` with no shell at all (so `$(..)`, `;` and quotes in an argument reach the program as
 * written). The process runs in its own group, which is killed on timeout, on too much output and on
 * cancellation. A hook whose first stdout line is `{"async": true}` (seed 000) is left running in the background:
 * its run ends there, with nothing decided.
 */
export const commandHookExecutor: HookExecutor<CommandAction> = {
  async run(action, _spec, context) {
    const options = { cwd: context.cwd, env: context.env, stdin: context.input, timeoutMs: context.timeoutMs, maxOutputBytes: MAX_HOOK_OUTPUT_BYTES, signal: context.signal, detachWhen: saysAsync };
    if ('args' in action) {
      const program = action.args[0];
      if (program === undefined || program === '') return { kind: 'failed', message: "has an empty 'args' list, so there is no program to run", durationMs: 0 };
      return toExecution(await runProcess(program, action.args.slice(1), options), program, context.cwd, context.timeoutMs);
    }
    if (action.shell === 'powershell') {
      const pwsh = onPath(['pwsh', 'powershell'], context.env.PATH);
      if (!pwsh) return { kind: 'failed', message: 'has "shell": "powershell", but neither pwsh nor powershell is on PATH here; install PowerShell or write the hook for sh', durationMs: 0 };
      return toExecution(await runProcess(pwsh, ['-NoProfile', '-NonInteractive', '-Command', action.command], options), pwsh, context.cwd, context.timeoutMs);
    }
    return toExecution(await runShellCommand(action.command, options), '/bin/sh', context.cwd, context.timeoutMs);
  },
};

/** The first complete stdout line is `{"async": true}` (any spacing). */
function saysAsync(stdout: string): boolean {
  const end = stdout.indexOf('\n');
  if (end < 0 || !stdout.trimStart().startsWith('{')) return false;
  try {
    const first = JSON.parse(stdout.slice(0, end)) as unknown;
    return typeof first === 'object' && first !== null && (first as { async?: unknown }).async === true;
  } catch {
    return false;
  }
}

function onPath(names: readonly string[], path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** A run that did not end on its own with an exit code is a failure saying why, so nobody reads half an answer. */
function toExecution(result: RunResult, program: string, cwd: string, timeoutMs: number): HookExecution {
  const durationMs = result.durationMs;
  // Detached after `{"async": true}`: like Claude Code, the hook's answer is not waited for and decides nothing.
  if (result.detached) return { kind: 'exited', exitCode: 0, stdout: '', stderr: '', durationMs };
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
