import type { ShellWord } from './shellSyntax';

export interface ParsedOption {
  name: string; // 'r' for -r, 'recursive' for --recursive (also for --rec, when that prefix is unique)
  long: boolean;
  value?: ShellWord;
  /** An ambiguous abbreviation: every known option it could be (another version of the program may know fewer). */
  candidates?: string[];
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: ShellWord[];
  rest: ShellWord[]; // with `stopAtOperand`: the first operand and everything after it
  opaque: boolean; // a word only known at run time could be any option
}

export interface ArgSpec {
  valued?: readonly string[]; // options that take a value: short letters and long names
  attached?: readonly string[]; // short options whose value may only be attached (sed -i.bak, xargs -i{})
  optional?: readonly string[]; // long options whose value may only follow `=` (sed --in-place[=SUFFIX])
  flags?: readonly string[]; // long options without a value, listed so an abbreviation can be told apart from them
  stopAtOperand?: boolean; // POSIX-style: the first operand ends the options (env, xargs, timeout)
  singleDashLong?: boolean; // `-outDir` is a long option too, and names ignore case (tsc)
}

/**
 * getopt_long-style parsing: clusters (-rf), attached or separate values, --long=value or --long value, `--`
 * ends options, and an unambiguous prefix of a known long option is that option (`--outp` is `--output`).
 * An ambiguous abbreviation is kept as written, with the options it could be: it takes a value if any of them
 * does, and `optionValues` reports that value for each of them, since a version of the program that knows fewer
 * options would read it unambiguously.
 */
export function parseArgs(args: readonly ShellWord[], spec: ArgSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { options: [], operands: [], rest: [], opaque: false };
  const longNames = LongNames.of(spec);
  const valued = new Set(spec.valued ?? []);
  const attached = new Set(spec.attached ?? []);
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const text = arg.text;
    if (arg.dynamic) parsed.opaque = true;
    if (optionsEnded || arg.dynamic || text === '-' || !text.startsWith('-')) {
      if (spec.stopAtOperand && !optionsEnded) {
        parsed.rest = args.slice(i);
        parsed.operands.push(...parsed.rest);
        parsed.opaque ||= parsed.rest.some((w) => w.dynamic);
        return parsed;
      }
      parsed.operands.push(arg);
      continue;
    }
    if (text === '--') {
      optionsEnded = true;
      if (spec.stopAtOperand) {
        parsed.rest = args.slice(i + 1);
        parsed.operands.push(...parsed.rest);
        parsed.opaque ||= parsed.rest.some((w) => w.dynamic);
        return parsed;
      }
      continue;
    }
    if (text.startsWith('--') || spec.singleDashLong) {
      const eq = text.indexOf('=');
      const written = text.slice(text.startsWith('--') ? 2 : 1, eq < 0 ? undefined : eq);
      const name = written.length === 1 && !text.startsWith('--') ? written : longNames.resolve(written);
      const option: ParsedOption = { name, long: true };
      const candidates = name === written && !longNames.knows(written) ? longNames.candidates(written) : [];
      if (candidates.length > 1) option.candidates = candidates;
      if (eq >= 0) option.value = { text: text.slice(eq + 1), dynamic: false };
      else if ((valued.has(name) || candidates.some((c) => valued.has(c))) && i + 1 < args.length) option.value = args[++i];
      parsed.options.push(option);
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j];
      const inline = text.slice(j + 1);
      if (attached.has(letter)) {
        parsed.options.push({ name: letter, long: false, value: { text: inline, dynamic: false } });
        break;
      }
      if (!valued.has(letter)) {
        parsed.options.push({ name: letter, long: false });
        continue;
      }
      const value = inline !== '' ? { text: inline, dynamic: false } : args[++i];
      parsed.options.push(value ? { name: letter, long: false, value } : { name: letter, long: false });
      break;
    }
  }
  return parsed;
}

/** The long options a spec knows, and how a written name resolves among them. */
class LongNames {
  private static readonly cache = new WeakMap<ArgSpec, LongNames>();
  private readonly names: readonly string[];
  private readonly fold: (name: string) => string;

  private constructor(spec: ArgSpec) {
    this.names = [...(spec.valued ?? []), ...(spec.optional ?? []), ...(spec.flags ?? [])].filter((n) => n.length > 1);
    this.fold = spec.singleDashLong ? (n) => n.toLowerCase() : (n) => n;
  }

  /** Specs are module constants, so each is indexed once. */
  static of(spec: ArgSpec): LongNames {
    let names = LongNames.cache.get(spec);
    if (!names) LongNames.cache.set(spec, (names = new LongNames(spec)));
    return names;
  }

  /** The exact name, else the one known name it is a prefix of (spelled as the spec does), else the name as written. */
  resolve(written: string): string {
    const key = this.fold(written);
    if (key === '') return written;
    const exact = this.names.find((n) => this.fold(n) === key);
    if (exact !== undefined) return exact;
    let found: string | undefined;
    for (const name of this.names) {
      if (!this.fold(name).startsWith(key) || name === found) continue;
      if (found !== undefined) return written; // ambiguous: getopt_long refuses it
      found = name;
    }
    return found ?? written;
  }

  knows(written: string): boolean {
    return this.names.some((n) => this.fold(n) === this.fold(written));
  }

  /** Every known name `written` is a prefix of. */
  candidates(written: string): string[] {
    const key = this.fold(written);
    return key === '' ? [] : [...new Set(this.names.filter((n) => this.fold(n).startsWith(key)))];
  }
}

/** Exactly one of these options (short letters or long names) was given. For allow-decisions. */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

/**
 * One of these options was given, or a GNU-style abbreviation of a long one (`--rec` is `--recursive`).
 * For deny-decisions, where matching too much is the safe error.
 */
export function mayHaveOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) =>
    names.some((n) => o.name === n || (o.long && n.length > 1 && o.name.length >= 1 && n.startsWith(o.name))),
  );
}

/** Values of every occurrence of these options, including ambiguous abbreviations that could be one of them. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): ShellWord[] {
  const named = (o: ParsedOption) => names.includes(o.name) || (o.candidates ?? []).some((c) => names.includes(c));
  return parsed.options.filter((o) => named(o) && o.value).map((o) => o.value as ShellWord);
}
