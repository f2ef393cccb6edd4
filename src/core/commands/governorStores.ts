import { lstatSync, opendirSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { minimatch } from 'minimatch';
import { governorHome } from '../paths/governorHome';
import { hookTrustStores, type TrustStore } from './hookTrustRules';

/**
 * What an agent may not read: the governor's home (signing keys, the resident's endpoint and token under run/,
 * the redaction key, hook runs and jobs), and the hook trust stores (the approvals live beside the anchors, not
 * in the home). The trust stores come first, so a refusal names the most precise place.
 */
export function governorStores(places: { trustStores?: readonly TrustStore[]; home?: string } = {}, env: NodeJS.ProcessEnv = process.env): TrustStore[] {
  return [...(places.trustStores ?? hookTrustStores(env)), { path: places.home ?? governorHome(env), what: GOVERNOR_HOME }];
}

export const GOVERNOR_HOME = "the governor's home";

/** How a path is used: `recursive` readers (grep -r, tar, find) reach everything below it too. */
export interface Reach {
  recursive: boolean;
}

/** Past this many directory entries a glob is not expanded further: the caller asks instead of guessing. */
const MAX_GLOB_ENTRIES = 20_000;
const GLOB_CHARS = /[*?[]/;

/** `in`: the path is a store or lies in one; `holds`: a whole tree read from it holds one. */
export type StoreReach = { kind: 'store'; store: TrustStore; relation: Relation } | { kind: 'too-many' } | undefined;
type Relation = 'in' | 'holds';

/**
 * The store an absolute path (possibly a glob) could reach, by what it resolves to rather than how it is
 * spelled: `..` both as written and after the symbolic links it crosses, the real path of what exists, and for
 * a glob whether it could match a path inside a store (or, for a recursive reader, an ancestor of one), both
 * against the stores' names and against what the filesystem holds (a link a wildcard crosses).
 */
export function storeReached(absolute: string, stores: readonly TrustStore[], reach: Reach): StoreReach {
  const places = placesOf(stores);
  const hit = (candidate: string, glob: boolean): StoreReach => {
    const segments = segmentsOf(fold(candidate));
    const relations = places.map((p) => ({ store: p.store, relation: glob ? globReaches(segments, p.segments, reach) : literalReaches(segments, p.segments, reach) }));
    // The most precise store a path lies in names the refusal; for a tree above them, the widest (the home).
    const found = relations.find((r) => r.relation === 'in') ?? relations.reverse().find((r) => r.relation === 'holds');
    return found && found.relation ? { kind: 'store', store: found.store, relation: found.relation } : undefined;
  };
  const segments = absolute.split('/');
  const wild = segments.findIndex((s) => GLOB_CHARS.test(s));
  if (wild < 0) return unique([posix.resolve(absolute), physical(absolute)]).map((c) => hit(c, false)).find(Boolean);
  const prefix = segments.slice(0, wild).join('/') || '/';
  const pattern = segments.slice(wild);
  const named = unique([posix.resolve(prefix), physical(prefix)]).map((base) => hit(posix.join(base, ...pattern), true)).find(Boolean);
  if (named) return named;
  // A wildcard may cross a symbolic link into a store: expand it and judge what it matches by its real path.
  const matches = expand(physical(prefix), pattern);
  if (matches === null) return { kind: 'too-many' };
  return matches.map((m) => hit(physical(m), false)).find(Boolean);
}

interface Place {
  store: TrustStore;
  segments: string[];
}

// Each list's stores as written and as their links resolve, once per list: one command line asks for every word.
const resolvedPlaces = new WeakMap<readonly TrustStore[], Place[]>();

function placesOf(stores: readonly TrustStore[]): Place[] {
  let places = resolvedPlaces.get(stores);
  if (!places) resolvedPlaces.set(stores, (places = stores.flatMap((store) => unique([store.path, physical(store.path)]).map((path) => ({ store, segments: segmentsOf(fold(path)) })))));
  return places;
}

/** `path` is a store or lies in one; a recursive reader also reaches a store below it. */
function literalReaches(segments: readonly string[], store: readonly string[], reach: Reach): Relation | undefined {
  if (store.every((s, i) => segments[i] === s)) return 'in';
  return reach.recursive && segments.length < store.length && segments.every((s, i) => store[i] === s) ? 'holds' : undefined;
}

/**
 * Could the glob match the store, a path inside it, or (recursive) a folder above it? `**` spans any number of
 * folders; wildcards match leading dots too (dotglob, or a program's own --include matching).
 */
function globReaches(glob: readonly string[], store: readonly string[], reach: Reach): Relation | undefined {
  const walk = (g: number, s: number): Relation | undefined => {
    if (s === store.length) return 'in'; // what is left of the glob may match anything inside the store
    if (g === glob.length) return reach.recursive ? 'holds' : undefined;
    if (glob[g] === '**') return walk(g + 1, s) ?? walk(g, s + 1);
    return segmentMatches(glob[g], store[s]) ? walk(g + 1, s + 1) : undefined;
  };
  return walk(0, 0);
}

function segmentMatches(glob: string, name: string): boolean {
  return GLOB_CHARS.test(glob) ? minimatch(name, glob, { dot: true, nocase: true, nobrace: true, noext: true, nonegate: true, nocomment: true }) : glob === name;
}

/** The paths a glob matches on disk below `base` (null: more entries than are worth reading). */
function expand(base: string, pattern: readonly string[]): string[] | null {
  let current = [base];
  let budget = MAX_GLOB_ENTRIES;
  for (const segment of pattern) {
    const next: string[] = [];
    for (const dir of current) {
      if (!GLOB_CHARS.test(segment)) {
        next.push(posix.join(dir, segment));
        continue;
      }
      for (const name of entries(dir)) {
        if (--budget < 0) return null;
        if (segmentMatches(segment === '**' ? '*' : segment, name)) next.push(posix.join(dir, name));
      }
    }
    current = next;
  }
  return current;
}

function entries(dir: string): string[] {
  try {
    const handle = opendirSync(dir);
    const names: string[] = [];
    try {
      for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) names.push(entry.name);
    } finally {
      handle.closeSync();
    }
    return names;
  } catch {
    return [];
  }
}

/**
 * Where the kernel lands on `path`: segment by segment, a symbolic link replaced by its real path before the
 * next `..` applies to it (as opening the file would), the part that does not exist kept as written.
 */
export function physical(path: string): string {
  let current = '/';
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '..') {
      current = posix.dirname(current);
      continue;
    }
    const next = posix.join(current, segment);
    try {
      current = lstatSync(next).isSymbolicLink() ? realpathSync(next) : next;
    } catch {
      return posix.resolve(next, ...segments.slice(i + 1));
    }
  }
  return current;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

// Names compare case-folded and NFC (macOS and Windows filesystems), the safe error on Linux.
function fold(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
