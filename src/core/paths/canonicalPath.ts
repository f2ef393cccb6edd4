import type { Dir, Stats } from 'node:fs';
import { lstatSync, opendirSync, promises as fsp, readlinkSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { fail, ok, toolError, type ErrorCode, type Result, type ToolError } from '../toolError';

export type PathPurpose = 'read' | 'write';

export interface CanonicalPath {
  /** Realpath-resolved absolute path (the link's target when a read goes through a symlink). */
  abs: string;
  /** Workspace-relative, POSIX separators, NFC, no leading `./`; never '' (the root is not a file). */
  rel: string;
  exists: boolean;
}

export interface PathOptions {
  caseInsensitive: boolean;
}

const MAX_INPUT_LENGTH = 4096;
// Past this many hops a dangling chain is a loop or an attack; the kernel's own limit is 40.
const MAX_LINK_HOPS = 40;
/**
 * Looks at a path that changed while it was being resolved (a folder another call or process created between
 * the realpath and the lstat) again from the start, this many times, before giving up on it (fail closed).
 */
const MAX_RESOLVE_RETRIES = 8;
// C0/C1 controls and the bidi formatting marks that can make a path read differently in an approval modal.
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³]|conin\$|conout\$)\s*(\..*)?$/iu;
const DRIVE_ABSOLUTE = /^[a-z]:\//iu;

/**
 * The one place a path from an agent becomes a path the filesystem sees. Validation is lexical first
 * (cheap, no I/O), then the longest existing ancestor is realpath'd so symlinks cannot lead outside.
 * Backslashes are refused rather than normalised: on POSIX they are ordinary filename characters, so
 * guessing either meaning would let the same string name different files on different machines.
 */
export async function canonicalizePath(
  root: string,
  input: string,
  purpose: PathPurpose,
  options: PathOptions,
): Promise<Result<CanonicalPath>> {
  const given = input as unknown;
  if (typeof given !== 'string') {
    return fail(toolError('INVALID_INPUT', `The path must be a string, not ${given === null ? 'null' : typeof given}; pass a workspace-relative path such as "src/index.ts".`, { path: given === undefined ? null : String(given) }));
  }
  const err = (code: ErrorCode, what: string, meta?: Record<string, unknown>) => pathError(code, given, what, meta);
  if (given.length === 0) return fail(err('INVALID_INPUT', 'is empty; pass a workspace-relative path such as "src/index.ts".'));
  if (given.length > MAX_INPUT_LENGTH) return fail(err('INVALID_INPUT', `is longer than ${MAX_INPUT_LENGTH} characters; use a shorter workspace-relative path.`));
  if (FORBIDDEN_CHARS.test(given)) {
    return fail(err('INVALID_INPUT', 'contains a control or bidirectional-formatting character; retype the path using printable characters only.'));
  }
  const text = given.normalize('NFC');
  if (text.startsWith('~')) {
    return fail(err('PATH_OUTSIDE_WORKSPACE', 'starts with "~" (a home directory), which is outside the workspace; use a path relative to the workspace root.'));
  }
  if (text.includes('\\')) {
    return fail(err('INVALID_INPUT', 'contains a backslash; separate folders with "/" (for example "src/app/main.ts").'));
  }
  // On POSIX "C:/x" would otherwise be a relative folder named "C:"; it means another drive, so it is outside.
  if (DRIVE_ABSOLUTE.test(text) && process.platform !== 'win32') {
    return fail(err('PATH_OUTSIDE_WORKSPACE', 'is a drive-letter path, which is outside the workspace; use a path relative to the workspace root.'));
  }
  const isAbsolute = path.isAbsolute(text);
  // Relative input: check every segment as typed. Absolute input: only the part below the root (below),
  // so the root's own folder names are never judged.
  if (!isAbsolute) {
    const bad = checkSegments(text.split('/'), err);
    if (bad) return fail(bad);
  }

  const lexical = path.resolve(root, text);
  const segments = segmentsBelow(root, lexical, options.caseInsensitive);
  if (segments === undefined) {
    return fail(err('PATH_OUTSIDE_WORKSPACE', 'resolves outside the workspace; use a path inside the workspace root (".." may not climb above it).'));
  }
  // Stryker disable next-line ConditionalExpression: for relative input the segments below the root are the typed ones minus '.' and '..', all checked above, so checking them again changes nothing
  if (isAbsolute) {
    const bad = checkSegments(segments, err);
    if (bad) return fail(bad);
  }
  if (segments.length === 0) return fail(err('INVALID_INPUT', 'is the workspace root itself; name a file inside it.'));

  const found = await resolveOnDisk({ root, caseInsensitive: options.caseInsensitive, err }, path.join(root, ...segments), 0);
  if (!found.ok) return found;
  const { abs, entry, finalIsLink } = found.value;
  const relSegments = segmentsBelow(root, abs, options.caseInsensitive);
  if (relSegments === undefined) return fail(err('PATH_OUTSIDE_WORKSPACE', 'resolves outside the workspace; use a path inside the workspace root.'));
  if (relSegments.length === 0) return fail(err('INVALID_INPUT', 'resolves to the workspace root itself; name a file inside it.'));
  const rel = relSegments.join('/').normalize('NFC');

  if (purpose === 'write') {
    if (finalIsLink) {
      return fail(err('PROTECTED_PATH', `is a symbolic link; writes through symbolic links are refused. Write the link's target path ("${rel}") instead.`, { reason: 'symlink', target: rel }));
    }
    if (entry?.isDirectory() || (!entry && /\/(\.\.?)?$/u.test(text))) {
      return fail(err('INVALID_INPUT', 'is a directory; a write needs a file path inside it.', { reason: 'directory' }));
    }
    if (entry && !entry.isFile()) return fail(err('INVALID_INPUT', 'is not a regular file (a device, socket or pipe); only regular files can be written.'));
    if (entry && entry.nlink > 1) {
      return fail(err('PROTECTED_PATH', `has ${entry.nlink} hard links; a write through it would also change another path the scope cannot see, possibly a protected one. Create a new file instead, or ask a human to break the link.`, { reason: 'hardlink', links: entry.nlink }));
    }
  } else if (entry && !entry.isFile() && !entry.isDirectory()) {
    return fail(err('INVALID_INPUT', 'is not a regular file or directory (a device, socket or pipe); only files and directories can be read.'));
  }
  return ok({ abs, rel, exists: entry !== undefined });
}

