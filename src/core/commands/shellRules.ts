import { posix } from 'node:path';
import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { word, writeOperands, type CommandRule, type Invocation, type RuleSink } from './commandRule';
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
function interpreter(codeFlags: string[]): CommandRule {
  return (inv, sink) => {
    const [first, ...rest] = inv.args;
    if (first && !first.dynamic && VERSION_ONLY.has(first.text) && rest.length === 0) return;
    const operand = inv.args.find((w) => w.dynamic || !w.text.startsWith('-'));
    if (inv.args.some((w) => !w.dynamic && codeFlags.some((f) => w.text === f || w.text.startsWith(`${f}=`)))) {
      return runtimeCode(sink, `runs ${inv.name} code given on the command line`);
    }
    if (operand?.dynamic) return runtimeCode(sink, `runs ${inv.name} code only known at run time`);
    if (operand && operand.text !== '-') return sink.flag('ask', `runs the script ${operand.text}, which is not visible here`);
    codeFromStdin(inv, sink, 'an interpreter', false);
  };
}

// python's own options that take the next word as their value.
const PYTHON_VALUED = new Set(['W', 'X', 'Q']);

/**
 * python: `-m module` is classified by module; -c code and scripts ask (a script's folder is first on the import
 * path, so anything the agent put beside it can shadow the standard library).
 */
const python: CommandRule = (inv, sink) => {
  const [first, ...rest] = inv.args;
  if (first && !first.dynamic && VERSION_ONLY.has(first.text) && rest.length === 0) return;
  for (let i = 0; i < inv.args.length; i++) {
    const { text, dynamic } = inv.args[i];
    if (dynamic) return runtimeCode(sink, 'runs python code only known at run time');
    if (text === '-' || !text.startsWith('-')) return text === '-' ? codeFromStdin(inv, sink, 'an interpreter', false) : sink.flag('ask', `runs the script ${text}, which is not visible here`);
    if (text === '--') break;
    for (let j = 1; j < text.length; j++) {
      const letter = text[j];
      if (letter === 'c') return runtimeCode(sink, 'runs python code given on the command line');
      if (letter === 'm') {
        const attached = text.slice(j + 1);
        const module = attached !== '' ? word(attached) : inv.args[i + 1];
        if (!module) return sink.flag('ask', '-m is missing its module');
        return pythonModule(module, inv.args.slice(attached !== '' ? i + 1 : i + 2), sink);
      }
      if (PYTHON_VALUED.has(letter)) {
        if (j === text.length - 1) i++;
        break;
      }
    }
  }
  codeFromStdin(inv, sink, 'an interpreter', false);
};

/** python -m: pip as pip, pytest as pytest; modules that write files report them; any other module asks. */
function pythonModule(module: ShellWord, rest: ShellWord[], sink: RuleSink): void {
  if (module.dynamic) return sink.flag('ask', 'runs a module only known at run time');
  const rule = Object.hasOwn(PYTHON_MODULES, module.text) ? PYTHON_MODULES[module.text] : undefined;
  if (!rule) return sink.flag('ask', `runs the Python module ${module.text}`);
  rule({ name: module.text, args: rest, appended: null, command: EMPTY_COMMAND, paths: {} }, sink);
}

const EMPTY_COMMAND = { argv: [], redirects: [], assignments: [], background: false, pipedFrom: [], substitutions: [], directories: [''] };

const JSON_TOOL: ArgSpec = { valued: ['indent'], flags: ['sort-keys', 'no-ensure-ascii', 'json-lines', 'tab', 'no-indent', 'compact', 'help'] };

// json.tool [infile [outfile]]: the second operand is written.
const jsonTool: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, JSON_TOOL);
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could be an output file');
  const output = parsed.operands[1];
  if (!output || (!output.dynamic && output.text === '-')) return;
  sink.flag('destructive', 'writes its output to a file');
  sink.write(output);
};

/** The __pycache__ folder beside a source file, where its bytecode is written. */
function pycache(source: ShellWord): ShellWord {
  return { text: posix.join(posix.dirname(source.text), '__pycache__'), dynamic: source.dynamic };
}

// py_compile writes __pycache__/NAME.cpython-XY.pyc beside each file; without files it reads their names from stdin.
const pyCompile: CommandRule = (inv, sink) => {
  const files = parseArgs(inv.args).operands;
  sink.flag('destructive', 'writes compiled bytecode next to the sources (__pycache__)');
  if (files.length === 0 || files.some((w) => !w.dynamic && w.text === '-')) sink.writeUnknown();
  files.filter((w) => w.dynamic || w.text !== '-').forEach((w) => sink.write(pycache(w)));
};

// compileall compiles whole trees (sys.path when given none).
const compileall: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['d', 's', 'p', 'x', 'i', 'o', 'j', 'r', 'e', 'invalidation-mode'] });
  sink.flag('destructive', 'writes compiled bytecode into __pycache__ folders');
  if (parsed.operands.length === 0 || optionValues(parsed, 'i').length > 0) {
    sink.flag('ask', 'compiles folders it is not given on the command line (sys.path, or a list file)');
    sink.writeUnknown();
  }
  parsed.operands.forEach((w) => sink.write(w.text.endsWith('.py') ? pycache(w) : w));
};

