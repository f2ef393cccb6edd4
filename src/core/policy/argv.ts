import type { ShellWord } from './shellSyntax';

export interface ParsedOption {
  name: string; // 'r' for -r, 'recursive' for --recursive
  long: boolean;
  value?: ShellWord;
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
  stopAtOperand?: boolean; // POSIX-style: the first operand ends the options (env, xargs, timeout)
}

/** getopt-style parsing: clusters (-rf), attached or separate values, --long=value, `--` ends options. */
export function parseArgs(args: readonly ShellWord[], spec: ArgSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { options: [], operands: [], rest: [], opaque: false };
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
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      const option: ParsedOption = { name, long: true };
      if (eq >= 0) option.value = { text: text.slice(eq + 1), dynamic: false };
      else if (valued.has(name) && i + 1 < args.length) option.value = args[++i];
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

/** Values of every occurrence of these options (exact names). */
export function optionValues(parsed: ParsedArgs, ...names: string[]): ShellWord[] {
  return parsed.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value as ShellWord);
}