interface Resolved {
  abs: string;
  /** Stats of what `abs` names (after following a final link), undefined when nothing is there. */
  entry: Stats | undefined;
  /** The path as given ends in a symbolic link (live or dangling). */
  finalIsLink: boolean;
}

interface Ctx {
  root: string;
  caseInsensitive: boolean;
  err: (code: ErrorCode, what: string, meta?: Record<string, unknown>) => ToolError;
}

/** What a throwing lstat would have said of a path that is not there: the reason a walk that finds nothing reports. */
const NOTHING_THERE = { code: 'ENOENT' };

/**
 * Where `target` really lands. An existing path costs one realpath and one lstat; a missing one walks up
 * to its longest existing ancestor, and a dangling link on the way is followed so a later create cannot
 * escape through it. Synchronous calls: each is microseconds, less than a thread-pool round trip.
 */
async function resolveOnDisk(ctx: Ctx, target: string, hops: number, retries = 0): Promise<Result<Resolved>> {
  const { err } = ctx;
  // The path changed under us (created or removed between two looks): judge what is there now, from the start.
  const changed = (error: unknown) => (retries < MAX_RESOLVE_RETRIES ? resolveOnDisk(ctx, target, hops, retries + 1) : fail<Resolved>(unresolvable(err, error)));
  const outside = () => fail<Resolved>(err('PATH_OUTSIDE_WORKSPACE', 'leads outside the workspace through a symbolic link; use a path whose real location is inside the workspace.'));
  // Stryker disable next-line ConditionalExpression,StringLiteral: each hop is a link the kernel and libc also follow in one lookup, and they stop at 40 with ELOOP first, so on Linux this count never passes 40
  if (hops > MAX_LINK_HOPS) return fail(err('INVALID_INPUT', 'goes through too many symbolic links (a loop?); use the real path of the file.'));
  const segments = segmentsBelow(ctx.root, target, ctx.caseInsensitive);
  if (segments === undefined) return outside();

  // Synchronous on purpose: two metadata calls cost microseconds, while thread-pool round trips dominated
  // the tail latency of every governed call. lstat first and without throwing: for a file about to be created
  // (most writes) a thrown ENOENT, with its stack, cost more than the calls themselves.
  const lst = settle(() => lstatSync(target, { throwIfNoEntry: false }));
  if (lst.status === 'rejected' && errnoOf(lst.reason) !== 'ENOTDIR') return fail(unresolvable(err, lst.reason));
  let missing: unknown;
  if (lst.status === 'fulfilled' && lst.value) {
    const real = settle(() => realpathSync.native(target));
    if (real.status === 'fulfilled') {
      if (segmentsBelow(ctx.root, real.value, ctx.caseInsensitive) === undefined) return outside();
      const finalIsLink = lst.value.isSymbolicLink();
      const entry = finalIsLink ? await statOrUndefined(real.value) : lst.value;
      if (!entry) return fail(unresolvable(err, undefined));
      return ok({ abs: real.value, entry, finalIsLink });
    }
    const code = errnoOf(real.reason);
    // A dangling link, or the entry went between the two looks: the walk below judges what is there.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return fail(unresolvable(err, real.reason));
    missing = real.reason;
  } else {
    missing = lst.status === 'rejected' ? lst.reason : NOTHING_THERE;
  }

  // Walk up to the deepest ancestor that exists; `k` segments of the path are then real.
  // Stryker disable next-line ArithmeticOperator: starting higher only realpaths the whole target again, which just failed with ENOENT or ENOTDIR, so the walk stops at the same ancestor
  let k = segments.length - 1;
  let ancestor: string | undefined;
  for (; k >= 0; k--) {
    try {
      ancestor = realpathSync.native(path.join(ctx.root, ...segments.slice(0, k)));
      break;
    } catch (error) {
      const c = errnoOf(error);
      if (c !== 'ENOENT' && c !== 'ENOTDIR') return fail(unresolvable(err, error));
    }
  }
  if (ancestor === undefined) return fail(unresolvable(err, missing));
  if (segmentsBelow(ctx.root, ancestor, ctx.caseInsensitive) === undefined) return outside();

  const first = path.join(ancestor, segments[k]!);
  const rest = segments.slice(k + 1);
  let firstStat: Stats | undefined;
  try {
    firstStat = lstatSync(first, { throwIfNoEntry: false });
  } catch (error) {
    if (errnoOf(error) === 'ENOTDIR') return fail(err('INVALID_INPUT', 'goes through a file as if it were a folder; check the path.'));
    return fail(unresolvable(err, error));
  }
  if (!firstStat) return ok({ abs: path.join(first, ...rest), entry: undefined, finalIsLink: false });
  if (!firstStat.isSymbolicLink()) {
    // The path looked missing but lstat found an entry: a file used as a folder, or a concurrent change.
    if (rest.length > 0 && !firstStat.isDirectory()) return fail(err('INVALID_INPUT', 'goes through a file as if it were a folder; check the path.'));
    return changed(missing);
  }
  // A dangling link: follow it lexically to where a create would land, and judge that place.
  let linkTarget: string;
  try {
    linkTarget = readlinkSync(first);
  } catch (error) {
    return fail(unresolvable(err, error));
  }
  // Stryker disable next-line ArithmeticOperator: the hop count only feeds the guard above, which the kernel's own 40-link ELOOP makes unreachable on Linux
  const landing = await resolveOnDisk(ctx, path.resolve(ancestor, linkTarget, ...rest), hops + 1);
  if (!landing.ok) return landing;
  return ok({ ...landing.value, finalIsLink: rest.length === 0 || landing.value.finalIsLink });
}

