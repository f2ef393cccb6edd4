import { appendFileSync, readFileSync } from 'node:fs';
import { errnoOf } from '../ioError';

/** The environment variable naming the file a benchmark reads each hook answer's own time from. */
export const HOOK_TIMINGS_ENV = 'INTENT_GOVERNOR_HOOK_TIMINGS';

/** What a door measured beside a hook's own time: the answer's write until it returned, the process's CPU time. */
export interface HookTimingDetail {
  writeMs?: number;
  cpuMs?: number;
}

/**
 * Appends `<what>\t<which>\t<ms>` per answered hook to the file `INTENT_GOVERNOR_HOOK_TIMINGS` names (the agent and
 * the event at the agent hook route; the event and the tool in Claude Code's hook tool), then `\t<write ms>\t<cpu ms>`
 * where the door measured them (empty when not); undefined when it names no file (the usual case: no work per call).
 */
export function hookTimingsRecorder(env: NodeJS.ProcessEnv): ((what: string, which: string, ms: number, more?: HookTimingDetail) => void) | undefined {
  const file = env[HOOK_TIMINGS_ENV] || undefined;
  const cell = (ms: number | undefined) => (ms === undefined ? '' : ms.toFixed(3));
  return file ? (what, which, ms, more) => appendFileSync(file, `${what}\t${which}\t${ms.toFixed(3)}${more ? `\t${cell(more.writeMs)}\t${cell(more.cpuMs)}` : ''}\n`) : undefined;
}

/** The process's CPU time (user and system, every thread) since `from` (a process.cpuUsage()), in ms. */
export function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** One line of the timings file, as hookTimingsRecorder wrote it. */
export interface HookTiming {
  what: string;
  which: string;
  ms: number;
  /** Absent where the door did not measure it. */
  writeMs?: number;
  cpuMs?: number;
}

/** The lines of a timings file (hookTimingsRecorder) as written; none when there is no file. The benchmarks read it. */
export function readHookTimings(file: string): HookTiming[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  }
  return text.split('\n').filter(Boolean).map((line) => {
    const [what, which, ms, writeMs, cpuMs] = line.split('\t');
    const timing: HookTiming = { what, which, ms: Number(ms) };
    if (writeMs) timing.writeMs = Number(writeMs);
    if (cpuMs) timing.cpuMs = Number(cpuMs);
    return timing;
  });
}
