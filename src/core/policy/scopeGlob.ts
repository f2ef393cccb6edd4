import { GLOBSTAR, Minimatch, type MinimatchOptions } from 'minimatch';
import { segmentMatcher, type MinimatchSegment } from './globSegment';

/**
 * A glob matched against a workspace path in bounded time, meaning what `new Minimatch(glob, options).match(path)`
 * means. minimatch still parses the glob (its preprocessing, classes, fast tests); the two places where its matching
 * backtracks are replaced: segments go to globSegment.ts, and the walk over `**` is minimatch's own walk with each
 * (path segment, section) answer remembered, so a glob of many `**` tries each place once (minimatch retries them
 * for every way the earlier sections fit, exponential in the number of `**`).
 */

/** The filesystem's own limits (NAME_MAX, PATH_MAX): a longer path names no file, so it is refused before matching. */
export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_BYTES = 4096;
// minimatch gives up (no match) past this many `**` sections; kept so both answer alike.
const MAX_GLOBSTAR_RECURSION = 200;

type Part = typeof GLOBSTAR | ((f: string) => boolean);

export interface ScopeGlob {
  /** Whether `rel` (workspace-relative, POSIX, no empty, '.' or '..' segment, within the limits) matches. */
  matches(rel: string): boolean;
}

const NOTHING: ScopeGlob = { matches: () => false };

export function compileScopeGlob(glob: string, options: MinimatchOptions): ScopeGlob {
  let mm: Minimatch;
  try {
    mm = new Minimatch(glob, options);
  } catch {
    return NOTHING; // a glob minimatch cannot compile matched nothing before either
  }
  if (mm.empty || mm.comment || mm.negate || options.dot || options.partial || options.matchBase) return NOTHING;
  const set = mm.set.map((pattern) =>
    pattern.map((part): Part => {
      if (part === GLOBSTAR) return GLOBSTAR;
      if (typeof part === 'string') return (f) => f === part;
      return segmentMatcher(part as MinimatchSegment);
    }),
  );
  return {
    matches(rel) {
      const file = pathSegments(rel);
      return file !== undefined && set.some((pattern) => matchPath(file, pattern));
    },
  };
}

/**
 * The path's segments, or undefined when it is not one a scope can cover: too long for the filesystem, or with an
 * empty, '.' or '..' segment (the canonicaliser never hands those on; minimatch reads them in ways a scope must not).
 */
export function pathSegments(rel: string): string[] | undefined {
  if (rel.length > MAX_PATH_BYTES || Buffer.byteLength(rel) > MAX_PATH_BYTES) return undefined;
  const segments = rel.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return undefined;
    if (segment.length > MAX_SEGMENT_BYTES || Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return undefined;
  }
  return segments;
}

function matchPath(file: readonly string[], pattern: readonly Part[]): boolean {
  return pattern.includes(GLOBSTAR) ? matchGlobstar(file, pattern) : matchAt(file, pattern, 0);
}

/** `parts` (no `**`) match `file` from `at` to its end, one segment each. */
function matchAt(file: readonly string[], parts: readonly Part[], at: number): boolean {
  if (file.length - at !== parts.length) return false;
  return parts.every((part, i) => part !== GLOBSTAR && part(file[at + i]));
}

/** `parts` (no `**`) match the segments of `file` from `at`, which must all be there. */
function matchSection(file: readonly string[], parts: readonly Part[], at: number): boolean {
  if (at + parts.length > file.length) return false;
  return parts.every((part, i) => part !== GLOBSTAR && part(file[at + i]));
}

const hidden = (segment: string) => segment.startsWith('.'); // `**` crosses no dot segment (dot: false)

/** minimatch's #matchGlobstar: head, then tail, then the body's sections in order between them. */
function matchGlobstar(file: readonly string[], pattern: readonly Part[]): boolean {
  const first = pattern.indexOf(GLOBSTAR);
  const last = pattern.lastIndexOf(GLOBSTAR);
  const head = pattern.slice(0, first);
  const body = pattern.slice(first + 1, last);
  const tail = pattern.slice(last + 1);
  const start = head.length;
  if (head.length && !matchAt(file.slice(0, head.length), head, 0)) return false;
  let tailMatch = 0;
  if (tail.length) {
    if (tail.length + start > file.length || !matchAt(file, tail, file.length - tail.length)) return false;
    tailMatch = tail.length;
  }
  if (!body.length) {
    for (let i = start; i < file.length - tailMatch; i++) if (hidden(file[i])) return false;
    return tailMatch > 0 || start < file.length - tailMatch;
  }
  // Sections between the `**`, each with the last index minimatch lets it start at (its arithmetic, kept as is).
  const sections: { parts: Part[]; after: number }[] = [{ parts: [], after: 0 }];
  const sums = [0];
  let nonGlobstar = 0;
  for (const part of body) {
    if (part === GLOBSTAR) {
      sums.push(nonGlobstar);
      sections.push({ parts: [], after: 0 });
    } else {
      sections[sections.length - 1].parts.push(part);
      nonGlobstar++;
    }
  }
  const fileLength = file.length - tailMatch;
  sections.forEach((section, i) => (section.after = fileLength - (sums[sections.length - 1 - i] + section.parts.length)));
  // The first hidden segment at or after each index: the end of the walk checks the rest of the path at once.
  const nextHidden = new Array<number>(file.length + 1).fill(file.length);
  for (let i = file.length - 1; i >= 0; i--) nextHidden[i] = hidden(file[i]) ? i : nextHidden[i + 1];
  const memo = new Map<number, boolean | null>();
  // false: no match; null: walked off the end, so no later start can match either (minimatch's own short cut).
  const walk = (at: number, index: number): boolean | null => {
    if (index === sections.length) return at < file.length ? nextHidden[at] === file.length : tailMatch > 0;
    const key = at * (sections.length + 1) + index;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const section = sections[index];
    let answer: boolean | null;
    if (at > section.after) answer = null;
    else {
      const rest = index < MAX_GLOBSTAR_RECURSION && matchSection(file, section.parts, at) ? walk(at + section.parts.length, index + 1) : false;
      answer = rest !== false ? rest : hidden(file[at]) ? false : walk(at + 1, index);
    }
    memo.set(key, answer);
    return answer;
  };
  return walk(start, 0) === true;
}
