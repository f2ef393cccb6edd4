import { appendFileSync } from 'node:fs';

/** The environment variable naming the file a benchmark reads each hook answer's own time from. */
export const HOOK_TIMINGS_ENV = 'INTENT_GOVERNOR_HOOK_TIMINGS';

/**
 * Appends `<what>\t<which>\t<ms>` per answered hook to the file `INTENT_GOVERNOR_HOOK_TIMINGS` names (the agent and
 * the event at the agent hook route; the event and the tool in Claude Code's hook tool), and `\t<write ms>` where the
 * answer's own write was timed; undefined when it names none (the usual case: no work per call).
 */
export function hookTimingsRecorder(env: NodeJS.ProcessEnv): ((what: string, which: string, ms: number, writeMs?: number) => void) | undefined {
  const file = env[HOOK_TIMINGS_ENV] || undefined;
  return file ? (what, which, ms, writeMs) => appendFileSync(file, `${what}\t${which}\t${ms.toFixed(3)}${writeMs === undefined ? '' : `\t${writeMs.toFixed(3)}`}\n`) : undefined;
}
