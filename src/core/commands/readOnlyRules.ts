import { posix } from 'node:path';
import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec, type ParsedArgs } from './argv';
import { readOnly, word, type CommandRule, type RuleSink } from './commandRule';

/**
 * Programs that only read files or print. Each is safe with any arguments, so a `$VAR` among them
 * changes nothing. Not here on purpose: less/more/vim (interactive, can spawn shells), xxd (-r writes),
 * awk (system() and > inside its program), env (a wrapper, see wrapperRules).
 */
const READERS = [
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'pwd', 'echo', 'true', 'false', ':',
  'test', '[', 'which', 'whereis', 'type', 'stat', 'du', 'df', 'diff', 'cmp', 'comm', 'cut', 'tr',
  'basename', 'dirname', 'realpath', 'readlink', 'nl', 'od', 'hexdump', 'strings', 'md5sum', 'sha1sum',
  'sha256sum', 'sha512sum', 'b2sum', 'cksum', 'id', 'whoami', 'groups', 'uname', 'printenv', 'tac', 'rev',
  'fold', 'fmt', 'column', 'expand', 'unexpand', 'paste', 'join', 'seq', 'yes', 'sleep', 'jq', 'nproc',
  'free', 'uptime', 'ps', 'lsof', 'locale', 'getconf', 'tty', 'clear', 'tput', 'wait',
];

/**
 * Shell builtins that only change the shell's own state. `cd` moves relative write targets, which the
 * parser follows; assignments (`export X=1`) are judged by the policy wherever they appear.
 */
const SHELL_STATE = [
  'cd', 'pushd', 'popd', 'dirs', 'set', 'shopt', 'unset', 'shift', 'exit', 'return', 'break',
  'continue', 'umask', 'ulimit', 'hash', 'history',
];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** export/declare NAME (without =value) pass on whatever value NAME has by then. */
const declaration: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args);
  if (hasOption(parsed, 'f', 'F', 'p')) return; // functions, or printing
  parsed.operands.filter((w) => !w.dynamic && NAME.test(w.text)).forEach((w) => sink.exportsVariable(w.text));
};

/** read NAME… and read -a NAME set variables from input, a value nobody can see here. */
const read: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['a', 'd', 'i', 'n', 'N', 'p', 't', 'u'] });
  [...optionValues(parsed, 'a'), ...parsed.operands].filter((w) => !w.dynamic && NAME.test(w.text)).forEach((w) => sink.setsVariable(w.text));
};

