import { posix } from 'node:path';
import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec, type ParsedArgs } from './argv';
import { always, bySubcommand, readOnly, word, type CommandRule, type RuleSink } from './commandRule';
import type { ShellWord } from './shellSyntax';

/**
 * Build and test runners driven by the project's own files. They run code the agent may just have written, so
 * each reports what it executes (its configuration, which can load code or name commands, and the test files
 * it loads); the pre-hook lets the run go ahead only while those are unchanged since the last git commit.
 * What they write is build output. Options that rewrite sources (--fix, --write, snapshot updates) or put
 * output somewhere else are destructive.
 */

const OPAQUE = 'an argument only known at run time could be an option that rewrites files';

/** Files found in the folder the runner works in or any folder above it, up to the workspace root. */
function configUpward(sink: RuleSink, names: readonly string[]): void {
  names.forEach((name) => sink.executes(word(name), true));
}

/** `glob` inside folder `dir`, as the runner would look for it (`.` is the folder itself). */
function under(dir: ShellWord, glob: string): ShellWord {
  const base = dir.text.replace(/\/+$/, '');
  return { text: base === '' || base === '.' ? glob : `${base}/${glob}`, dynamic: dir.dynamic };
}

/** A path or module given to a loader: paths are files it runs; bare names come from installed packages. */
function loadsModule(sink: RuleSink, module: ShellWord, what: string): void {
  if (module.dynamic) return sink.flag('ask', `loads ${what} only known at run time`);
  if (/^(\.{1,2}\/|\/)/.test(module.text)) sink.executes(module);
}

function rewritesWith(options: string[], why: string, executes?: (parsed: ParsedArgs, sink: RuleSink) => void): CommandRule {
  const short = options.filter((o) => o.length === 1);
  const long = options.filter((o) => o.length > 1);
  return (inv, sink) => {
    const parsed = parseArgs(inv.args);
    if (parsed.opaque) sink.flag('ask', OPAQUE);
    if (hasOption(parsed, ...short) || mayHaveOption(parsed, ...long)) sink.flag('destructive', why);
    executes?.(parsed, sink);
  };
}

// tsc emits into the project's configured outDir; these options send output elsewhere. tsc reads `-outDir` and
// `--OUTDIR` alike; it runs no project code.
const TSC_OUTPUTS = ['outDir', 'outFile', 'out', 'declarationDir', 'tsBuildInfoFile', 'generateTrace'];
const TSC_OPTIONS: ArgSpec = { valued: [...TSC_OUTPUTS, 'p', 'project', 'target', 'module', 'lib', 'jsx', 'moduleResolution', 'rootDir', 'baseUrl'], singleDashLong: true };

const tsc: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, TSC_OPTIONS);
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  const outputs = optionValues(parsed, ...TSC_OUTPUTS);
  if (outputs.length > 0) sink.flag('destructive', 'writes compiled output to a chosen path');
  outputs.forEach((w) => sink.write(w));
};

const ESLINT_CONFIGS = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts', '.eslintrc.js', '.eslintrc.cjs', '.eslintrc.yaml', '.eslintrc.yml', '.eslintrc.json', '.eslintrc', 'package.json'];
const ESLINT_OPTIONS: ArgSpec = {
  valued: ['o', 'output-file', 'c', 'config', 'f', 'format', 'rulesdir', 'plugin', 'ext', 'resolve-plugins-relative-to', 'parser', 'parser-options', 'env', 'global', 'rule', 'ignore-path', 'ignore-pattern', 'max-warnings', 'cache-location', 'cache-strategy', 'stdin-filename'],
  flags: ['fix', 'fix-dry-run', 'fix-type', 'cache', 'quiet', 'debug', 'stdin', 'no-eslintrc', 'no-ignore', 'color', 'no-color', 'report-unused-disable-directives', 'print-config', 'init', 'inspect-config'],
};

// eslint's configuration is JavaScript: it runs when eslint loads it.
const eslint: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, ESLINT_OPTIONS);
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  if (mayHaveOption(parsed, 'fix') && !hasOption(parsed, 'fix-dry-run')) sink.flag('destructive', 'rewrites source files (--fix)');
  if (mayHaveOption(parsed, 'rulesdir', 'resolve-plugins-relative-to')) sink.flag('ask', 'loads lint rules or plugins from a folder');
  const outputs = optionValues(parsed, 'o', 'output-file');
  if (outputs.length > 0) sink.flag('destructive', 'writes its report to a file');
  outputs.forEach((w) => sink.write(w));
  configUpward(sink, ESLINT_CONFIGS);
  optionValues(parsed, 'c', 'config').forEach((w) => sink.executes(w));
};