/**
 * The segments of `abs` below `root` in `abs`'s own spelling; [] for the root itself; undefined when
 * `abs` is not inside. Uses path.relative, never a string prefix, so `/ws-evil` is not inside `/ws`.
 */
function segmentsBelow(root: string, abs: string, caseInsensitive: boolean): string[] | undefined {
  const rel = caseInsensitive ? path.relative(root.toLowerCase(), abs.toLowerCase()) : path.relative(root, abs);
  if (rel === '') return [];
  if (path.isAbsolute(rel) || rel === '..' || rel.startsWith(`..${path.sep}`)) return undefined;
  // Lower-casing never adds or removes separators, so the tail of `abs` lines up with `rel`.
  const count = rel.split(path.sep).length;
  return path.resolve(abs).split(path.sep).slice(-count);
}

/** Segment rules that keep one string naming one file on every OS (Windows devices, NTFS streams, trimming). */
function checkSegments(segments: readonly string[], err: Ctx['err']): ToolError | undefined {
  for (const segment of segments) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: an empty segment (from '//' or a trailing '/') passes every rule below anyway; skipping it is a shortcut
    if (segment === '' || segment === '.' || segment === '..') continue;
    if (WINDOWS_DEVICE.test(segment)) {
      return err('INVALID_INPUT', `uses "${segment}", a reserved Windows device name; rename the file (for example "${segment}_").`, { segment });
    }
    if (segment.includes(':')) {
      return err('INVALID_INPUT', `has a ":" in "${segment}" (an alternate data stream or drive letter); use a plain workspace-relative path without ":".`, { segment });
    }
    if (segment.endsWith('.') || segment.endsWith(' ')) {
      return err('INVALID_INPUT', `has a name ending in a dot or space ("${segment}"), which Windows silently trims; remove the trailing character.`, { segment });
    }
  }
  return undefined;
}

