import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec, type ParsedArgs } from './argv';
import { readOnly, type CommandRule, type RuleSink } from './commandRule';

/**
 * Programs that only read files or print. Each is safe with any arguments, so a `$VAR` among them
 * changes nothing. Not here on purpose: less/more/vim (interactive, can spawn shells), xxd (-r writes),
 * awk (system() and > inside its program), env (a wrapper, see wrapperRules).
 */
const READERS = [
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'pwd', 'echo', 'printf', 'true', 'false', ':',
  'test', '[', 'which', 'whereis', 'type', 'stat', 'file', 'du', 'df', 'diff', 'cmp', 'comm', 'cut', 'tr',
  'basename', 'dirname', 'realpath', 'readlink', 'nl', 'od', 'hexdump', 'strings', 'md5sum', 'sha1sum',
  'sha256sum', 'sha512sum', 'b2sum', 'cksum', 'id', 'whoami', 'groups', 'uname', 'printenv', 'tac', 'rev',
  'fold', 'fmt', 'column', 'expand', 'unexpand', 'paste', 'join', 'seq', 'yes', 'sleep', 'jq', 'nproc',
  'free', 'uptime', 'ps', 'lsof', 'locale', 'getconf', 'tty', 'clear', 'tput', 'cloc', 'wait',
];

/**
 * Shell builtins that only change the shell's own state. `cd` moves relative write targets, which the
 * policy handles; declarations are checked for variables like PATH by the policy too.
 */
const SHELL_STATE = [
  'cd', 'pushd', 'popd', 'dirs', 'set', 'shopt', 'unset', 'shift', 'read', 'exit', 'return', 'break',
  'continue', 'umask', 'ulimit', 'hash', 'export', 'declare', 'typeset', 'local', 'readonly', 'history',
];

/** A reader with options that write or run something; a `$VAR` could be such an option, so it asks. */
function readerUnless(spec: ArgSpec, check: (parsed: ParsedArgs, sink: RuleSink) => void): CommandRule {
  return (inv, sink) => {
    const parsed = parseArgs(inv.args, spec);
    if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could be an option that writes or runs something');
    check(parsed, sink);
  };
}

const sort = readerUnless(
  { valued: ['o', 'k', 't', 'S', 'T', 'output', 'key', 'field-separator', 'buffer-size', 'temporary-directory', 'files0-from', 'batch-size', 'parallel', 'random-source', 'compress-program'] },
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

const tree = readerUnless({ valued: ['L', 'P', 'I', 'o', 'H', 'T', 'charset', 'filelimit', 'timefmt', 'sort'] }, (parsed, sink) => {
  const out = optionValues(parsed, 'o');
  if (out.length > 0) sink.flag('destructive', 'writes its output to a file');
  out.forEach((w) => sink.write(w));
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
  sort,
  uniq,
  tree,
  rg,
  date,
  hostname,
};
