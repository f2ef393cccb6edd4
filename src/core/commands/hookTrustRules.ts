import { realpathSync } from 'node:fs';
import { join, posix } from 'node:path';
import { governorHome } from '../paths/governorHome';
import type { ShellWord } from './shellWords';
import { homeStore, hookApprovalsDir } from '../paths/userStores';

/**
 * Hooks from a repository run only once a person approved them, and the user's own hooks file runs unasked.
 * So no agent may run `governor hooks trust` (however it is spelled) or write where those decisions live:
 * either would let the agent approve code that then runs on every call.
 */
export const ONLY_A_PERSON = 'only a person at a terminal may trust hooks (governor hooks trust)';

/** A place whose contents decide which hooks run. */
export interface TrustStore {
  path: string; // absolute
  what: string; // for the refusal: "the hook approvals store"
}

/** The approvals store (beside the trace anchors), the user's hooks file and the signing keys, as this process finds them. */
export function hookTrustStores(env: NodeJS.ProcessEnv = process.env): TrustStore[] {
  return [
    { path: hookApprovalsDir(env), what: 'the hook approvals store' },
    { path: join(governorHome(env), 'hooks.json'), what: "the user's hooks file" },
    { path: signingKeysDir(env), what: 'the trace signing keys' },
  ];
}

/** Where the CLI keeps its private signing key: an agent that read it could sign forged trace records. */
export function signingKeysDir(env: NodeJS.ProcessEnv = process.env): string {
  return homeStore('keys', env);
}

export const ONLY_A_PERSON_KEYS = 'only a person may create, trust or revoke signing keys, and no agent may read them (governor keys)';

/** Whether these words run `governor keys init|trust|revoke` (or a mode only known at run time). */
export function runsKeysChange(argv: readonly ShellWord[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word.dynamic || word.text !== 'keys') continue;
    const mode = modeAfter(argv, i + 1);
    if (mode && (mode.dynamic || ['init', 'trust', 'revoke'].includes(mode.text))) return true;
  }
  return false;
}

// `governor hooks` options that take a value (`--workspace DIR`), so the value is not read as the mode.
const VALUED_OPTIONS = new Set(['--workspace', '--agent']);

/**
 * Whether these words run `hooks trust`: the governor CLI by any path or package runner (`governor`,
 * `node …/cli.js`, `npx intent-governor`) ends its argv in `hooks [options] trust`. A mode only known at run
 * time after `hooks` counts too. Matching the words, not the program, keeps every spelling covered.
 */
export function runsHooksTrust(argv: readonly ShellWord[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word.dynamic || word.text !== 'hooks') continue;
    const mode = modeAfter(argv, i + 1);
    if (mode && (mode.dynamic || mode.text === 'trust')) return true;
  }
  return false;
}

function modeAfter(argv: readonly ShellWord[], start: number): ShellWord | undefined {
  for (let i = start; i < argv.length; i++) {
    const word = argv[i];
    if (word.dynamic || !word.text.startsWith('-')) return word;
    if (VALUED_OPTIONS.has(word.text)) i++;
  }
  return undefined;
}

/**
 * The trust store a write to `text` would change, if any. A leading `~` or `$HOME` is `homeDir`; a relative
 * literal path is placed under `base` (the workspace root, where commands start). A glob counts from its
 * first wildcard on, and a folder above a store counts (moving or replacing it replaces the store). Any path
 * holding a store's last two segments counts too, so `$XDG_CONFIG_HOME/intent-governor/hook-approvals/x` and
 * paths only known at run time are caught. Names compare case-folded and NFC, and through the symbolic links
 * of what exists: fail closed.
 */
export function trustStoreAt(text: string, stores: readonly TrustStore[], context: { homeDir?: string; base?: string } = {}): TrustStore | undefined {
  const { homeDir, base } = context;
  const expanded = homeDir ? text.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, homeDir) : text;
  if (!/[$`~]/.test(expanded) && (expanded.startsWith('/') || base)) {
    const hit = literalTarget(posix.resolve(base ?? '/', expanded), stores);
    if (hit) return hit;
  }
  const folded = fold(expanded);
  return stores.find((store) => {
    const tail = fold(store.path.split('/').slice(-2).join('/'));
    return folded === tail || folded.startsWith(`${tail}/`) || folded.includes(`/${tail}`);
  });
}

function literalTarget(absolute: string, stores: readonly TrustStore[]): TrustStore | undefined {
  const wildcard = absolute.search(/[*?[{]/);
  const fixed = wildcard < 0 ? absolute : absolute.slice(0, absolute.lastIndexOf('/', wildcard)) || '/';
  const candidates = [fixed, realExisting(fixed)].map(fold);
  return stores.find((store) => [store.path, realExisting(store.path)].map(fold).some((place) => candidates.some((candidate) => below(candidate, place) || below(place, candidate))));
}

/** `a` is `b` or lies inside it. */
function below(a: string, b: string): boolean {
  return a === b || b === '/' || a.startsWith(`${b}/`);
}

/** The real path of the longest existing part of `path`, with the rest appended. */
function realExisting(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (existing !== '/') {
    try {
      return posix.join(realpathSync(existing), ...rest.reverse());
    } catch {
      rest.push(posix.basename(existing));
      existing = posix.dirname(existing);
    }
  }
  return path;
}

function fold(path: string): string {
  return path.normalize('NFC').toLowerCase().replace(/\/+$/, '') || '/';
}
