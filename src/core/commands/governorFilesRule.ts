import { userInfo } from 'node:os';
import { posix } from 'node:path';
import type { TrustStore } from './hookTrustRules';
import { toolError, type ToolError } from '../toolError';
import { GOVERNOR_HOME, governorStores, storeReached, type Reach } from './governorStores';
import type { ShellWord } from './shellWords';
import { resolveIn, type Directories } from './workingDirectory';

/** What every door says when an agent's call would read (or name) the governor's own files. */
export const NOT_FOR_AGENTS =
  "the governor's own files (its signing keys, the resident's token, hook approvals, run logs) are not for agents; a person manages them at a terminal (governor keys …, governor hooks …)";

/** The one finding: a word reaches a store (denied), or might and the text cannot say (ask). */
export type GovernorFileFinding = { kind: 'reaches'; store: TrustStore; path: string; holds: boolean } | { kind: 'unknown'; why: string } | undefined;

/** What a variable holds at this point of the command line. */
export type VariableValue = { kind: 'known'; values: readonly string[] } | { kind: 'unknown' } | { kind: 'inherited' };

export interface WordContext {
  stores: readonly TrustStore[];
  start: string; // absolute: where the command line starts (the workspace root, or run_command's cwd)
  dirs: Directories; // where this command runs, relative to `start`
  homeDir?: string;
  variable: (name: string) => VariableValue;
}

