import { readdirSync, readFileSync } from 'node:fs';
import { pidAlive } from '../../src/core/io/processIdentity';

/** Every process below `root` now (Linux /proc), so the ones re-parented to pid 1 later are still known. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone while we looked.
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent === pid && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** A process that exited but was not reaped yet is gone for our purposes. */
export function running(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** A pid and the start of its command line, for a failure message. */
export function describeProcess(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 120)}`;
  } catch {
    return `${pid} (gone)`;
  }
}
