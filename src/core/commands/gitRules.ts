import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec, type ParsedArgs } from './argv';
import { always, readOnly, word, type CommandRule, type RuleSink } from './commandRule';
import type { ShellWord } from './shellSyntax';

/**
 * git, subcommand by subcommand. Reading history is safe; anything that moves refs, touches the
 * working tree or talks to a remote is destructive; force pushes are denied (choice: a rewrite of
 * shared history cannot be undone from here, so a human runs it themselves). Unknown subcommands
 * ask, since they may be aliases that run anything (`alias.x = !sh …`).
 */

/** Config keys whose value is a command git runs later, or that redirect where git reads config or code. */
const EXEC_CONFIG = [
  /^core\.(fsmonitor|hookspath|pager|editor|sshcommand|askpass|gitproxy)$/,
  /^(sequence\.editor|diff\.external|credential\.helper|gpg\.program|gpg\.\w+\.program|uploadpack\.packobjectshook)$/,
  /^(alias|filter|include|includeif|url|protocol)\./,
  /\.(textconv|command|cmd|helper|tool|path)$/,
];

function runsCommands(key: string): boolean {
  return EXEC_CONFIG.some((pattern) => pattern.test(key.toLowerCase()));
}

/** One of these options, short exact or long possibly abbreviated (git accepts unique prefixes). */
function flagged(parsed: ParsedArgs, names: string[]): boolean {
  return hasOption(parsed, ...names.filter((n) => n.length === 1)) || mayHaveOption(parsed, ...names.filter((n) => n.length > 1));
}

function changes(why: string): CommandRule {
  return always('destructive', why);
}

// Diff options that take a value (so `--output x` writes x); the flags are listed so abbreviations resolve.
const DIFF_OPTIONS: ArgSpec = {
  valued: ['output', 'U', 'unified', 'inter-hunk-context', 'S', 'G', 'O', 'l', 'skip-to', 'rotate-to', 'relative', 'src-prefix', 'dst-prefix', 'line-prefix', 'output-indicator-new', 'output-indicator-old', 'output-indicator-context'],
  flags: ['patch', 'no-patch', 'raw', 'stat', 'numstat', 'shortstat', 'summary', 'name-only', 'name-status', 'oneline', 'pretty', 'format', 'graph', 'follow', 'cached', 'staged', 'word-diff', 'color', 'no-color', 'abbrev', 'reverse'],
};

/** diff-family options: --output writes a file; the rest only prints. */
const printsDiff: CommandRule = (inv, sink) => {
  const outputs = optionValues(parseArgs(inv.args, DIFF_OPTIONS), 'output');
  if (outputs.length > 0) sink.flag('destructive', 'writes the diff to a file');
  outputs.forEach((w) => sink.write(w));
};

/** `git <sub> <action>` reads for the listing actions (and for none, unless `bare` says it changes). */
function listsOrChanges(listing: string[], why: string, bare: 'reads' | 'changes' = 'reads'): CommandRule {
  return (inv, sink) => {
    const first = inv.args.find((w) => w.dynamic || !w.text.startsWith('-'));
    if (first === undefined ? bare === 'reads' : !first.dynamic && listing.includes(first.text)) return;
    sink.flag('destructive', why);
  };
}

// Listing flags of `git branch` / `git tag`; any other flag or a name changes refs.
const BRANCH_CHANGES = ['d', 'D', 'm', 'M', 'c', 'C', 'f', 'u', 'delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'edit-description', 'track', 'create-reflog'];

const branch: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['u', 'set-upstream-to', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'color', 'column'] });
  if (hasOption(parsed, 'D') || (flagged(parsed, ['d', 'delete']) && flagged(parsed, ['f', 'force']))) {
    sink.flag('destructive', 'deletes a branch even if it is not merged');
  } else if (flagged(parsed, BRANCH_CHANGES)) {
    sink.flag('destructive', 'deletes, renames or moves a branch');
  }
  // Choice: `git branch <name>` only adds a ref, which is trivially undone, so it stays safe.
};

