import { mayHaveOption, parseArgs, type ArgSpec } from './argv';
import type { ShellWord } from './shellWords';

/** How a program reads the paths it is given: whole trees, and whether it starts from `.` when given none. */
export interface TreeRead {
  recursive: boolean;
  fromHere: boolean; // no path among its operands, so it reads the folder it runs in (grep -r X, rg X, find)
}

const FLAT: TreeRead = { recursive: false, fromHere: false };

const GREP: ArgSpec = {
  valued: ['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D', 'regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'directories', 'devices', 'include', 'exclude', 'exclude-dir', 'exclude-from', 'label', 'binary-files', 'group-separator', 'color', 'colour'],
  flags: ['recursive', 'dereference-recursive'],
};
const RG: ArgSpec = { valued: ['e', 'f', 'g', 't', 'T', 'm', 'A', 'B', 'C', 'j', 'M', 'regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'max-count', 'pre', 'pre-glob', 'after-context', 'before-context', 'context', 'threads', 'max-depth', 'ignore-file', 'type-add'] };
const FIND_GLOBAL = /^-([HLP]|O\d*)$/;
const FIND_EXPRESSION = /^[-(!),]/;

/** Searchers with a pattern first (unless it comes as -e/-f), then paths; recursive when `always` or flagged. */
function searcher(spec: ArgSpec, always: boolean): (args: readonly ShellWord[]) => TreeRead {
  return (args) => {
    const parsed = parseArgs(args, spec);
    // An argument only known at run time could be -r: read it as a recursive search (fail closed).
    const recursive = always || parsed.opaque || mayHaveOption(parsed, 'r', 'R', 'recursive', 'dereference-recursive') || parsed.options.some((o) => (o.name === 'd' || o.name === 'directories') && o.value?.text === 'recurse');
    const patternGiven = mayHaveOption(parsed, 'e', 'f', 'regexp', 'file', 'files', 'type-list');
    const paths = parsed.operands.length - (patternGiven ? 0 : 1);
    return { recursive, fromHere: recursive && paths <= 0 };
  };
}

/** Copiers and comparers that descend only when told to. */
function flagged(...names: string[]): (args: readonly ShellWord[]) => TreeRead {
  return (args) => {
    const parsed = parseArgs(args);
    return { recursive: parsed.opaque || mayHaveOption(parsed, ...names), fromHere: false };
  };
}

const find = (args: readonly ShellWord[]): TreeRead => {
  let i = 0;
  while (i < args.length && !args[i].dynamic && (FIND_GLOBAL.test(args[i].text) || args[i].text === '-D')) i += args[i].text === '-D' ? 2 : 1;
  const start = i;
  while (i < args.length && (args[i].dynamic || !FIND_EXPRESSION.test(args[i].text))) i++;
  return { recursive: true, fromHere: i === start };
};

const always = (): TreeRead => ({ recursive: true, fromHere: false });

const READERS: Record<string, (args: readonly ShellWord[]) => TreeRead> = {
  grep: searcher(GREP, false),
  egrep: searcher(GREP, false),
  fgrep: searcher(GREP, false),
  rgrep: searcher(GREP, true),
  ugrep: searcher(GREP, false),
  rg: searcher(RG, true),
  ag: searcher(RG, true),
  ack: searcher(RG, true),
  find,
  fd: (args) => ({ recursive: true, fromHere: parseArgs(args).operands.length <= 1 }),
  tar: always,
  bsdtar: always,
  zip: always,
  rsync: always,
  cpio: always,
  cp: flagged('r', 'R', 'a', 'recursive', 'archive'),
  scp: flagged('r'),
  diff: flagged('r', 'recursive'),
  ls: flagged('R', 'recursive'),
  // A link to a folder reaches everything below it: `ln -s ~ h` would open the home to every later reader.
  ln: always,
};

/** How `program` (after unwrapping) reads the trees it names; a program not listed reads only what it names. */
export function treeRead(program: string, args: readonly ShellWord[]): TreeRead {
  return Object.hasOwn(READERS, program) ? READERS[program](args) : FLAT;
}
