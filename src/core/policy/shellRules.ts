import { writeOperands, type CommandRule, type Invocation, type RuleSink } from './commandRule';
import type { ShellWord } from './shellSyntax';

/**
 * Shells and interpreters: they run code, so what they run decides. Literal shell code (`bash -c '…'`,
 * a quoted heredoc, `eval 'literal'`) is parsed and classified like the outer command; any other code
 * (a script file, Python, code only known at run time) asks. Code from a download is denied.
 */

// Programs whose output is a network response; piping it into something that runs code is denied.
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-request', 'GET']);

/** Code only known at run time: denied when a download produces it (`bash -c "$(curl …)"`), else ask. */
function runtimeCode(sink: RuleSink, why: string): void {
  if (sink.substituted().some((p) => DOWNLOADERS.has(p))) sink.flag('denied', 'runs code downloaded from the network');
  sink.flag('ask', why);
}

/** The program reads the code it runs from stdin: a download, a heredoc, a file, or a pipe. */
function codeFromStdin(inv: Invocation, sink: RuleSink, what: string, parse: boolean): void {
  if (sink.upstream().some((p) => DOWNLOADERS.has(p))) sink.flag('denied', `pipes a download into ${what}`);
  const fed = inv.command.redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
  if (fed) {
    sink.flag('ask', `runs code fed to it on stdin (${fed.op})`);
    const body = fed.op === '<<<' ? fed.target : fed.heredoc;
    if (parse && body && !body.dynamic) sink.script(body, `${inv.name} ${fed.op}`);
  } else if (inv.command.redirects.some((r) => r.op === '<')) {
    sink.flag('ask', 'runs a script file fed to it on stdin');
  } else if (inv.command.pipedFrom.length > 0 || inv.appended) {
    sink.flag('ask', 'runs code piped into it');
  } else {
    sink.flag('ask', 'starts an interactive session');
  }
}

// Shell options that take the next word as their value.
const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

const shell: CommandRule = (inv, sink) => {
  let i = 0;
  let fromString = false;
  let fromStdin = false;
  for (; i < inv.args.length; i++) {
    const { text, dynamic } = inv.args[i];
    if (dynamic) return runtimeCode(sink, 'an argument only known at run time could be shell code');
    if (text === '--' || text === '-') {
      i++;
      break;
    }
    if (SHELL_VALUED.has(text)) i++;
    else if (/^[-+][a-zA-Z]+$/.test(text)) {
      fromString ||= text[0] === '-' && text.includes('c');
      fromStdin ||= text.includes('s');
    } else if (!text.startsWith('--')) break;
  }
  const operand = inv.args[i];
  if (fromString) {
    if (!operand) return sink.flag('ask', '-c is missing its command');
    if (operand.dynamic) return runtimeCode(sink, 'runs shell code only known at run time');
    return sink.script(operand, `${inv.name} -c`);
  }
  if (operand && !fromStdin) return sink.flag('ask', `runs the script ${operand.text}, which is not visible here`);
  codeFromStdin(inv, sink, 'a shell', true);
};

const VERSION_ONLY = new Set(['--version', '-v', '-V', '--help', '-h', '-version']);

/** Interpreters: code from -c/-e or a script is not visible here, so it asks. */
function interpreter(codeFlags: string[], modules?: (module: ShellWord, rest: ShellWord[], sink: RuleSink) => void): CommandRule {
  return (inv, sink) => {
    const [first, ...rest] = inv.args;
    if (first && !first.dynamic && VERSION_ONLY.has(first.text) && rest.length === 0) return;
    if (modules && first?.text === '-m' && rest[0]) return modules(rest[0], rest.slice(1), sink);
    const operand = inv.args.find((w) => w.dynamic || !w.text.startsWith('-'));
    if (inv.args.some((w) => !w.dynamic && codeFlags.some((f) => w.text === f || w.text.startsWith(`${f}=`)))) {
      return runtimeCode(sink, `runs ${inv.name} code given on the command line`);
    }
    if (operand?.dynamic) return runtimeCode(sink, `runs ${inv.name} code only known at run time`);
    if (operand && operand.text !== '-') return sink.flag('ask', `runs the script ${operand.text}, which is not visible here`);
    codeFromStdin(inv, sink, 'an interpreter', false);
  };
}

/** python -m: pip is classified as pip; test runners as runners; any other module asks. */
function pythonModule(module: ShellWord, rest: ShellWord[], sink: RuleSink): void {
  if (module.dynamic) return sink.flag('ask', 'runs a module only known at run time');
  if (['pip', 'pip3'].includes(module.text)) return sink.unwrap([{ text: 'pip', dynamic: false }, ...rest]);
  if (['pytest', 'unittest', 'mypy', 'json.tool', 'py_compile', 'compileall'].includes(module.text)) return;
  sink.flag('ask', `runs the Python module ${module.text}`);
}

// perl: these letters take the rest of their cluster (or the next word, for -e/-E) as a value.
const PERL_VALUE_LETTERS = new Set([...'eEiMmIFCdDx0l']);

/** perl -i edits files in place (destructive); any other perl runs code we cannot see (ask). */
const perl: CommandRule = (inv, sink) => {
  let inPlace = false;
  let code = false;
  let i = 0;
  for (; i < inv.args.length; i++) {
    const { text, dynamic } = inv.args[i];
    if (dynamic || !text.startsWith('-') || text === '-') break;
    if (text === '--') {
      i++;
      break;
    }
    for (let j = 1; j < text.length; j++) {
      const letter = text[j];
      if (!PERL_VALUE_LETTERS.has(letter)) continue;
      inPlace ||= letter === 'i';
      if (letter === 'e' || letter === 'E') {
        code = true;
        if (j === text.length - 1) i++; // the code is the next word
      }
      break;
    }
  }
  if (inv.args.length === 1 && VERSION_ONLY.has(inv.args[0].text)) return;
  const operands = inv.args.slice(i);
  if (!inPlace) return sink.flag('ask', code ? 'runs perl code given on the command line' : 'runs a perl script');
  sink.flag('destructive', 'edits files in place with perl');
  writeOperands(inv, sink, code ? operands : operands.slice(1));
};

const evalRule: CommandRule = (inv, sink) => {
  runtimeCode(sink, 'runs a string as shell code (eval)');
  if (inv.args.some((w) => w.dynamic)) return;
  if (inv.args.length > 0) sink.script({ text: inv.args.map((w) => w.text).join(' '), dynamic: false }, 'eval');
};

// trap's action runs later in this shell; '-' and '' only reset or ignore a signal.
const trap: CommandRule = (inv, sink) => {
  const [action] = inv.args;
  if (!action || (!action.dynamic && ['-l', '-p', '-', '', '--'].includes(action.text))) return;
  if (action.dynamic) return sink.flag('ask', 'sets a trap whose code is only known at run time');
  sink.script(action, 'trap');
};

const sourceRule: CommandRule = (_inv, sink) => runtimeCode(sink, 'runs a script file in the current shell');

export const SHELL_RULES: Record<string, CommandRule> = {
  ...Object.fromEntries(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash'].map((name) => [name, shell])),
  python: interpreter(['-c'], pythonModule),
  python3: interpreter(['-c'], pythonModule),
  node: interpreter(['-e', '--eval', '-p', '--print']),
  ruby: interpreter(['-e']),
  php: interpreter(['-r']),
  lua: interpreter(['-e']),
  perl,
  eval: evalRule,
  source: sourceRule,
  '.': sourceRule,
  trap,
  alias: (_inv, sink) => sink.flag('ask', 'defines an alias, which changes what later commands run'),
};