const tag: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['m', 'F', 'u', 'message', 'file', 'contains', 'no-contains', 'points-at', 'sort', 'format', 'merged', 'no-merged'] });
  const listing = flagged(parsed, ['l', 'list']) || (parsed.operands.length === 0 && !flagged(parsed, ['d', 'delete', 'a', 'annotate', 's', 'sign', 'f', 'force']));
  if (!listing) sink.flag('destructive', 'creates or deletes a tag');
};

const push: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['o', 'push-option', 'repo', 'receive-pack', 'exec'] });
  const forced = flagged(parsed, ['f', 'force', 'force-with-lease', 'force-if-includes', 'mirror']) || parsed.operands.some((w) => w.text.startsWith('+'));
  if (forced) sink.flag('denied', 'force-pushes, rewriting history on the remote');
  if (flagged(parsed, ['d', 'delete', 'prune']) || parsed.operands.some((w) => w.text.startsWith(':'))) sink.flag('destructive', 'deletes branches on the remote');
  if (mayHaveOption(parsed, 'receive-pack', 'exec')) sink.flag('ask', 'runs a custom program on the remote');
  sink.flag('destructive', 'publishes commits to a remote');
};

const commit: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['m', 'F', 'C', 'c', 'message', 'file', 'author', 'date', 'fixup', 'squash', 'reuse-message', 'reedit-message'] });
  sink.flag('destructive', flagged(parsed, ['amend']) ? 'rewrites the last commit' : 'records a commit');
};

const reset: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args);
  sink.flag('destructive', flagged(parsed, ['hard', 'keep', 'merge']) ? 'discards uncommitted changes' : 'moves HEAD or unstages changes');
};

const checkout: CommandRule = (inv, sink) => {
  const discards = inv.args.some((w) => w.text === '--' || w.text === '.') || flagged(parseArgs(inv.args, { valued: ['b', 'B'] }), ['f', 'force']);
  sink.flag('destructive', discards ? 'discards changes to files in the working tree' : 'switches the working tree to another revision');
};

const clean: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['e', 'exclude'] });
  if (!flagged(parsed, ['n', 'dry-run'])) sink.flag('destructive', 'deletes untracked files');
};

// Bare `git stash` stashes (and reverts) the working tree changes.
const stash = listsOrChanges(['list', 'show'], 'changes the working tree or the stash', 'changes');

const config: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['f', 'file', 'blob', 'type', 'default', 'comment'] });
  const [first, second] = parsed.operands;
  const reads = flagged(parsed, ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'list', 'l', 'get-color', 'get-colorbool'])
    || (first !== undefined && !first.dynamic && ['get', 'list'].includes(first.text))
    || (parsed.operands.length === 1 && !flagged(parsed, ['unset', 'unset-all', 'remove-section', 'rename-section', 'e', 'edit', 'add', 'replace-all']));
  if (reads) return;
  const key = first && ['set', 'unset', 'rename-section', 'remove-section'].includes(first.text) ? second : first;
  if (!key || key.dynamic || runsCommands(key.text)) sink.flag('ask', 'sets a git option that makes git run a command');
  sink.flag('destructive', 'changes git configuration');
};

const submodule: CommandRule = (inv, sink) => {
  const sub = inv.args.find((w) => !w.text.startsWith('-'));
  if (sub?.text === 'foreach') return sink.flag('ask', 'runs a command in every submodule');
  if (sub && !['status', 'summary'].includes(sub.text)) sink.flag('destructive', 'changes submodules');
};

const GREP_OPTIONS: ArgSpec = {
  valued: ['e', 'f', 'A', 'B', 'C', 'm', 'max-count', 'max-depth', 'threads', 'context', 'after-context', 'before-context', 'and', 'or', 'not'],
  attached: ['O'],
  optional: ['open-files-in-pager', 'color'],
  flags: ['only-matching', 'cached', 'untracked', 'no-index', 'ignore-case', 'line-number', 'count', 'files-with-matches', 'files-without-match', 'null', 'all-match', 'quiet', 'perl-regexp', 'extended-regexp', 'fixed-strings', 'basic-regexp', 'word-regexp', 'invert-match', 'full-name', 'heading', 'break', 'show-function', 'function-context', 'recurse-submodules', 'textconv', 'no-textconv', 'exclude-standard', 'no-exclude-standard'],
};