const PRETTIER_CONFIGS = ['.prettierrc', '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs', '.prettierrc.ts', '.prettierrc.json', '.prettierrc.yaml', '.prettierrc.yml', '.prettierrc.json5', '.prettierrc.toml', 'prettier.config.js', 'prettier.config.cjs', 'prettier.config.mjs', 'prettier.config.ts', 'package.json'];
const PRETTIER_OPTIONS: ArgSpec = { valued: ['config', 'plugin', 'ignore-path', 'parser', 'log-level', 'cache-location', 'stdin-filepath'], flags: ['write', 'check', 'list-different', 'cache'] };

const prettier: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, PRETTIER_OPTIONS);
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  if (hasOption(parsed, 'w') || mayHaveOption(parsed, 'write')) sink.flag('destructive', 'rewrites source files (--write)');
  configUpward(sink, PRETTIER_CONFIGS);
  optionValues(parsed, 'config').forEach((w) => sink.executes(w));
  optionValues(parsed, 'plugin').forEach((w) => loadsModule(sink, w, 'a plugin'));
};

const MOCHA_CONFIGS = ['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.json', '.mocharc.jsonc', 'package.json'];
const MOCHA_OPTIONS: ArgSpec = {
  valued: ['r', 'require', 'config', 'package', 'spec', 'file', 'ignore', 'exclude', 'extension', 'g', 'grep', 'f', 'fgrep', 'R', 'reporter', 'O', 'reporter-option', 'reporter-options', 'u', 'ui', 't', 'timeout', 's', 'slow', 'j', 'jobs', 'retries', 'n', 'node-option'],
  flags: ['watch', 'parallel', 'recursive', 'bail', 'exit', 'forbid-only', 'dry-run', 'invert', 'full-trace', 'sort', 'inline-diffs', 'color', 'diff', 'check-leaks'],
};

const mocha: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, MOCHA_OPTIONS);
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  if (hasOption(parsed, 'n') || mayHaveOption(parsed, 'node-option')) sink.flag('ask', 'passes options to node, which can load any module (--node-option)');
  configUpward(sink, MOCHA_CONFIGS);
  [...optionValues(parsed, 'config', 'package', 'file')].forEach((w) => sink.executes(w));
  optionValues(parsed, 'r', 'require').forEach((w) => loadsModule(sink, w, 'a module (--require)'));
  const specs = [...parsed.operands, ...optionValues(parsed, 'spec')];
  // Without specs mocha runs ./test (or the spec its configuration names, which is checked above).
  (specs.length > 0 ? specs : [word('test')]).forEach((w) => sink.executes(/[*?]/.test(w.text) || /\.[cm]?[jt]sx?$/.test(w.text) ? w : under(w, '**')));
};

const JS_TEST_FILES = ['**/__tests__/**', '**/*.test.*', '**/*.spec.*'];

function jsTestRunner(configs: string[], update: string[], why: string): CommandRule {
  return rewritesWith(update, why, (parsed, sink) => {
    configUpward(sink, [...configs, 'package.json']);
    optionValues(parsed, 'c', 'config').forEach((w) => sink.executes(w));
    JS_TEST_FILES.forEach((glob) => sink.executes(word(glob)));
  });
}

const jest = jsTestRunner(['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.json'], ['u', 'updateSnapshot'], 'rewrites test snapshots');
const vitest = jsTestRunner(['vitest.config.ts', 'vitest.config.js', 'vitest.config.mts', 'vitest.config.mjs', 'vitest.workspace.ts', 'vitest.workspace.js', 'vite.config.ts', 'vite.config.js', 'vite.config.mts', 'vite.config.mjs'], ['u', 'update'], 'rewrites test snapshots');

const PYTEST_CONFIGS = ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg', 'conftest.py'];
const PYTEST_WRITES = ['basetemp', 'junitxml', 'junit-xml', 'log-file', 'result-log', 'report-log', 'debug'];
const PYTEST_OPTIONS: ArgSpec = {
  valued: ['c', 'k', 'm', 'p', 'o', 'W', 'maxfail', 'rootdir', 'confcutdir', 'basetemp', 'junitxml', 'junit-xml', 'junit-prefix', 'log-file', 'log-level', 'log-format', 'log-cli-level', 'result-log', 'report-log', 'override-ini', 'config-file', 'deselect', 'ignore', 'ignore-glob', 'import-mode', 'tb', 'durations', 'capture', 'r', 'n', 'numprocesses', 'cov', 'cov-report', 'cov-config', 'co'],
  optional: ['debug'],
  flags: ['pyargs', 'lf', 'last-failed', 'ff', 'failed-first', 'nf', 'new-first', 'cache-clear', 'cache-show', 'sw', 'stepwise', 'collect-only', 'co', 'strict-markers', 'strict', 'verbose', 'quiet', 'showlocals', 'exitfirst', 'noconftest', 'version', 'help', 'fixtures', 'markers', 'setup-only', 'setup-show', 'setup-plan', 'runxfail', 'disable-warnings', 'no-header', 'no-summary'],
};

