import { Minimatch } from 'minimatch';
import { managedPolicy, type ManagedPolicy } from '../managed/managedPolicy';
import { toolError, type ToolError } from '../toolError';

/**
 * Folders and files that steer the governor, git or an agent; no intent's scope can grant a write to them.
 * Every pattern matches at any depth, not only at the root: any subfolder can become a workspace root, a
 * repository (nested repos, submodule `.git` files) or an agent's working directory, and git hooks and
 * `.vscode/tasks.json` run code there. The cost is that a human edits look-alike fixtures by hand.
 */
// Signers first, so a refusal names the folder of trusted keys: a key written there would make forged records verify.
// Antigravity CLI's customization roots (.agents and its three other spellings) hold the hooks.json it runs, and
// skills; Droid (.factory/hooks.json), Kilo Code (.kilo/plugin/, .kilocode/) and Auggie (.augment/settings.json) run
// hooks or plugins from theirs, governed or not, so no governed agent may plant one for them.
const PROTECTED_DIRS = ['.orchestration/signers', '.orchestration', '.git', '.vscode', '.claude', '.cursor', '.github/hooks', '.github/copilot', '.roo', '.clinerules', '.gemini', '.codex', '.opencode', '.qwen', '.agents', '.agent', '_agents', '_agent', '.factory', '.kilo', '.kilocode', '.augment'];
// OpenCode's and Kilo Code's project configs can switch plugins off or add them (and .opencode/plugins holds ours).
const PROTECTED_FILES = ['.mcp.json', '.cursorrules', '.roomodes', 'opencode.json', 'opencode.jsonc', 'kilo.json', 'kilo.jsonc'];

export const PROTECTED_PATTERNS: readonly string[] = [
  ...PROTECTED_DIRS.flatMap((dir) => [`**/${dir}`, `**/${dir}/**`]),
  ...PROTECTED_FILES.map((file) => `**/${file}`),
];

/**
 * Every built-in protected name as a path below one folder (`.claude`, `.github/hooks`, `.mcp.json`): what the
 * sandbox keeps read-only under each writable folder whether it exists yet or not.
 */
export const PROTECTED_ENTRIES: ReadonlyArray<{ rel: string; kind: 'dir' | 'file' }> = [
  ...PROTECTED_DIRS.filter((dir) => !PROTECTED_DIRS.some((outer) => dir.startsWith(`${outer}/`))).map((rel) => ({ rel, kind: 'dir' as const })),
  ...PROTECTED_FILES.map((rel) => ({ rel, kind: 'file' as const })),
];

const MATCH_OPTIONS = { dot: true, nocase: true, nonegate: true, nobrace: true, noext: true, nocomment: true, platform: 'linux' } as const;
const DIR_SEGMENTS = PROTECTED_DIRS.map((dir) => dir.split('/'));

// Code points HFS+ ignores when comparing names (git's CVE-2014-9390 list covers these), so ".g\u200cit" is ".git".
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// NTFS 8.3 short name of ".git"; git itself refuses it for the same reason.
const GIT_SHORT_NAME = /^git~\d+$/u;

/**
 * The protected pattern `rel` falls under, or undefined: the built-in ones, then the administrator's (the managed
 * file's `protectedPaths`, which no intent, user or repository file can drop). Matching ignores case on every
 * filesystem. A managed file that cannot be used protects every path: it may be the one that listed this path.
 */
export function protectedPatternFor(rel: string): string | undefined {
  const segments = foldForProtection(rel);
  const builtIn = builtInPattern(segments);
  if (builtIn !== undefined) return builtIn;
  const folded = segments.join('/');
  const policy = managedPolicy();
  if (policy.state === 'absent') return undefined;
  if (policy.state === 'broken') return `every path, while the administrator's managed file ${policy.file} cannot be used: ${policy.problem}`;
  const hit = managedMatchers(policy).find(({ matchers }) => matchers.some((matcher) => matcher.match(folded)));
  return hit && `${hit.glob}, from the administrator's managed file ${policy.file}`;
}

/** Whether the administrator's managed file protects paths of its own (or is broken, which protects every path). */
export function managedProtectsPaths(): boolean {
  const policy = managedPolicy();
  return policy.state === 'broken' || (policy.state === 'present' && policy.protectedPaths.length > 0);
}

interface ManagedMatcher {
  glob: string;
  matchers: Minimatch[];
}

const managedCompiled = new WeakMap<ManagedPolicy, ManagedMatcher[]>();

/**
 * A managed glob reads as a .gitignore line does: with a '/' at its start or inside, it is anchored at the
 * workspace root; without, it matches at any depth. Either way a folder's contents are protected with it.
 */
function managedMatchers(policy: ManagedPolicy): ManagedMatcher[] {
  let matchers = managedCompiled.get(policy);
  if (!matchers) {
    matchers = policy.protectedPaths.map((glob) => {
      const trimmed = glob.trim().replace(/\/+$/u, '');
      const anchored = trimmed.startsWith('/') || trimmed.includes('/');
      const folded = foldForProtection(trimmed.replace(/^\/+/u, '')).join('/');
      const base = anchored ? folded : `**/${folded}`;
      return { glob, matchers: [base, `${base}/**`].map((pattern) => new Minimatch(pattern, MATCH_OPTIONS)) };
    });
    // Stryker disable next-line CallExpression: a cache of compiled globs; without it each call compiles the same globs again
    managedCompiled.set(policy, matchers);
  }
  return matchers;
}

export function protectedPathError(rel: string, pattern: string): ToolError {
  return toolError(
    'PROTECTED_PATH',
    `"${rel}" is protected (${pattern}): agents may not write this path whatever the intent's scope says; a human edits it. Leave it unchanged, or describe the change for the human to make.`,
    { path: rel, pattern },
  );
}

/**
 * The first of PROTECTED_PATTERNS the folded path matches, found segment by segment: every built-in pattern is a
 * protected folder (itself, or anything below it) or file at any depth, and matching every call against 36 compiled
 * globs was a tenth of a pre-tool hook's time. A '.' or '..' segment counts as a folder like any other (protected when
 * it holds a protected name below it).
 */
function builtInPattern(segments: readonly string[]): string | undefined {
  for (const [index, dir] of DIR_SEGMENTS.entries()) {
    let below = false;
    // Stryker disable next-line ArithmeticOperator: a window that runs past the end compares undefined segments, which never equal a name, so the extra turns never match
    for (let at = 0; at + dir.length <= segments.length; at++) {
      if (!dir.every((name, k) => segments[at + k] === name)) continue;
      if (at + dir.length === segments.length) return `**/${PROTECTED_DIRS[index]}`;
      below = true;
    }
    if (below) return `**/${PROTECTED_DIRS[index]}/**`;
  }
  const last = segments[segments.length - 1];
  return PROTECTED_FILES.includes(last) ? `**/${last}` : undefined;
}

/**
 * Fail closed on every spelling some filesystem treats as the same name: NFKC (compatibility forms), no
 * ignorable code points, case folded through upper then lower (so "ſ" and "ı" become "s" and "i"), NTFS
 * trailing dots and spaces trimmed, and the 8.3 alias of .git.
 */
function foldForProtection(rel: string): string[] {
  return rel
    .normalize('NFKC')
    .replace(IGNORABLE, '')
    .toUpperCase()
    .toLowerCase()
    .split('/')
    .map((segment) => {
      const trimmed = segment === '.' || segment === '..' ? segment : segment.replace(/[. ]+$/u, '');
      return GIT_SHORT_NAME.test(trimmed) ? '.git' : trimmed;
    });
}
