import { mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { always, bySubcommand, readOnly, word, type CommandRule, type RuleSink } from './commandRule';

/**
 * Package managers. Choices:
 * - Running the project's own scripts (`npm test`, `npm run build`, `yarn test`) is safe while package.json and
 *   the manager's own configuration are as last committed: the policy reports them as executed, and the pre-hook
 *   asks when the agent changed them. `--prefix`, `-C`, `--dir`, `--cwd` move where they are looked for.
 * - `npm ci` is destructive: it deletes node_modules and runs every dependency's install scripts.
 * - Anything that changes dependencies, the lockfile, the registry or the account is destructive.
 * - Executing a package (`npx`, `npm exec`, `pnpm dlx`, `yarn dlx`, `npm init <pkg>`) asks: it may
 *   download and run code nobody in the project chose.
 * - `pnpm <name>` / `yarn <name>` that is not a built-in command asks: it runs a script or any binary
 *   in node_modules/.bin, and we cannot tell which from here.
 */

const executes = always('ask', 'downloads or runs a package that is not part of the project');
const installs = always('destructive', 'changes installed dependencies');
const publishes = always('destructive', 'publishes to or changes the package registry');
const unknownSub = always('ask', 'runs a subcommand we do not know');

/** Aliases share one rule. */
function each(names: string[], rule: CommandRule): Record<string, CommandRule> {
  return Object.fromEntries(names.map((n) => [n, rule]));
}

/** `npm config get` reads; set/delete/edit change the user's npm configuration. */
const npmConfig = bySubcommand(
  { ...each(['get', 'list', 'ls'], readOnly) },
  always('destructive', 'changes npm configuration'),
);

const npmAudit: CommandRule = (inv, sink) => {
  if (inv.args.some((w) => w.text === 'fix')) sink.flag('destructive', 'changes installed dependencies');
};

// `npm init` alone writes package.json; `npm init <pkg>` runs create-<pkg>.
const npmInit: CommandRule = (inv, sink) => {
  if (inv.args.some((w) => !w.text.startsWith('-'))) executes(inv, sink);
  else sink.flag('destructive', 'creates package.json');
};

const NPM: Record<string, CommandRule> = {
  ...each(['test', 't', 'tst', 'run', 'run-script', 'rum', 'urn', 'start', 'stop', 'restart'], readOnly),
  ...each(['ls', 'list', 'la', 'll', 'view', 'v', 'info', 'show', 'outdated', 'explain', 'why', 'help', 'root', 'prefix', 'bin', 'search', 'get', 'fund', 'ping', 'doctor', 'query'], readOnly),
  ...each(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'add', 'uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'update', 'up', 'upgrade', 'udpate', 'link', 'ln', 'dedupe', 'ddp', 'prune', 'rebuild', 'rb', 'ci', 'clean-install', 'install-clean', 'ic', 'install-test', 'it', 'install-ci-test', 'cit'], installs),
  ...each(['publish', 'unpublish', 'deprecate', 'dist-tag', 'owner', 'access', 'team', 'token', 'star', 'unstar', 'org', 'hook', 'login', 'logout', 'adduser', 'profile'], publishes),
  ...each(['exec', 'x'], executes),
  init: npmInit,
  create: npmInit,
  config: npmConfig,
  c: npmConfig,
  audit: npmAudit,
  version: always('destructive', 'changes the package version (and may tag a commit)'),
  pkg: always('destructive', 'changes package.json'),
  cache: always('destructive', 'changes the npm cache'),
  pack: always('destructive', 'writes a package tarball'),
};

const PNPM: Record<string, CommandRule> = {
  ...each(['test', 't', 'run', 'start'], readOnly),
  ...each(['ls', 'list', 'll', 'la', 'why', 'outdated', 'view', 'info', 'root', 'bin', 'help', 'licenses'], readOnly),
  ...each(['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'link', 'ln', 'unlink', 'prune', 'rebuild', 'rb', 'import', 'fetch', 'dedupe', 'install-test', 'it', 'patch-commit'], installs),
  ...each(['publish'], publishes),
  ...each(['dlx', 'exec', 'create'], executes),
  audit: npmAudit,
  config: npmConfig,
  store: bySubcommand({ path: readOnly, status: readOnly }, always('destructive', 'changes the pnpm store')),
};

const YARN: Record<string, CommandRule> = {
  ...each(['test', 'run', 'start', 'list', 'info', 'why', 'outdated', 'help', 'bin', 'licenses'], readOnly),
  ...each(['install', 'add', 'remove', 'upgrade', 'up', 'upgrade-interactive', 'link', 'unlink', 'dedupe', 'import', 'autoclean', 'cache'], installs),
  ...each(['publish', 'npm', 'login', 'logout', 'owner', 'tag', 'team', 'version'], publishes),
  ...each(['dlx', 'exec', 'create', 'node'], executes),
  config: bySubcommand({ get: readOnly, list: readOnly }, always('destructive', 'changes yarn configuration'), readOnly),
  set: always('destructive', 'changes yarn configuration'),
  plugin: always('destructive', 'installs yarn plugins'),
  audit: npmAudit,
};

const PIP: Record<string, CommandRule> = {
  ...each(['list', 'show', 'freeze', 'check', 'help', 'search', 'inspect', 'debug', 'index', 'hash'], readOnly),
  ...each(['install', 'uninstall', 'download', 'wheel'], installs),
  config: bySubcommand({ get: readOnly, list: readOnly, debug: readOnly }, always('destructive', 'changes pip configuration')),
  cache: bySubcommand({ dir: readOnly, info: readOnly, list: readOnly }, always('destructive', 'changes the pip cache')),
};

/** What a manager reads before it runs a script: package.json and its configuration files, from its folder up. */
interface Manager {
  table: Record<string, CommandRule>;
  fallback: CommandRule;
  none: CommandRule;
  options: ArgSpec;
  directory: string[]; // options that move where it works (npm --prefix, pnpm -C, yarn --cwd)
  everyPackage: string[]; // options that run every workspace package's scripts
  configs: string[]; // looked for in its folder and every folder above
  files?: string[]; // in its folder only (yarn's own release and plugins, which .yarnrc.yml points at)
  scripts: Set<string>; // subcommands that run package.json scripts
}

// Options that run a shell or node of the caller's choosing, or read configuration from another file.
const RUNS_CODE = ['script-shell', 'node-options', 'userconfig', 'globalconfig', 'shell-emulator', 'rc-filename', 'use-yarnrc', 'yarn-path'];

function manager(m: Manager): CommandRule {
  const dispatch = bySubcommand(m.table, m.fallback, m.none);
  return (inv, sink) => {
    // Options may come before or after the subcommand; after `--` everything belongs to the script.
    const end = inv.args.findIndex((w) => !w.dynamic && w.text === '--');
    const own = (end < 0 ? inv.args : inv.args.slice(0, end)).map((w) => (!w.dynamic && w.text === '-ws' ? word('--workspaces') : w));
    const parsed = parseArgs(own, m.options);
    if (parsed.options.some((o) => ['v', 'version', 'h', 'help', 'V'].includes(o.name)) && parsed.operands.length === 0) return;
    if (mayHaveOption(parsed, ...RUNS_CODE)) sink.flag('ask', 'runs scripts with a shell, node options or configuration of its choosing');
    let at: RuleSink = sink;
    for (const dir of optionValues(parsed, ...m.directory)) at = at.within(dir);
    const [sub] = parsed.operands;
    if (sub && !sub.dynamic && m.scripts.has(sub.text)) {
      m.configs.forEach((name) => at.executes(word(name), true));
      m.files?.forEach((path) => at.executes(word(path)));
      if (parsed.options.some((o) => m.everyPackage.includes(o.name))) at.executes(word('**/package.json'));
    }
    dispatch({ ...inv, args: parsed.operands.concat(end < 0 ? [] : inv.args.slice(end)) }, at);
  };
}

const NPM_OPTIONS: ArgSpec = {
  valued: ['prefix', 'C', 'w', 'workspace', 'registry', 'loglevel', 'userconfig', 'globalconfig', 'script-shell', 'node-options', 'tag', 'otp', 'cache', 'include', 'omit', 'save-prefix'],
  flags: ['workspaces', 'include-workspace-root', 'global', 'g', 'ignore-scripts', 'if-present', 'silent', 'save', 'save-dev', 'save-exact', 'force', 'dry-run', 'json', 'yes', 'foreground-scripts', 'version', 'help'],
};
const PNPM_OPTIONS: ArgSpec = {
  valued: ['C', 'dir', 'filter', 'F', 'w', 'workspace-root', 'registry', 'loglevel', 'reporter', 'shell-emulator', 'config', 'store-dir', 'virtual-store-dir'],
  flags: ['recursive', 'r', 'workspace-root', 'if-present', 'parallel', 'silent', 'ignore-scripts', 'version', 'help'],
};
const YARN_OPTIONS: ArgSpec = {
  valued: ['cwd', 'registry', 'use-yarnrc', 'yarn-path', 'modules-folder', 'cache-folder', 'mutex', 'network-timeout'],
  flags: ['silent', 'verbose', 'offline', 'frozen-lockfile', 'ignore-scripts', 'version', 'help'],
};

const SCRIPT_RUNNERS = new Set(['test', 't', 'tst', 'run', 'run-script', 'rum', 'urn', 'start', 'stop', 'restart', 'exec', 'x']);

export const PACKAGE_RULES: Record<string, CommandRule> = {
  npm: manager({ table: NPM, fallback: unknownSub, none: readOnly, options: NPM_OPTIONS, directory: ['prefix', 'C'], everyPackage: ['w', 'workspace', 'workspaces'], configs: ['package.json', '.npmrc'], scripts: SCRIPT_RUNNERS }),
  pnpm: manager({ table: PNPM, fallback: unknownSub, none: readOnly, options: PNPM_OPTIONS, directory: ['C', 'dir'], everyPackage: ['r', 'recursive', 'filter', 'F'], configs: ['package.json', '.npmrc', '.pnpmfile.cjs', 'pnpm-workspace.yaml'], scripts: SCRIPT_RUNNERS }),
  // bare `yarn` installs
  yarn: manager({ table: YARN, fallback: unknownSub, none: installs, options: YARN_OPTIONS, directory: ['cwd'], everyPackage: [], configs: ['package.json', '.yarnrc', '.yarnrc.yml', '.pnp.cjs', '.pnp.loader.mjs'], files: ['.yarn/releases/**', '.yarn/plugins/**'], scripts: SCRIPT_RUNNERS }),
  pip: manager({ table: PIP, fallback: unknownSub, none: readOnly, options: {}, directory: [], everyPackage: [], configs: [], scripts: new Set() }),
  pip3: manager({ table: PIP, fallback: unknownSub, none: readOnly, options: {}, directory: [], everyPackage: [], configs: [], scripts: new Set() }),
  npx: executes,
  pnpx: executes,
  bunx: executes,
};