/**
 * pytest loads conftest.py from the folders above each test path, its ini files (whose addopts can load
 * plugins), the test files it collects, and any `-p` plugin. `--basetemp` is emptied first, so it is written.
 */
const pytest: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, PYTEST_OPTIONS);
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could load a plugin or write a file');
  for (const plugin of optionValues(parsed, 'p')) {
    if (plugin.dynamic || !plugin.text.startsWith('no:')) sink.flag('ask', `loads the plugin module ${plugin.text} (-p)`);
  }
  if (hasOption(parsed, 'o') || mayHaveOption(parsed, 'override-ini')) sink.flag('ask', 'overrides ini settings, which decide which files are tests and which plugins load (-o)');
  if (mayHaveOption(parsed, 'pyargs')) sink.flag('ask', 'collects tests from installed packages by name (--pyargs)');
  const outputs = optionValues(parsed, ...PYTEST_WRITES);
  if (outputs.length > 0) sink.flag('destructive', 'writes reports or temporary files where it is told');
  outputs.forEach((w) => sink.write(w));
  configUpward(sink, PYTEST_CONFIGS);
  optionValues(parsed, 'c', 'config-file').forEach((w) => sink.executes(w));
  const paths = parsed.operands.map((w) => ({ text: w.text.replace(/::.*$/, ''), dynamic: w.dynamic }));
  for (const path of paths.length > 0 ? paths : [word('.')]) {
    if (path.text.endsWith('.py')) {
      sink.executes(path);
      sink.executes(under({ ...path, text: posix.dirname(path.text) }, 'conftest.py'), true);
      continue;
    }
    sink.executes(under(path, 'conftest.py'), true);
    for (const glob of ['**/conftest.py', '**/test_*.py', '**/*_test.py']) sink.executes(under(path, glob));
  }
};

const MAKE_OPTIONS: ArgSpec = {
  valued: ['C', 'f', 'I', 'o', 'W', 'directory', 'file', 'makefile', 'include-dir', 'old-file', 'assume-old', 'what-if', 'new-file', 'assume-new', 'eval', 'E'],
  attached: ['j', 'l', 'O'],
  optional: ['jobs', 'load-average', 'max-load', 'output-sync', 'debug', 'jobserver-style', 'shuffle'],
  flags: ['always-make', 'environment-overrides', 'ignore-errors', 'keep-going', 'just-print', 'dry-run', 'recon', 'question', 'no-builtin-rules', 'no-builtin-variables', 'silent', 'quiet', 'no-silent', 'stop', 'no-keep-going', 'touch', 'trace', 'print-directory', 'no-print-directory', 'print-data-base', 'check-symlink-times', 'warn-undefined-variables', 'help', 'version'],
};

/**
 * make runs the recipes of its makefile: GNUmakefile, makefile or Makefile in the folder -C leads to, or the
 * files -f names there, and the `*.mk` files they usually include.
 */
const make: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, MAKE_OPTIONS);
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could name another makefile or directory');
  if (hasOption(parsed, 'E') || mayHaveOption(parsed, 'eval')) sink.flag('ask', 'evaluates make code given on the command line (--eval)');
  if (hasOption(parsed, 't') || mayHaveOption(parsed, 'touch')) {
    sink.flag('destructive', 'marks targets up to date by touching them (-t)');
    sink.writeUnknown();
  }
  let at = sink;
  for (const dir of optionValues(parsed, 'C', 'directory')) at = at.within(dir);
  const files = optionValues(parsed, 'f', 'file', 'makefile');
  if (files.some((w) => !w.dynamic && w.text === '-')) sink.flag('ask', 'reads its makefile from stdin (-f -)');
  const named = files.filter((w) => w.dynamic || w.text !== '-');
  (named.length > 0 ? named : ['GNUmakefile', 'makefile', 'Makefile'].map(word)).forEach((w) => at.executes(w));
  at.executes(word('**/*.mk'));
  optionValues(parsed, 'I', 'include-dir').forEach((dir) => at.executes(under(dir, '**')));
};

function cargoFiles(sink: RuleSink, tests: string[]): void {
  configUpward(sink, ['Cargo.toml', 'rust-toolchain', 'rust-toolchain.toml']);
  // .cargo/config.toml can name a runner for everything cargo builds; build.rs runs at every build.
  for (const path of ['.cargo/config.toml', '.cargo/config', 'build.rs', ...tests]) sink.executes(word(path));
}