// -O/--open-files-in-pager runs its value (or core.pager) with the matching files.
const grep: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, GREP_OPTIONS);
  if (hasOption(parsed, 'O') || mayHaveOption(parsed, 'open-files-in-pager')) sink.flag('ask', 'opens matches in a program (-O)');
};

// `git apply` only checks or summarises with these; without them (or with --apply) it patches files.
const apply: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args);
  if (!flagged(parsed, ['check', 'stat', 'numstat', 'summary']) || flagged(parsed, ['apply'])) {
    sink.flag('destructive', 'applies a patch to the working tree');
  }
};

const GIT_SUBCOMMANDS: Record<string, CommandRule> = {
  // reading
  status: readOnly, log: printsDiff, show: printsDiff, diff: printsDiff, 'diff-tree': printsDiff, 'diff-files': printsDiff,
  'diff-index': printsDiff, 'range-diff': printsDiff, 'rev-parse': readOnly, 'rev-list': readOnly, 'ls-files': readOnly,
  'ls-tree': readOnly, blame: readOnly, annotate: readOnly, shortlog: readOnly, describe: readOnly, 'cat-file': readOnly,
  'show-ref': readOnly, 'for-each-ref': readOnly, 'merge-base': readOnly, 'name-rev': readOnly, 'count-objects': readOnly,
  'check-ignore': readOnly, 'check-attr': readOnly, 'check-ref-format': readOnly, 'verify-commit': readOnly,
  'verify-tag': readOnly, 'show-branch': readOnly, cherry: readOnly, whatchanged: readOnly, version: readOnly,
  help: readOnly, var: readOnly, fsck: readOnly, grep,
  branch, tag, config, stash, submodule,
  remote: listsOrChanges(['show', 'get-url', '-v'], 'changes remotes'),
  worktree: listsOrChanges(['list'], 'changes worktrees'),
  reflog: listsOrChanges(['show'], 'deletes reflog entries'),
  notes: listsOrChanges(['list', 'show'], 'changes notes'),
  apply,
  // changing the repository or the working tree
  add: changes('stages changes'), commit, reset, checkout, clean, push,
  switch: changes('switches the working tree to another branch'),
  restore: changes('discards changes to files in the working tree'),
  rebase: changes('rewrites history (rebase)'),
  merge: changes('merges into the current branch'),
  'cherry-pick': changes('applies commits to the current branch'),
  revert: changes('adds commits that undo others'),
  am: changes('applies mailed patches as commits'),
  rm: changes('deletes files from the working tree and index'),
  mv: changes('moves files in the working tree and index'),
  pull: changes('fetches and merges from a remote'),
  fetch: changes('fetches from a remote'),
  clone: changes('clones a repository into a new directory'),
  init: changes('creates a repository'),
  gc: changes('prunes unreachable objects'),
  prune: changes('prunes unreachable objects'),
  repack: changes('repacks objects'),
  bisect: changes('checks out revisions to bisect'),
  'filter-branch': changes('rewrites history (filter-branch)'),
  'filter-repo': changes('rewrites history (filter-repo)'),
  'update-ref': changes('moves refs directly'),
  'update-index': changes('changes the index directly'),
  'symbolic-ref': changes('changes symbolic refs'),
  replace: changes('replaces objects'),
  'sparse-checkout': changes('changes which files are checked out'),
  'format-patch': changes('writes patch files'),
  archive: changes('writes an archive'),
  bundle: changes('writes or reads a bundle'),
  mergetool: always('ask', 'runs a configured merge tool'),
  difftool: always('ask', 'runs a configured diff tool'),
};

// Subcommands no option can turn into a write or a command; elsewhere a `$VAR` could be `--force` or `--output=…`.
const ARGS_CANNOT_ESCALATE = new Set([
  'status', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree', 'blame', 'annotate', 'cat-file', 'show-ref', 'for-each-ref',
  'merge-base', 'name-rev', 'check-ignore', 'check-attr', 'describe', 'shortlog', 'count-objects', 'version', 'help', 'var',
]);

