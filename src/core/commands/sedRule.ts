import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { writeOperands, type CommandRule } from './commandRule';

/** What a sed script can do besides printing: write files (w, s///w) and run shell commands (e, s///e). */
export interface SedEffects {
  writes: string[];
  executes: boolean;
  readable: boolean; // false when the scanner met syntax it does not know: nothing can be ruled out
}

/** Scans a sed script command by command (GNU syntax) for the commands that reach outside sed. */
export function scanSedScript(script: string): SedEffects {
  return new SedScanner(script).scan();
}

type Step = (s: SedScanner) => boolean;

// Commands with no argument; the rest read their argument as below. Unknown letters stop the scan.
const BARE = new Set([...'{}=dDgGhHnNpPxzF']);
const COMMANDS: Record<string, Step> = {
  s: (s) => s.substitute(),
  y: (s) => s.transliterate(),
  w: (s) => s.writeTo(),
  W: (s) => s.writeTo(),
  e: (s) => s.execute(),
  r: (s) => (s.line(), true),
  R: (s) => (s.line(), true),
  a: (s) => s.text(),
  i: (s) => s.text(),
  c: (s) => s.text(),
  '#': (s) => (s.line(), true),
  ':': (s) => (s.label(), true),
  b: (s) => (s.label(), true),
  t: (s) => (s.label(), true),
  T: (s) => (s.label(), true),
  q: (s) => (s.label(), true),
  Q: (s) => (s.label(), true),
  l: (s) => (s.label(), true),
  L: (s) => (s.label(), true),
  v: (s) => (s.label(), true),
};

class SedScanner {
  private i = 0;
  private readonly fx: SedEffects = { writes: [], executes: false, readable: true };
  constructor(private readonly src: string) {}

  scan(): SedEffects {
    while (this.fx.readable) {
      while (this.i < this.src.length && /[\s;]/.test(this.src[this.i])) this.i++;
      if (this.i >= this.src.length) break;
      if (!this.addresses()) return this.unreadable();
      const c = this.src[this.i++];
      const step = COMMANDS[c];
      if (!BARE.has(c) && !(step && step(this))) return this.unreadable();
    }
    return this.fx;
  }

  substitute(): boolean {
    const d = this.src[this.i++];
    if (!d || d === '\n' || d === '\\' || !this.delimited(d) || !this.delimited(d)) return false;
    while (this.i < this.src.length && /[gpiImMe0-9w]/.test(this.src[this.i])) {
      const flag = this.src[this.i++];
      if (flag === 'e') this.fx.executes = true;
      if (flag === 'w') return this.writeTo();
    }
    return true;
  }

  transliterate(): boolean {
    const d = this.src[this.i++];
    return Boolean(d) && d !== '\n' && d !== '\\' && this.delimited(d) && this.delimited(d);
  }

  writeTo(): boolean {
    const file = this.line().trim();
    if (file === '') return false;
    this.fx.writes.push(file);
    return true;
  }

  execute(): boolean {
    this.fx.executes = true;
    this.line();
    return true;
  }

  /** a/i/c text: to the end of the line, continued while a line ends in a backslash. */
  text(): boolean {
    while (this.line().endsWith('\\') && this.i < this.src.length) this.i++;
    return true;
  }

  line(): string {
    const start = this.i;
    while (this.i < this.src.length && this.src[this.i] !== '\n') this.i++;
    return this.src.slice(start, this.i);
  }

  label(): void {
    while (this.i < this.src.length && !/[;\n}]/.test(this.src[this.i])) this.i++;
  }

  private addresses(): boolean {
    if (this.address()) {
      this.spaces();
      if (this.src[this.i] === ',') {
        this.i++;
        this.spaces();
        if (this.src[this.i] === '+' || this.src[this.i] === '~') this.i++;
        if (!this.address()) return false;
      }
    }
    this.spaces();
    while (this.src[this.i] === '!') {
      this.i++;
      this.spaces();
    }
    return true;
  }

  private address(): boolean {
    const c = this.src[this.i];
    if (c === undefined) return false;
    if (/[\d$]/.test(c)) {
      while (this.i < this.src.length && /[\d~$]/.test(this.src[this.i])) this.i++;
      return true;
    }
    if (c !== '/' && c !== '\\') return false;
    const d = c === '/' ? '/' : this.src[++this.i];
    this.i++;
    if (!d || !this.delimited(d)) return false;
    while (this.src[this.i] === 'I' || this.src[this.i] === 'M') this.i++;
    return true;
  }

  /** Skips to just past the next unescaped delimiter; false when there is none. */
  private delimited(d: string): boolean {
    while (this.i < this.src.length) {
      const c = this.src[this.i++];
      if (c === '\\') this.i++;
      else if (c === d) return true;
    }
    return false;
  }

  private spaces(): void {
    while (this.src[this.i] === ' ' || this.src[this.i] === '\t') this.i++;
  }

  private unreadable(): SedEffects {
    this.fx.readable = false;
    return this.fx;
  }
}

const SED_ARGS: ArgSpec = {
  valued: ['e', 'f', 'l', 'expression', 'file', 'line-length'],
  attached: ['i'],
  optional: ['in-place'],
  flags: ['sandbox', 'separate', 'silent', 'quiet', 'debug', 'posix', 'regexp-extended', 'null-data', 'zero-terminated', 'unbuffered', 'follow-symlinks', 'help', 'version'],
};

/** sed only reads unless -i, or its script writes (w) or runs commands (e). */
export const sed: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, SED_ARGS);
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could make sed edit files or run commands');
  const sandboxed = hasOption(parsed, 'sandbox'); // GNU: rejects e, w and r
  const scriptFiles = optionValues(parsed, 'f', 'file');
  let scripts = optionValues(parsed, 'e', 'expression');
  let files = parsed.operands;
  if (scripts.length === 0 && scriptFiles.length === 0) [scripts, files] = [files.slice(0, 1), files.slice(1)];
  if (scriptFiles.length > 0 && !sandboxed) sink.flag('ask', 'runs a sed script from a file, which could write files or run commands');
  for (const script of sandboxed ? [] : scripts.filter((w) => !w.dynamic)) {
    const fx = scanSedScript(script.text);
    if (!fx.readable) sink.flag('ask', 'has a sed script we cannot read, so writing files or running commands cannot be ruled out');
    if (fx.executes) sink.flag('ask', 'has a sed script that runs shell commands (e)');
    if (fx.writes.length > 0) sink.flag('destructive', 'has a sed script that writes files (w)');
    fx.writes.forEach((file) => sink.write({ text: file, dynamic: false }));
  }
  if (hasOption(parsed, 'i') || mayHaveOption(parsed, 'in-place')) {
    sink.flag('destructive', 'edits files in place');
    writeOperands(inv, sink, files);
  }
};