function cargoProject(tests: string[]): CommandRule {
  return (_inv, sink) => cargoFiles(sink, tests);
}

const cargoFmt: CommandRule = (inv, sink) => {
  if (!inv.args.some((w) => w.text === '--check')) sink.flag('destructive', 'reformats source files');
};

const cargoBuild = cargoProject([]);
const cargoTest = cargoProject(['tests/**', 'benches/**', 'examples/**', 'src/**']);
const cargoRun = cargoProject(['src/**']);

const CARGO: Record<string, CommandRule> = {
  build: cargoBuild, b: cargoBuild, check: cargoBuild, c: cargoBuild, test: cargoTest, t: cargoTest, bench: cargoTest,
  doc: cargoBuild, tree: readOnly, metadata: readOnly, run: cargoRun, r: cargoRun, version: readOnly, help: readOnly,
  '--version': readOnly, '-V': readOnly,
  clippy: rewritesWith(['fix'], 'rewrites source files (--fix)', (_parsed, sink) => cargoFiles(sink, [])),
  fmt: cargoFmt,
  fix: always('destructive', 'rewrites source files'),
  clean: always('destructive', 'deletes build output'),
  ...Object.fromEntries(['add', 'remove', 'rm', 'update', 'install', 'uninstall', 'new', 'init'].map((n) => [n, always('destructive', 'changes dependencies or creates a package')])),
  publish: always('destructive', 'publishes to the registry'),
};

/** go.mod and go.work can switch toolchains (a download that then runs); go test runs the _test.go files. */
function goProject(tests: boolean): CommandRule {
  return (inv, sink) => {
    const parsed = parseArgs(inv.args, { valued: ['o', 'C', 'exec', 'toolexec', 'overlay', 'modfile', 'run', 'bench', 'count', 'timeout', 'tags', 'ldflags', 'gcflags', 'p', 'coverprofile', 'cpuprofile', 'memprofile', 'outputdir'], singleDashLong: true });
    if (mayHaveOption(parsed, 'exec', 'toolexec', 'overlay')) sink.flag('ask', 'runs programs it is given (-exec, -toolexec) or reads an overlay');
    const outputs = optionValues(parsed, 'o', 'coverprofile', 'cpuprofile', 'memprofile', 'outputdir');
    if (outputs.length > 0) sink.flag('destructive', 'writes output to a chosen path');
    outputs.forEach((w) => sink.write(w));
    let at = sink;
    for (const dir of optionValues(parsed, 'C')) at = at.within(dir);
    configUpward(at, ['go.mod', 'go.work']);
    optionValues(parsed, 'modfile').forEach((w) => at.executes(w));
    if (!tests) return;
    const packages = parsed.operands.filter((w) => w.dynamic || w.text.startsWith('.') || w.text.startsWith('/'));
    for (const pkg of packages.length > 0 ? packages : [word('.')]) {
      const recursive = pkg.text.endsWith('/...');
      at.executes(under({ ...pkg, text: recursive ? pkg.text.slice(0, -4) : pkg.text }, recursive ? '**/*_test.go' : '*_test.go'));
    }
  };
}

const GO: Record<string, CommandRule> = {
  build: goProject(false), test: goProject(true), vet: goProject(false), version: readOnly, '--version': readOnly, list: readOnly, doc: readOnly, help: readOnly,
  env: rewritesWith(['w', 'u'], 'changes go environment settings'),
  fmt: always('destructive', 'reformats source files'),
  get: always('destructive', 'changes dependencies'),
  install: always('destructive', 'installs programs'),
  mod: bySubcommand({ graph: readOnly, why: readOnly, verify: readOnly }, always('destructive', 'changes go.mod or the module cache')),
  work: always('destructive', 'changes go.work'),
  clean: always('destructive', 'deletes build output or caches'),
  generate: always('ask', 'runs the commands in //go:generate comments'),
  // go run can fetch and run a remote module (`go run x@latest`).
  run: always('ask', 'compiles and runs a program, possibly fetched from the network'),
  tool: always('ask', 'runs a go tool'),
};

export const RUNNER_RULES: Record<string, CommandRule> = {
  tsc,
  mocha,
  pytest,
  'py.test': pytest,
  make,
  gmake: make,
  jest,
  vitest,
  eslint,
  prettier,
  cargo: bySubcommand(CARGO, always('ask', 'runs a cargo subcommand we do not know')),
  go: bySubcommand(GO, always('ask', 'runs a go subcommand we do not know')),
};
