import type { TrustStore } from './hookTrustRules';
import type { ShellWord, SimpleCommand } from './shellSyntax';

/** safe: runs without asking. destructive: a human approves. ask: unknowable, a human decides. denied: never. */
export type CommandVerdict = 'safe' | 'destructive' | 'denied' | 'ask';

export const VERDICT_RANK: Record<CommandVerdict, number> = { safe: 0, destructive: 1, ask: 2, denied: 3 };

export interface PathContext {
  workspaceRoot?: string; // absolute; `rm -rf <root>` and its ancestors are denied
  homeDir?: string; // expands `~` in write targets; without it `~` targets count as unknowable
  trustStores?: readonly TrustStore[]; // where hook trust is kept, never written by a command; default: hookTrustStores()
  governorHome?: string; // never read by a command, with the trust stores; default: governorHome()
  cwd?: string; // absolute: where the command line starts (run_command's cwd); default: workspaceRoot
}

/** Arguments a program receives at run time that are not in the text (xargs input, find's `{}`). */
export interface Appended {
  within: ShellWord[] | null; // the paths those arguments lie under, when known (find's roots)
  placeholder?: string; // they replace words containing this (`{}`); otherwise they are added at the end
}

/** One program about to run, with the arguments it was given. */
export interface Invocation {
  name: string;
  args: ShellWord[];
  appended: Appended | null;
  command: SimpleCommand; // the simple command it came from: pipes, heredocs, redirects
  paths: PathContext;
}

/** Where a rule reports what it found; the policy turns reports into the analysis. */
export interface RuleSink {
  /** One finding; `why` is a sentence fragment read after the command ("deletes files"). */
  flag(verdict: CommandVerdict, why: string): void;
  /** A path the program would create, modify or delete; dynamic or device paths are judged here. */
  write(target: ShellWord): void;
  /** The program writes to paths nobody can name before it runs (xargs rm). */
  writeUnknown(): void;
  /** This invocation only wraps another program (env, timeout, xargs): classify that one instead. */
  unwrap(argv: ShellWord[], appended?: Appended | null): void;
  /** The program also runs another command (find -exec): classify it too. */
  run(argv: ShellWord[], appended?: Appended | null): void;
  /** The program runs shell code given as text (bash -c, eval, trap): analyse that code. */
  script(code: ShellWord, via: string): void;
  /** A NAME=value this program puts in the environment of what it runs (env FOO=1 cmd). */
  assign(assignment: ShellWord): void;
  /** The program sets shell variable NAME to a value not visible here (read NAME, printf -v NAME). */
  setsVariable(name: string): void;
  /** The program exports NAME with whatever value it has by then (export NAME, declare -x NAME). */
  exportsVariable(name: string): void;
  /**
   * A file the program runs or whose commands it runs (a script, package.json, a Makefile); `**` and `*` globs
   * allowed. `upward`: the same name in each folder above, up to the workspace root, counts too (npm and pytest
   * look there). Checked against the last git commit before the command runs.
   */
  executes(path: ShellWord, upward?: boolean): void;
  /** git looks for its repository (and that repository's configuration) from the folder this program runs in. */
  findsRepository(): void;
  /** The same program working from `dir` (git -C, make -C, env -C): relative paths it reports start there. */
  within(dir: ShellWord): RuleSink;
  /** Programs (after unwrapping) whose output is piped into this one. */
  upstream(): string[];
  /** Programs (after unwrapping) whose output is substituted into its words ($(…), <(…)). */
  substituted(): string[];
}

export type CommandRule = (inv: Invocation, sink: RuleSink) => void;

/** A program that only reads, whatever its arguments. */
export const readOnly: CommandRule = () => {};

export function always(verdict: CommandVerdict, why: string): CommandRule {
  return (_inv, sink) => sink.flag(verdict, why);
}

/** A rule per subcommand; `fallback` covers subcommands nobody listed (fail closed with 'ask'). */
export function bySubcommand(table: Record<string, CommandRule>, fallback: CommandRule, none: CommandRule = readOnly): CommandRule {
  return (inv, sink) => {
    const [sub, ...rest] = inv.args;
    if (!sub) return none(inv, sink);
    if (sub.dynamic) return sink.flag('ask', 'subcommand is only known at run time');
    const rule = Object.hasOwn(table, sub.text) ? table[sub.text] : fallback;
    rule({ ...inv, args: rest }, sink);
  };
}

export function word(text: string): ShellWord {
  return { text, dynamic: false };
}

/** Does this word stand for arguments only known at run time (find's `{}`, xargs -I)? */
export function isPlaceholder(inv: Invocation, w: ShellWord): boolean {
  const mark = inv.appended?.placeholder;
  return mark !== undefined && mark !== '' && w.text.includes(mark);
}

/** The run-time arguments are paths this program writes: under known roots, or anywhere. */
export function writeAppended(inv: Invocation, sink: RuleSink): void {
  const within = inv.appended?.within;
  if (within) within.forEach((w) => sink.write(w));
  else sink.writeUnknown();
}

/** Every operand is a path the program writes, including run-time ones. */
export function writeOperands(inv: Invocation, sink: RuleSink, operands: readonly ShellWord[]): void {
  for (const w of operands) {
    if (isPlaceholder(inv, w)) writeAppended(inv, sink);
    else sink.write(w);
  }
  if (inv.appended && inv.appended.placeholder === undefined) writeAppended(inv, sink);
}