// Inherited variables that can name the home or the governor's places: their value here is not the agent's shell's.
const PLACE_VARIABLES = new Set(['HOME', 'OLDPWD', 'CDPATH', 'ZDOTDIR', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA']);
const PLACE_PREFIXES = ['XDG_', 'INTENT_GOVERNOR'];
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const ANY_REFERENCE = /\$\{?#?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/g;
// Past this many spellings (a variable with many values, several of them) a word is not one anybody reviews.
const MAX_SPELLINGS = 64;

/**
 * Where a shell word could land as a path, and whether that is inside the governor's home or a hook trust store.
 * `~`, `$HOME`, `${HOME}` and `$PWD` are expanded, variables this command line set are replaced by their values,
 * an option's `=value` counts as a path too, relative paths are placed in each folder the command may run in.
 * A word whose value the text cannot know (a variable set at run time, one that can name the home) is unknown.
 */
export function governorFileIn(word: ShellWord, context: WordContext, reach: Reach): GovernorFileFinding {
  const texts = word.text.includes('=') ? [word.text, word.text.slice(word.text.indexOf('=') + 1)] : [word.text];
  for (const text of texts) {
    // Only a word with expansions in it has variables: a quoted '$HOME' is those five characters.
    const spellings = word.dynamic ? substitute(text, context) : { kind: 'texts' as const, texts: [text] };
    if (spellings.kind === 'unknown') return spellings;
    for (const spelling of spellings.texts) {
      const finding = judgeSpelling(spelling, word.dynamic, context, reach);
      if (finding) return finding;
    }
  }
  return undefined;
}

function judgeSpelling(text: string, dynamic: boolean, context: WordContext, reach: Reach): GovernorFileFinding {
  const expanded = tilde(text, context.homeDir);
  if ((dynamic && /[$`]/.test(expanded)) || expanded.startsWith('~')) return byName(expanded, context.stores, true);
  const landed = resolveIn(context.dirs, expanded);
  if (landed === null) {
    // From a folder the text cannot follow, only a climb, a wildcard or a whole tree could reach a store.
    if (reach.recursive || /[*?[]/.test(expanded) || expanded.split('/').includes('..')) return { kind: 'unknown', why: `reads ${text} from a folder only known at run time` };
    return byName(expanded, context.stores, false);
  }
  for (const place of landed) {
    const absolute = place.startsWith('~') ? tilde(place, context.homeDir) : posix.resolve(context.start, place);
    if (absolute.startsWith('~')) continue; // ~user: another user's home
    const reached = storeReached(absolute, context.stores, reach);
    if (reached?.kind === 'store') return { kind: 'reaches', store: reached.store, path: text, holds: reached.relation === 'holds' };
    if (reached?.kind === 'too-many') return { kind: 'unknown', why: `reads ${text}, a pattern matching more files than can be checked` };
  }
  return byName(expanded, context.stores, false);
}

/**
 * A spelling that cannot be placed still names a store when it holds the store's own folder names
 * (`$XDG_CONFIG_HOME/intent-governor/hook-approvals`, `/other/root/.intent-governor/keys`): the signing keys'
 * names count in any word, the rest only where the path could not be resolved.
 */
function byName(text: string, stores: readonly TrustStore[], unresolved: boolean): GovernorFileFinding {
  const folded = `/${text.normalize('NFC').toLowerCase()}/`;
  for (const store of stores) {
    const segments = store.path.split('/').filter(Boolean);
    const tail = segments.slice(store.what === GOVERNOR_HOME ? -1 : -2).join('/').toLowerCase();
    const keys = /\.intent-governor\/keys$/.test(tail);
    if ((unresolved || keys) && folded.includes(`/${tail}/`)) return { kind: 'reaches', store, path: text, holds: false };
  }
  return undefined;
}

/** `~`, `~/…` and `~me/…` are the home directory (kept as written when it is not known). */
function tilde(text: string, homeDir: string | undefined): string {
  if (!homeDir) return text;
  const match = /^~([^/]*)(?=\/|$)/.exec(text);
  if (!match) return text;
  const user = match[1];
  if (user !== '' && user !== currentUser()) return text;
  return posix.join(homeDir, text.slice(match[0].length)) || '/';
}

function currentUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/** Every text the word can be once the variables the command line set are replaced; unknown when one cannot be. */
function substitute(text: string, context: WordContext): { kind: 'texts'; texts: string[] } | { kind: 'unknown'; why: string } {
  let texts = [text];
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1] ?? match[2];
    const values = valuesOf(name, context);
    if (values === undefined) continue;
    if (values === null) return { kind: 'unknown', why: `reads ${text}, where $${name} is only known at run time` };
    texts = texts.flatMap((t) => values.map((v) => t.replace(match[0], v)));
    if (texts.length > MAX_SPELLINGS) return { kind: 'unknown', why: `reads ${text}, which has too many values to check` };
  }
  // What is left: ${X:-…}, ${#X}, $1, $@ and the like. Those of a variable that was set here, or that can name a place, are unknown.
  for (const text of texts) {
    for (const match of text.matchAll(ANY_REFERENCE)) {
      const name = match[1];
      if (/^[0-9@*]$/.test(name) || valuesOf(name, context) !== undefined) return { kind: 'unknown', why: `reads ${text}, where $${name} is only known at run time` };
    }
  }
  return { kind: 'texts', texts };
}

/** A variable's values here; undefined: inherited and harmless (kept as written), null: not knowable. */
function valuesOf(name: string, context: WordContext): readonly string[] | null | undefined {
  if (name === 'HOME') return context.homeDir ? [context.homeDir] : null;
  if (name === 'PWD') return context.dirs?.length === 1 && !context.dirs[0].startsWith('~') ? [posix.resolve(context.start, context.dirs[0])] : null;
  const value = context.variable(name);
  if (value.kind === 'known') return value.values;
  if (value.kind === 'unknown') return null;
  return PLACE_VARIABLES.has(name) || PLACE_PREFIXES.some((p) => name.startsWith(p)) ? null : undefined;
}

/**
 * The same rule for a file tool's path (read_file, list_files, a write): its real path in a store, or, for a
 * recursive listing, a store below it. Workspaces rarely hold the home, but a home folder opened as one does.
 */
export function governorFileRefusal(abs: string, rel: string, reach: Reach, stores: readonly TrustStore[] = governorStores()): ToolError | undefined {
  const reached = storeReached(abs, stores, reach);
  if (reached?.kind !== 'store') return undefined;
  const where = reached.relation === 'holds' ? `holds ${reached.store.what}` : `is in ${reached.store.what}`;
  return toolError('PROTECTED_PATH', `"${rel || '.'}" ${where}: ${NOT_FOR_AGENTS}. Do not retry; leave these files alone, or ask the user.`, { path: rel, store: reached.store.what });
}
