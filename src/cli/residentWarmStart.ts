import { setFlagsFromString } from 'node:v8';
import type { Governor } from '../core/governor';
import type { Logger } from '../core/logger';

/**
 * How the resident governor has V8 compile its code. A resident comes up for an agent's session, and each hook's
 * path then runs a handful of times: too few for V8's optimiser, and at first too few for its baseline compiler,
 * so by default those calls run in the interpreter. Baseline code from each function's first call took about a
 * quarter off a fresh resident's PreToolUse and its recording of a write (`npm run bench -- resident`, the fresh
 * resident table), for about 30 ms more start-up, 6 MB more memory and a slower first SessionStart. The flag does
 * not change what the code does. (`--no-lazy-feedback-allocation` added little beside it.)
 */
export const RESIDENT_V8_FLAGS = ['--always-sparkplug'] as const;

/** The flags' names without their `--` or `--no-` (the same flag, either way). */
function flagName(flag: string): string {
  return flag.replace(/^--(no-)?/u, '');
}

/** The RESIDENT_V8_FLAGS node was not given on its command line, either way (`--x` or `--no-x`): a flag given there wins. */
export function residentFlagsToSet(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('--')).map((arg) => flagName(arg.split('=')[0])));
  return RESIDENT_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Sets the resident's flags for the code this process compiles from now on: functions compile at their first
 * call, so the pipeline's code is compiled under them. Set at run time rather than as node's arguments, so every
 * way a resident starts gets them (the Node hook's starter, the bench, a person), and a node whose V8 no longer
 * knows one says so on stderr and runs on, where `node --unknown-flag` would not start at all.
 */
export function tierResidentCode(execArgv: readonly string[] = process.execArgv): void {
  for (const flag of residentFlagsToSet(execArgv)) setFlagsFromString(flag);
}

/**
 * Reads and parses the workspace's intents while no call waits (the snapshot is kept by the file's stat): a fresh
 * resident's first call spent about 20 ms in the YAML parser's cold code. A file that cannot be read is the first
 * call's to report, as before; here it is only logged.
 */
export function readIntentsAhead(governor: Governor, logger: Logger): void {
  governor.services.intents.load().catch((error: unknown) => logger.warn(`reading the intents ahead: ${error instanceof Error ? error.message : String(error)}`));
}
