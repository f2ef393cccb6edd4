import { appendFileSync } from 'node:fs';

/** The environment variable naming the file a benchmark reads each hook answer's own time from. */
export const HOOK_TIMINGS_ENV = 'INTENT_GOVERNOR_HOOK_TIMINGS';

/**
 * Appends `agent<TAB>event<TAB>ms` per answered hook to the file `INTENT_GOVERNOR_HOOK_TIMINGS` names; undefined
 * when it names none (the usual case: no work per call).
 */
export function hookTimingsRecorder(env: NodeJS.ProcessEnv): ((agent: string, event: string, ms: number) => void) | undefined {
  const file = env[HOOK_TIMINGS_ENV] || undefined;
  return file ? (agent, event, ms) => appendFileSync(file, `${agent}\t${event}\t${ms.toFixed(3)}\n`) : undefined;
}
