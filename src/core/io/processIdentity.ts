import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoOf } from '../ioError';

/**
 * Who a process is, well enough to tell later whether it is still running: a pid alone is not enough,
 * because a dead holder's pid can be handed to an unrelated process. On Linux the process start time
 * (field 22 of /proc/<pid>/stat, clock ticks since boot) tells the two apart; elsewhere it is 0 (unknown)
 * and only the pid is checked.
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Start time in clock ticks since boot, 0 when the platform does not tell. */
  start: number;
}

let self: ProcessIdentity | undefined;

/** This process; read once, on first use. */
export function currentProcess(): ProcessIdentity {
  self ??= { pid: process.pid, host: hostname(), start: processStartTime(process.pid) ?? 0 };
  return self;
}

/** Signal 0 probes without delivering anything: ESRCH = gone, EPERM = alive but not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

/**
 * True only when a process of THIS host is provably gone: its pid is free, or now names a process that
 * started at another time. Any doubt (no start time known, an unreadable /proc) answers false: fail closed.
 * Whether the process ran on this host at all is the caller's to check first.
 */
export function localProcessGone(pid: number, start: number): boolean {
  if (!pidAlive(pid)) return true;
  const now = procStat(pid);
  // A killed process stays a zombie until its parent reaps it: it answers signal 0 but will never act again.
  if (now?.state === 'Z' || now?.state === 'X') return true;
  if (!start) return false;
  return now?.start !== undefined && now.start !== start;
}

/** Linux: name (field 2), state (3), parent (4) and start time (22) of /proc/<pid>/stat. Undefined elsewhere, or when the process vanished while we looked. */
function procStat(pid: number): { name: string; state: string; ppid: number; start?: number } | undefined {
  if (process.platform !== 'linux') return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // Field 2 (the command name) is in parentheses and may hold spaces or ')': count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[22 - 3]);
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state: fields[0], ppid: Number(fields[4 - 3]), start: Number.isSafeInteger(start) && start > 0 ? start : undefined };
}

/** Linux: field 22 of /proc/<pid>/stat (clock ticks since boot). */
function processStartTime(pid: number): number | undefined {
  return procStat(pid)?.start;
}

/** A process the hook's caller may be run through rather than by (the shells agents use, and the hook launcher). */
const RUN_THROUGH = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'governor-hook']);

/** How far up an agent may be: a shell inside a shell inside the launcher is three. */
const MAX_ANCESTORS = 8;

/**
 * The agent a hook call came from: the first ancestor of `caller` (the hook process, or the launcher's bash) that is
 * not a shell or the launcher, with its start time so a reused pid is not taken for it. Linux only (/proc); undefined
 * on any doubt: `caller` is not that process (its start differs, as from another pid namespace), an unreadable
 * ancestry, or an ancestry that ends at init (the agent already gone). macOS has no /proc, and a `ps` per ancestor
 * per call is too dear: its sessions keep the idle sweep.
 */
export function agentProcessOf(caller: { pid: number; start: number }): { pid: number; start: number } | undefined {
  const self = procStat(caller.pid);
  if (!self || self.start === undefined || self.start !== caller.start) return undefined;
  let pid = self.ppid;
  for (let depth = 0; depth < MAX_ANCESTORS && Number.isSafeInteger(pid) && pid > 1; depth += 1) {
    const stat = procStat(pid);
    if (!stat || stat.start === undefined || stat.state === 'Z' || stat.state === 'X') return undefined;
    if (!RUN_THROUGH.has(stat.name)) return { pid, start: stat.start };
    pid = stat.ppid;
  }
  return undefined;
}