function pathError(code: ErrorCode, input: string, what: string, meta?: Record<string, unknown>): ToolError {
  // JSON quoting shows hidden characters to the model and the human; very long inputs are shortened.
  const shown = JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
  return toolError(code, `The path ${shown} ${what}`, { path: input, ...meta });
}

function unresolvable(err: Ctx['err'], error: unknown): ToolError {
  const code = errnoOf(error) ?? 'ECHANGED';
  if (code === 'ELOOP') return err('INVALID_INPUT', 'goes through a symbolic link loop; use the real path of the file.', { errno: code });
  return err('INVALID_INPUT', `could not be checked safely (${code}); make sure it exists and is readable, or use another path.`, { errno: code });
}

async function statOrUndefined(abs: string): Promise<Stats | undefined> {
  try {
    return await fsp.stat(abs);
  } catch {
    return undefined;
  }
}

function settle<T>(run: () => T): PromiseSettledResult<T> {
  try {
    return { status: 'fulfilled', value: run() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Stryker disable next-line ConditionalExpression: fs errors carry string codes or none, so the code is returned as is either way
  return typeof code === 'string' ? code : undefined;
}

/** Workspace-relative path with POSIX separators (for callers holding a platform path). */
export function toPosix(p: string): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: on POSIX, where the mutants run, path.sep is '/' and both branches return p unchanged
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

const caseProbeCache = new Map<string, boolean>();
const PROBE_ENTRY_LIMIT = 64;

/**
 * True when names in `root` compare case-insensitively. Side-effect free: it looks up an existing entry of
 * the root with its case flipped and compares inode numbers. With no such entry it flips the root's own
 * name (which tests the parent folder). Undecidable or failing probes answer false (exact-case scope
 * matching is the stricter choice) and are not cached; decided answers are cached per root.
 */
export async function detectCaseInsensitive(root: string): Promise<boolean> {
  const cached = caseProbeCache.get(root);
  if (cached !== undefined) return cached;
  // Synchronous probes: a handful of metadata calls, once per root, cheaper than thread-pool round trips.
  const answer = probeChild(root) ?? probeSelf(root);
  if (answer === undefined) return false;
  // Stryker disable next-line CallExpression: a cache; without it every call probes again and gets the same answer
  caseProbeCache.set(root, answer);
  return answer;
}

function probeChild(root: string): boolean | undefined {
  let name: string | undefined;
  let dir: Dir | undefined;
  try {
    dir = opendirSync(root);
    for (let seen = 0, dirent = dir.readSync(); dirent && seen < PROBE_ENTRY_LIMIT; seen++, dirent = dir.readSync()) {
      if (flipCase(dirent.name) !== dirent.name) {
        name = dirent.name;
        break;
      }
    }
  } catch {
    return undefined;
  } finally {
    dir?.closeSync();
  }
  return name === undefined ? undefined : sameEntry(path.join(root, name), path.join(root, flipCase(name)));
}

function probeSelf(root: string): boolean | undefined {
  const parts = root.split(path.sep);
  for (let i = parts.length - 1; i >= 1; i--) {
    const flipped = flipCase(parts[i]!);
    if (flipped !== parts[i]) return sameEntry(root, [...parts.slice(0, i), flipped, ...parts.slice(i + 1)].join(path.sep));
  }
  return undefined;
}

function sameEntry(original: string, variant: string): boolean | undefined {
  const a = settle(() => lstatSync(original, { bigint: true }));
  const b = settle(() => lstatSync(variant, { bigint: true }));
  if (a.status === 'rejected') return undefined;
  if (b.status === 'rejected') return errnoOf(b.reason) === 'ENOENT' ? false : undefined;
  return a.value.ino === b.value.ino && a.value.dev === b.value.dev;
}

function flipCase(name: string): string {
  let out = '';
  for (const ch of name) {
    const upper = ch.toUpperCase();
    out += upper === ch ? ch.toLowerCase() : upper;
  }
  return out;
}