// git's own options before the subcommand; those that take a value take the next word.
const GLOBAL_VALUED = ['C', 'c', 'git-dir', 'work-tree', 'namespace', 'super-prefix', 'config-env', 'list-cmds', 'attr-source'];
const GLOBAL_FLAGS = ['exec-path', 'paginate', 'no-pager', 'no-replace-objects', 'no-lazy-fetch', 'no-optional-locks', 'no-advice', 'bare', 'literal-pathspecs', 'glob-pathspecs', 'noglob-pathspecs', 'icase-pathspecs', 'html-path', 'man-path', 'info-path', 'version', 'help'];
const GLOBAL_LONG: ArgSpec = { valued: GLOBAL_VALUED, flags: GLOBAL_FLAGS };
const PRINTS_ONLY = new Set(['version', 'help', 'html-path', 'man-path', 'info-path', 'v', 'h']);

/**
 * Skips git's own options (-C dir, -c key=value, --no-pager, …) to find the subcommand. Where git looks for
 * its repository decides whose configuration (fsmonitor, pager, hooks) it obeys: -C moves that search, which
 * the pre-hook then checks; --git-dir, --bare and --exec-path point git at code the text cannot vouch for.
 */
export const git: CommandRule = (inv, sink) => {
  let i = 0;
  let at = sink;
  for (; i < inv.args.length; i++) {
    const arg = inv.args[i];
    if (arg.dynamic) return sink.flag('ask', 'an argument only known at run time could be any git option or subcommand');
    if (!arg.text.startsWith('-')) break;
    const option = globalOption(arg.text);
    if (PRINTS_ONLY.has(option.name)) return;
    const value = option.inline ?? (GLOBAL_VALUED.includes(option.name) ? inv.args[++i] : undefined);
    if (value?.dynamic) return sink.flag('ask', `the value of ${arg.text} is only known at run time`);
    if (option.name === 'c' || option.name === 'config-env') checkConfig(value?.text ?? '', sink);
    if (option.name === 'C' && value) at = at.within(value);
    if (option.name === 'git-dir' || option.name === 'bare') sink.flag('ask', 'points git at a repository other than the workspace\'s own, whose configuration can run any command');
    if (option.name === 'exec-path' && option.inline !== undefined) sink.flag('ask', 'runs git programs from another directory (--exec-path)');
    if (!GLOBAL_VALUED.includes(option.name) && !GLOBAL_FLAGS.includes(option.name)) sink.flag('ask', `has a git option we do not know (${arg.text})`);
  }
  at.findsRepository();
  const sub = inv.args[i];
  if (!sub) return;
  const rule = Object.hasOwn(GIT_SUBCOMMANDS, sub.text) ? GIT_SUBCOMMANDS[sub.text] : undefined;
  if (!rule) return sink.flag('ask', `runs "git ${sub.text}", which is not a subcommand we know (it may be an alias)`);
  const args = inv.args.slice(i + 1);
  if (!ARGS_CANNOT_ESCALATE.has(sub.text) && args.some((w) => w.dynamic)) {
    sink.flag('ask', 'an argument only known at run time could change what git does (--force, --output, …)');
  }
  rule({ ...inv, args }, at);
};

/** `-C`, `-cKEY=V`, `--git-dir=x`, `--git-d x`: the option's name (long ones resolved by unique prefix) and any inline value. */
function globalOption(text: string): { name: string; inline?: ShellWord } {
  if (!text.startsWith('--')) {
    const name = text.slice(1, 2);
    return text.length > 2 ? { name, inline: word(text.slice(2)) } : { name };
  }
  const parsed = parseArgs([word(text)], GLOBAL_LONG).options[0];
  return parsed.value ? { name: parsed.name, inline: parsed.value } : { name: parsed.name };
}

function checkConfig(setting: string, sink: RuleSink): void {
  const key = setting.split('=')[0];
  if (runsCommands(key)) sink.flag('ask', `sets ${key}, which makes git run a command`);
}
