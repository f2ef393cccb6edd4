import { parseArgs, type ArgSpec } from '../commands/argv';
import { parseShell, type ShellWord } from '../commands/shellSyntax';

/**
 * The command half of an `if` rule (`Bash(git push:*)`): does a command line run a command of that shape? Every
 * simple command of the line counts (`npm test && git push`), after its NAME=value prefixes and the wrapper
 * programs that only run another one (`sudo`, `env`, `timeout`, `xargs`, `sh -c "…"`). Scripts a command runs
 * are not read. A line whose commands cannot be read off the text (a parse error, `eval`, `$CMD push`) counts as
 * matching: an `if` narrows when a hook runs, and a check that cannot decide must not skip the hook.
 */
export type CommandPattern =
  | { kind: 'all' }
  /** `git push:*`: the command is `git push` or starts with `git push ` (whole words). */
  | { kind: 'prefix'; prefix: string }
  /** `*` anywhere else; a trailing ` *` also matches the bare command, as `:*` does. */
  | { kind: 'glob'; regex: RegExp; head: string }
  | { kind: 'exact'; text: string };

export function parseCommandPattern(spec: string): CommandPattern {
  if (spec === '*') return { kind: 'all' };
  const legacy = /^(.*\S):\*$/s.exec(spec);
  if (legacy) return { kind: 'prefix', prefix: legacy[1] };
  // Split on unescaped '*'; `\*` is a literal star.
  const pieces = spec.split(/(?<!\\)\*/).map((piece) => piece.replace(/\\\*/g, '*'));
  if (pieces.length === 1) return { kind: 'exact', text: pieces[0] };
  const last = pieces.length - 1;
  const optionalTail = pieces[last] === '' && pieces[last - 1].endsWith(' ');
  let source = pieces.map(escapeRegExp).join('.*');
  if (optionalTail) source = `${pieces.slice(0, -1).map(escapeRegExp).join('.*').replace(/ $/, '')}(?: .*)?`;
  return { kind: 'glob', regex: new RegExp(`^${source}$`, 's'), head: pieces[0] };
}

/** Whether any command the line runs has the pattern's shape (unknowable lines: yes, see above). */
export function commandMatchesPattern(command: string, pattern: CommandPattern): boolean {
  if (pattern.kind === 'all') return true;
  if (textMatches(command.trim(), pattern)) return true;
  return lineMatches(command, pattern, 0);
}

// `sh -c` inside `sh -c` inside…: past this depth nobody can review it; treat as unknowable.
const MAX_NESTING = 4;

function lineMatches(line: string, pattern: CommandPattern, depth: number): boolean {
  if (depth > MAX_NESTING) return true;
  const parsed = parseShell(line);
  if (!parsed.ok) return true;
  return parsed.commands.some((command) => argvMatches(command.argv, pattern, depth));
}

function argvMatches(argv: ShellWord[], pattern: CommandPattern, depth: number): boolean {
  if (argv.length === 0) return false;
  const [program, ...args] = argv;
  if (program.dynamic || CODE_BUILTINS.has(program.text)) return true;
  const name = program.text.slice(program.text.lastIndexOf('/') + 1);
  if (SHELLS.has(name)) {
    const script = shellScript(args);
    if (script) return script.dynamic || lineMatches(script.text, pattern, depth + 1);
  }
  const wrapper = WRAPPERS[name];
  if (wrapper && argvMatches(unwrap(args, wrapper), pattern, depth)) return true;
  // A word only known at run time, where the pattern names fixed words, could be any of them.
  const fixedWords = headWords(pattern);
  if (argv.slice(0, Math.max(fixedWords, 1)).some((word) => word.dynamic)) return true;
  return textMatches(argv.map((word) => word.text).join(' '), pattern);
}

function textMatches(text: string, pattern: CommandPattern): boolean {
  switch (pattern.kind) {
    case 'all':
      return true;
    case 'prefix':
      return text === pattern.prefix || text.startsWith(`${pattern.prefix} `);
    case 'glob':
      return pattern.regex.test(text);
    case 'exact':
      return text === pattern.text;
  }
}

/** How many leading words of a command the pattern fixes. */
function headWords(pattern: CommandPattern): number {
  const head = pattern.kind === 'prefix' ? pattern.prefix : pattern.kind === 'glob' ? pattern.head : pattern.kind === 'exact' ? pattern.text : '';
  return head.trim() === '' ? 0 : head.trim().split(/\s+/).length;
}

/** Builtins that run text as code the line does not show. */
const CODE_BUILTINS = new Set(['eval', 'source', '.']);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);

/** `bash -c 'code'`, `sh -lc 'code'`: the code; undefined when the shell runs a file or stdin. */
function shellScript(args: ShellWord[]): ShellWord | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i].text;
    if (args[i].dynamic) return { text, dynamic: true };
    if (!text.startsWith('-') || text.startsWith('--')) return undefined;
    if (text.slice(1).includes('c')) return args[i + 1] ?? undefined;
    if (text === '-o' || text === '+o' || text === '-O' || text === '+O') i++;
  }
  return undefined;
}

interface Wrapper {
  spec: ArgSpec;
  /** Operands that belong to the wrapper (timeout's DURATION). */
  skip?: number;
  /** Leading NAME=value operands that belong to the wrapper (env). */
  assignments?: boolean;
}

// Programs that only run another program: what an `if` is about is the program they run.
const WRAPPERS: Record<string, Wrapper> = {
  sudo: { spec: { valued: ['u', 'g', 'h', 'p', 'C', 'D', 'r', 't', 'U', 'T', 'user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'other-user', 'command-timeout'] } },
  doas: { spec: { valued: ['u', 'C'] } },
  env: { spec: { valued: ['u', 'C', 'S', 'unset', 'chdir', 'split-string'], flags: ['ignore-environment', 'null', 'debug', 'help', 'version'] }, assignments: true },
  timeout: { spec: { valued: ['s', 'k', 'signal', 'kill-after'] }, skip: 1 },
  nice: { spec: { valued: ['n', 'adjustment'] } },
  ionice: { spec: { valued: ['c', 'n', 'p', 'P', 'u', 'class', 'classdata', 'pid', 'pgid', 'uid'] } },
  nohup: { spec: {} },
  setsid: { spec: {} },
  stdbuf: { spec: { valued: ['i', 'o', 'e', 'input', 'output', 'error'] } },
  exec: { spec: { valued: ['a'] } },
  builtin: { spec: {} },
  command: { spec: {} },
  time: { spec: { valued: ['o', 'f', 'output', 'format'] } },
  xargs: {
    spec: {
      valued: ['I', 'L', 'n', 'P', 's', 'd', 'E', 'a', 'arg-file', 'delimiter', 'max-args', 'max-lines', 'max-procs', 'max-chars', 'process-slot-var'],
      attached: ['i', 'e', 'l'],
    },
  },
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function unwrap(args: ShellWord[], wrapper: Wrapper): ShellWord[] {
  let rest = parseArgs(args, { ...wrapper.spec, stopAtOperand: true }).rest.slice(wrapper.skip ?? 0);
  if (wrapper.assignments) while (rest.length > 0 && !rest[0].dynamic && ASSIGNMENT.test(rest[0].text)) rest = rest.slice(1);
  return rest;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
