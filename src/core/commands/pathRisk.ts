import { posix } from 'node:path';
import type { PathContext } from './commandRule';

/** What writing to a /dev path means; anything not under /dev is an ordinary file. */
export type DeviceKind = 'discard' | 'block' | 'network' | 'other';

// Order matters: the first match wins.
const DEVICES: [RegExp, DeviceKind][] = [
  [/^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+)$/, 'discard'],
  [/^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|loop|md|dm-|sr|mapper\/)/, 'block'],
  [/^\/dev\/(tcp|udp)\//, 'network'],
  [/^\/dev\//, 'other'],
];

export function deviceKind(path: string): DeviceKind | null {
  const normal = posix.normalize(path);
  return DEVICES.find(([pattern]) => pattern.test(normal))?.[1] ?? null;
}

// Names that mean "the user's home" or "the current directory" to the shell, quoted or not.
const HOME_WORDS = new Set(['~', '$HOME', '${HOME}']);
const CWD_WORDS = new Set(['.', '', '$PWD', '${PWD}']);
const WILDCARD_SEGMENT = /^[*?.]*\*[*?.]*$/;

/**
 * Why deleting (or chmod/chown-ing) this path recursively would sweep away something that is not a
 * project file: the root, a top-level system directory, home, the working directory or workspace,
 * a parent of it, or a bare glob over one of those. Null when the path is narrower.
 */
export function sweepingTarget(path: string, ctx: PathContext): string | null {
  let base = posix.normalize(path).replace(/(.)\/+$/, '$1');
  while (base.includes('/') && WILDCARD_SEGMENT.test(posix.basename(base))) base = posix.dirname(base);
  if (WILDCARD_SEGMENT.test(base)) base = '.';
  if (base === '/') return 'the whole filesystem';
  if (/^\/[^/]+$/.test(base)) return `the system directory ${base}`;
  if (HOME_WORDS.has(base) || /^~[^/]*$/.test(base)) return 'the home directory';
  if (CWD_WORDS.has(base)) return 'the whole working directory';
  if (/^\.\.(\/\.\.)*$/.test(base)) return 'a parent of the working directory';
  const root = ctx.workspaceRoot ? posix.normalize(ctx.workspaceRoot).replace(/(.)\/+$/, '$1') : null;
  if (root && base.startsWith('/') && (root === base || root.startsWith(base + '/'))) return 'the workspace or a parent of it';
  const home = ctx.homeDir ? posix.normalize(ctx.homeDir).replace(/(.)\/+$/, '$1') : null;
  if (home && base === home) return 'the home directory';
  return null;
}
