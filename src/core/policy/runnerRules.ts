import { hasOption, mayHaveOption, optionValues, parseArgs } from './argv';
import { always, bySubcommand, readOnly, type CommandRule } from './commandRule';

/**
 * Build and test runners driven by the project's own configuration. Choice: running them is safe
 * like `npm test`, because what they execute (tests, Makefile, build config) is project code under
 * governance, and what they write is build output. Options that rewrite sources (--fix, --write,
 * snapshot updates) or put output somewhere else are destructive.
 */

const OPAQUE = 'an argument only known at run time could be an option that rewrites files';

function rewritesWith(options: string[], why: string): CommandRule {
  const short = options.filter((o) => o.length === 1);
  const long = options.filter((o) => o.length > 1);
  return (inv, sink) => {
    const parsed = parseArgs(inv.args);
    if (parsed.opaque) sink.flag('ask', OPAQUE);
    if (hasOption(parsed, ...short) || mayHaveOption(parsed, ...long)) sink.flag('destructive', why);
  };
}

// tsc emits into the project's configured outDir; these options send output elsewhere.
const TSC_OUTPUTS = ['outDir', 'outFile', 'out', 'declarationDir', 'tsBuildInfoFile'];

const tsc: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: [...TSC_OUTPUTS, 'p', 'project', 'target', 'module', 'lib', 'jsx', 'moduleResolution'] });
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  const outputs = optionValues(parsed, ...TSC_OUTPUTS);
  if (outputs.length > 0) sink.flag('destructive', 'writes compiled output to a chosen path');
  outputs.forEach((w) => sink.write(w));
};

const eslint: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['o', 'output-file', 'c', 'config', 'f', 'format', 'rulesdir', 'plugin', 'ext', 'resolve-plugins-relative-to'] });
  if (parsed.opaque) sink.flag('ask', OPAQUE);
  if (mayHaveOption(parsed, 'fix') && !hasOption(parsed, 'fix-dry-run')) sink.flag('destructive', 'rewrites source files (--fix)');
  if (mayHaveOption(parsed, 'rulesdir')) sink.flag('ask', 'loads lint rules from a directory (--rulesdir)');
  const outputs = optionValues(parsed, 'o', 'output-file');
  if (outputs.length > 0) sink.flag('destructive', 'writes its report to a file');
  outputs.forEach((w) => sink.write(w));
};

const cargoFmt: CommandRule = (inv, sink) => {
  if (!inv.args.some((w) => w.text === '--check')) sink.flag('destructive', 'reformats source files');
};

const CARGO: Record<string, CommandRule> = {
  build: readOnly, b: readOnly, check: readOnly, c: readOnly, test: readOnly, t: readOnly, bench: readOnly,
  doc: readOnly, tree: readOnly, metadata: readOnly, run: readOnly, r: readOnly, version: readOnly, help: readOnly,
  '--version': readOnly, '-V': readOnly,
  clippy: rewritesWith(['fix'], 'rewrites source files (--fix)'),
  fmt: cargoFmt,
  fix: always('destructive', 'rewrites source files'),
  clean: always('destructive', 'deletes build output'),
  ...Object.fromEntries(['add', 'remove', 'rm', 'update', 'install', 'uninstall', 'new', 'init'].map((n) => [n, always('destructive', 'changes dependencies or creates a package')])),
  publish: always('destructive', 'publishes to the registry'),
};

const GO: Record<string, CommandRule> = {
  build: readOnly, test: readOnly, vet: readOnly, version: readOnly, '--version': readOnly, list: readOnly, doc: readOnly, help: readOnly,
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
  mocha: readOnly,
  pytest: readOnly,
  make: readOnly,
  jest: rewritesWith(['u', 'updateSnapshot'], 'rewrites test snapshots'),
  vitest: rewritesWith(['u', 'update'], 'rewrites test snapshots'),
  eslint,
  prettier: rewritesWith(['w', 'write'], 'rewrites source files (--write)'),
  cargo: bySubcommand(CARGO, always('ask', 'runs a cargo subcommand we do not know')),
  go: bySubcommand(GO, always('ask', 'runs a go subcommand we do not know')),
};