// printf -v NAME puts its output in a variable instead of on stdout.
const printf: CommandRule = (inv, sink) => {
  const [first, second] = inv.args;
  if (first?.dynamic) return sink.flag('ask', 'an argument only known at run time could be -v, which sets a variable');
  if (first?.text !== '-v') return;
  if (!second || second.dynamic) return sink.flag('ask', 'sets a variable only known at run time (printf -v)');
  sink.setsVariable(second.text.replace(/\[.*$/, ''));
};

const getopts: CommandRule = (inv, sink) => {
  const name = inv.args[1];
  if (name && !name.dynamic) sink.setsVariable(name.text);
};

/** A reader with options that write or run something; a `$VAR` could be such an option, so it asks. */
function readerUnless(spec: ArgSpec, check: (parsed: ParsedArgs, sink: RuleSink) => void): CommandRule {
  return (inv, sink) => {
    const parsed = parseArgs(inv.args, spec);
    if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could be an option that writes or runs something');
    check(parsed, sink);
  };
}

const sort = readerUnless(
  {
    valued: ['o', 'k', 't', 'S', 'T', 'output', 'key', 'field-separator', 'buffer-size', 'temporary-directory', 'files0-from', 'batch-size', 'parallel', 'random-source', 'compress-program', 'sort'],
    optional: ['check'],
    flags: ['debug', 'ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'reverse', 'version-sort', 'merge', 'stable', 'unique', 'zero-terminated', 'help', 'version'],
  },
  (parsed, sink) => {
    if (mayHaveOption(parsed, 'compress-program')) sink.flag('ask', 'runs a compression program');
    const out = optionValues(parsed, 'o', 'output');
    if (out.length > 0) sink.flag('destructive', 'writes its output to a file');
    out.forEach((w) => sink.write(w));
  },
);

const uniq = readerUnless({ valued: ['f', 's', 'w', 'skip-fields', 'skip-chars', 'check-chars'] }, (parsed, sink) => {
  const output = parsed.operands[1]; // uniq INPUT OUTPUT
  if (!output) return;
  sink.flag('destructive', 'writes its output to a file');
  sink.write(output);
});

const tree = readerUnless({ valued: ['L', 'P', 'I', 'o', 'H', 'T', 'charset', 'filelimit', 'timefmt', 'sort', 'fromfile'] }, (parsed, sink) => {
  const out = optionValues(parsed, 'o');
  if (out.length > 0) sink.flag('destructive', 'writes its output to a file');
  out.forEach((w) => sink.write(w));
  // -R reruns tree in every folder below with `-o 00Tree.html`.
  if (hasOption(parsed, 'R')) {
    sink.flag('destructive', 'writes a listing file into every folder (-R)');
    (parsed.operands.length > 0 ? parsed.operands : [word('.')]).forEach((w) => sink.write(w));
  }
});

// cloc writes its report, its SQL and language definitions where these options say.
const CLOC_WRITES = ['out', 'report-file', 'sql', 'write-lang-def', 'write-lang-def-incl-dup', 'counted', 'ignored', 'categorized', 'found'];
const cloc = readerUnless({ valued: [...CLOC_WRITES, 'exclude-dir', 'exclude-ext', 'exclude-lang', 'include-ext', 'include-lang', 'force-lang', 'read-lang-def', 'list-file', 'match-f', 'match-d', 'not-match-f', 'not-match-d', 'timeout'] }, (parsed, sink) => {
  const out = optionValues(parsed, ...CLOC_WRITES).filter((w) => w.dynamic || w.text !== '-');
  if (out.length > 0) sink.flag('destructive', 'writes its report to a file');
  out.forEach((w) => sink.write(w));
  if (mayHaveOption(parsed, 'script-lang', 'force-lang-def', 'read-binary-files', 'extract-with')) sink.flag('ask', 'runs or loads a program of its caller\'s choosing (--extract-with, --force-lang-def)');
});

const FILE_OPTIONS: ArgSpec = {
  valued: ['m', 'f', 'F', 'P', 'e', 'magic-file', 'files-from', 'separator', 'parameter', 'exclude', 'exclude-quiet'],
  flags: ['compile', 'brief', 'checking-printout', 'debug', 'extension', 'mime', 'mime-type', 'mime-encoding', 'keep-going', 'list', 'dereference', 'no-dereference', 'no-buffer', 'no-pad', 'print0', 'preserve-date', 'raw', 'special-files', 'uncompress', 'uncompress-noreport', 'help', 'version'],
};

// file -C compiles each magic file (-m a:b, default `magic`) into NAME.mgc in the current folder.
const file = readerUnless(FILE_OPTIONS, (parsed, sink) => {
  if (!hasOption(parsed, 'C', 'compile')) return;
  sink.flag('destructive', 'compiles magic files into .mgc files (-C)');
  const sources = optionValues(parsed, 'm', 'magic-file');
  const names = sources.length > 0 ? sources.flatMap((w) => w.text.split(':').map((text) => ({ text, dynamic: w.dynamic }))) : [word('magic')];
  names.forEach((w) => sink.write(w.dynamic ? w : word(`${posix.basename(w.text)}.mgc`)));
});

// rg --pre runs a program on every file it searches.
const rg = readerUnless({ valued: ['e', 'f', 'g', 't', 'T', 'm', 'A', 'B', 'C', 'j', 'M', 'regexp', 'file', 'glob', 'type', 'type-not', 'max-count', 'pre', 'pre-glob'] }, (parsed, sink) => {
  if (mayHaveOption(parsed, 'pre')) sink.flag('ask', 'runs a preprocessor program on every file (--pre)');
});

const date = readerUnless({ valued: ['d', 'f', 'r', 's', 'date', 'file', 'reference', 'set'] }, (parsed, sink) => {
  if (hasOption(parsed, 's') || mayHaveOption(parsed, 'set')) sink.flag('destructive', 'sets the system clock');
});

const hostname = readerUnless({ valued: ['F', 'file'] }, (parsed, sink) => {
  if (parsed.operands.length > 0 || hasOption(parsed, 'F', 'file')) sink.flag('destructive', 'changes the host name');
});

export const READ_ONLY_RULES: Record<string, CommandRule> = {
  ...Object.fromEntries([...READERS, ...SHELL_STATE].map((name) => [name, readOnly])),
  ...Object.fromEntries(['export', 'declare', 'typeset', 'local', 'readonly'].map((name) => [name, declaration])),
  read,
  printf,
  getopts,
  sort,
  uniq,
  tree,
  file,
  cloc,
  rg,
  date,
  hostname,
};
