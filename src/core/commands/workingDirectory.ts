import { posix } from 'node:path';
import type { ShellWord } from './shellWords';

/**
 * Where a command may be running, relative to where its command line started ('' is that directory; '/…' and
 * '~…' are absolute): every directory it could be in after the `cd`s before it. null: a cd went somewhere the
 * text does not say, so relative paths cannot be placed. Empty: the command never runs (it follows `exit`).
 */
export type Directories = readonly string[] | null;

/** The shell's own state for each directory it may be in: `cd -` needs OLDPWD, popd the pushd stack. */
export interface Place {
  cwd: string;
  previous: string | null; // OLDPWD, when this command line set it
  stack: readonly string[]; // pushd's saved directories, most recent first
}

export type Places = readonly Place[] | null;

/** How a command left the shell: where it is if the command succeeded (`&&` goes on), and if it failed (`||`). */
export interface Outcome {
  ok: Places;
  fail: Places;
}

export const STARTING_PLACES: Places = [{ cwd: '', previous: null, stack: [] }];
/** After `exit`: no place, since nothing runs there. */
export const NOWHERE: Places = [];
export const STARTING: Directories = [''];

// Past this many candidates a command line is not one anybody reviews directory by directory.
const MAX_CANDIDATES = 16;
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);
const GLOB = /[*?[]/;

/** A command that leaves the shell where it was, whatever its exit status. */
export function stays(places: Places): Outcome {
  return { ok: places, fail: places };
}

export function directoriesOf(places: Places): Directories {
  return places === null ? null : unique(places.map((p) => p.cwd));
}

export function unionPlaces(a: Places, b: Places): Places {
  if (a === b) return a;
  if (a === null || b === null) return null;
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return capped(uniqueBy([...a, ...b], placeKey));
}

/** Is this argv cd, pushd or popd (also through `builtin` or `command -p`)? Returns the argv of the builtin itself. */
export function directoryChange(argv: readonly ShellWord[]): readonly ShellWord[] | null {
  let i = 0;
  while (i < argv.length && !argv[i].dynamic && (argv[i].text === 'builtin' || argv[i].text === 'command')) {
    i++;
    while (i < argv.length && !argv[i].dynamic && argv[i].text.startsWith('-')) i++;
  }
  const name = argv[i];
  return name && !name.dynamic && CHANGES_DIRECTORY.has(name.text) ? argv.slice(i) : null;
}

/**
 * What cd, pushd or popd do to the places the shell may be in. A target only known at run time, a glob, CDPATH
 * in play, or a form we do not follow (`pushd +2`) makes the success side unknown; failure leaves the shell put.
 */
export function changeDirectory(places: Places, argv: readonly ShellWord[], cdpath: boolean): Outcome {
  const [name, ...args] = argv;
  const unknown: Outcome = { ok: null, fail: places };
  if (places === null) return stays(null);
  const operands: ShellWord[] = [];
  let optionsEnded = false;
  for (const arg of args) {
    if (arg.dynamic) return unknown;
    if (!optionsEnded && arg.text === '--') optionsEnded = true;
    else if (!optionsEnded && /^-[LPe@]+$/.test(arg.text) && name.text === 'cd') continue;
    else operands.push(arg);
  }
  if (operands.length > 1) return unknown; // bash refuses, older bash ignores the rest, zsh substitutes
  const target = operands[0]?.text;
  if (target !== undefined && (GLOB.test(target) || (cdpath && !/^(\/|\.\.?(\/|$))/.test(target)))) return unknown;
  const moved = places.map((p) => move(p, name.text, target));
  if (moved.some((p) => p === null)) return unknown;
  return { ok: capped(uniqueBy(moved as Place[], placeKey)), fail: places };
}

function move(place: Place, name: string, target: string | undefined): Place | null {
  if (name === 'popd') {
    if (target !== undefined || place.stack.length === 0) return null;
    const [top, ...rest] = place.stack;
    return { cwd: top, previous: place.cwd, stack: rest };
  }
  if (name === 'pushd') {
    if (target === undefined) {
      const [top, ...rest] = place.stack;
      return top === undefined ? null : { cwd: top, previous: place.cwd, stack: [place.cwd, ...rest] };
    }
    if (/^[+-]\d+$/.test(target) || target === '-n') return null;
    const cwd = enter(place.cwd, target);
    return cwd === null ? null : { cwd, previous: place.cwd, stack: [place.cwd, ...place.stack] };
  }
  if (target === '-') return place.previous === null ? null : { cwd: place.previous, previous: place.cwd, stack: place.stack };
  const cwd = enter(place.cwd, target ?? '~');
  return cwd === null ? null : { cwd, previous: place.cwd, stack: place.stack };
}

/**
 * `path` as seen from `dir`, both in this module's notation. null when `..` climbs out of a `~` directory,
 * whose parent only the home directory's real location could say.
 */
export function enter(dir: string, path: string): string | null {
  if (path.startsWith('/')) return trim(posix.normalize(path));
  if (path === '~' || path.startsWith('~/')) return trim(posix.normalize(path));
  if (path.startsWith('~')) return path; // ~user: refused later as outside the workspace
  if (dir === '') return trim(posix.normalize(path));
  const joined = trim(posix.normalize(`${dir}/${path}`));
  if (dir.startsWith('~') && !(joined === '~' || joined.startsWith('~/'))) return null;
  return joined;
}

/** Where a relative path lands from each directory; absolute paths land where they say. */
export function resolveIn(dirs: Directories, path: string): string[] | null {
  if (path.startsWith('/') || path.startsWith('~')) return [path];
  if (dirs === null) return null;
  const landed: string[] = [];
  for (const dir of dirs) {
    // From the starting directory the path stays as written (globs, trailing slashes and all).
    const at = dir === '' ? path : joinKeepingSlash(dir, path);
    if (at === null) return null;
    landed.push(at);
  }
  return unique(landed);
}

/** Directories `dir` reaches from each of `dirs` (git -C, make -C, env -C, a nested `sh -c`). */
export function enterEach(dirs: Directories, dir: string): Directories {
  if (dirs === null) return null;
  const entered = dirs.map((d) => enter(d, dir));
  return entered.some((d) => d === null) ? null : capped(unique(entered as string[]));
}

/** Directories relative to a nested script's start, seen from where that script started. */
export function compose(base: Directories, inner: Directories): Directories {
  if (base === null || inner === null) return null;
  const all: string[] = [];
  for (const b of base) {
    for (const i of inner) {
      const d = i === '' ? b : enter(b, i);
      if (d === null) return null;
      all.push(d);
    }
  }
  return capped(unique(all));
}

function joinKeepingSlash(dir: string, path: string): string | null {
  const joined = enter(dir, path);
  if (joined === null) return null;
  return path.endsWith('/') && !joined.endsWith('/') ? `${joined}/` : joined;
}

function trim(path: string): string {
  if (path === '.' || path === './') return '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function placeKey(p: Place): string {
  return JSON.stringify([p.cwd, p.previous, p.stack]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function uniqueBy<T>(values: T[], key: (v: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const v of values) if (!seen.has(key(v))) seen.set(key(v), v);
  return [...seen.values()];
}

function capped<T>(values: T[]): T[] | null {
  return values.length > MAX_CANDIDATES ? null : values;
}