/** unittest imports test*.py under the start folder (or the modules and files it is given). */
const unittest: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['s', 'p', 't', 'k', 'start-directory', 'pattern', 'top-level-directory'] });
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could name other tests');
  const names = parsed.operands.filter((w) => w.text !== 'discover');
  if (names.length === 0) {
    const start = optionValues(parsed, 's', 'start-directory')[0]?.text ?? '.';
    const pattern = optionValues(parsed, 'p', 'pattern')[0]?.text ?? 'test*.py';
    sink.executes(word(start === '.' ? `**/${pattern}` : `${start.replace(/\/+$/, '')}/**/${pattern}`));
    return;
  }
  // tests.test_login.TestX → everything in the top package `tests` (or the module tests.py).
  for (const name of names) {
    if (name.text.endsWith('.py')) sink.executes(name);
    else ['/**', '.py'].forEach((suffix) => sink.executes({ ...name, text: `${name.text.split('.')[0]}${suffix}` }));
  }
};

const PYTHON_MODULES: Record<string, CommandRule> = {
  pip: (inv, sink) => sink.unwrap([word('pip'), ...inv.args]),
  pip3: (inv, sink) => sink.unwrap([word('pip'), ...inv.args]),
  pytest: (inv, sink) => sink.unwrap([word('pytest'), ...inv.args]),
  mypy: (_inv, sink) => ['mypy.ini', '.mypy.ini', 'setup.cfg', 'pyproject.toml'].forEach((name) => sink.executes(word(name), true)),
  'json.tool': jsonTool,
  py_compile: pyCompile,
  compileall,
  unittest,
};

const NODE_OPTIONS: ArgSpec = {
  valued: ['r', 'require', 'import', 'loader', 'experimental-loader', 'C', 'conditions', 'input-type', 'env-file', 'env-file-if-exists', 'title', 'stack-size', 'redirect-warnings', 'cpu-prof-dir', 'heap-prof-dir', 'diagnostic-dir', 'report-directory', 'report-dir', 'test-reporter', 'test-reporter-destination', 'inspect-port', 'run', 'watch-path', 'max-old-space-size', 'e', 'eval', 'p', 'print'],
  flags: ['test', 'watch', 'inspect', 'inspect-brk', 'enable-source-maps', 'no-warnings', 'trace-warnings', 'experimental-vm-modules', 'experimental-strip-types', 'check', 'interactive', 'version', 'help'],
};
const NODE_WRITES = ['redirect-warnings', 'cpu-prof-dir', 'heap-prof-dir', 'diagnostic-dir', 'report-directory', 'report-dir', 'test-reporter-destination'];

/**
 * node runs its script, which the pre-hook checks against the last commit (and any env file, which can set
 * NODE_OPTIONS). Code on the command line, modules loaded before the script and --test's file search ask.
 */
const node: CommandRule = (inv, sink) => {
  const [first, ...others] = inv.args;
  if (first && !first.dynamic && VERSION_ONLY.has(first.text) && others.length === 0) return;
  // Options end at the script; what follows is the script's own arguments.
  const script = inv.args.findIndex((w, i) => (w.dynamic || !w.text.startsWith('-') || w.text === '-') && !takesValue(inv.args[i - 1]));
  const own = script < 0 ? inv.args : inv.args.slice(0, script);
  const parsed = parseArgs(own, NODE_OPTIONS);
  if (parsed.opaque) return runtimeCode(sink, 'an argument only known at run time could be code or a module to load');
  if (mayHaveOption(parsed, 'eval', 'print') || hasOption(parsed, 'e', 'p')) return runtimeCode(sink, 'runs node code given on the command line');
  if (hasOption(parsed, 'r') || mayHaveOption(parsed, 'require', 'import', 'loader', 'experimental-loader')) sink.flag('ask', 'loads modules before the script (--require, --import, --loader)');
  if (mayHaveOption(parsed, 'test')) sink.flag('ask', 'runs every test file it finds (--test)');
  if (mayHaveOption(parsed, 'run')) ['package.json', '.npmrc'].forEach((name) => sink.executes(word(name), true));
  optionValues(parsed, 'env-file', 'env-file-if-exists').forEach((w) => sink.executes(w));
  const outputs = optionValues(parsed, ...NODE_WRITES);
  if (outputs.length > 0) sink.flag('destructive', 'writes diagnostics to a chosen path');
  outputs.forEach((w) => sink.write(w));
  const target = script < 0 ? undefined : inv.args[script];
  if (!target || target.text === '-') {
    if (mayHaveOption(parsed, 'run', 'test')) return;
    return codeFromStdin(inv, sink, 'an interpreter', false);
  }
  if (target.dynamic) return runtimeCode(sink, 'runs a node script only known at run time');
  // `node build` may be build.js, build.mjs, build/index.js or the main of build/package.json.
  const extension = /\.[cm]?[jt]s$|\.json$|\.node$/.test(target.text);
  sink.executes(target);
  if (!extension) ['.*', '/**'].forEach((suffix) => sink.executes({ ...target, text: `${target.text.replace(/\/+$/, '')}${suffix}` }));
};

function takesValue(previous: ShellWord | undefined): boolean {
  if (!previous || previous.dynamic || previous.text.includes('=')) return false;
  const parsed = parseArgs([previous], NODE_OPTIONS).options[0];
  return parsed !== undefined && (NODE_OPTIONS.valued ?? []).includes(parsed.name);
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
  python,
  python3: python,
  node,
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
