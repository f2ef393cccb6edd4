import { always, bySubcommand, readOnly, type CommandRule } from './commandRule';

/**
 * Package managers. Choices:
 * - Running the project's own scripts (`npm test`, `npm run build`, `yarn test`) is safe: the scripts
 *   are project files, and changing them already goes through governed writes and review.
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

/** The package manager's own version/help flags come before any subcommand. */
function manager(table: Record<string, CommandRule>, fallback: CommandRule, none: CommandRule): CommandRule {
  const dispatch = bySubcommand(table, fallback, none);
  return (inv, sink) => {
    // Skip leading options (`npm --prefix x test`, `pnpm -r test`, `npm -w pkg run build`).
    let i = 0;
    while (i < inv.args.length && !inv.args[i].dynamic && inv.args[i].text.startsWith('-')) {
      if (['-v', '--version', '-h', '--help', '-V'].includes(inv.args[i].text)) return;
      i += VALUED_GLOBALS.has(inv.args[i].text) ? 2 : 1;
    }
    dispatch({ ...inv, args: inv.args.slice(i) }, sink);
  };
}

const VALUED_GLOBALS = new Set(['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--cwd', '--registry', '--loglevel', '--userconfig']);

export const PACKAGE_RULES: Record<string, CommandRule> = {
  npm: manager(NPM, unknownSub, readOnly),
  pnpm: manager(PNPM, unknownSub, readOnly),
  // bare `yarn` installs
  yarn: manager(YARN, unknownSub, installs),
  pip: manager(PIP, unknownSub, readOnly),
  pip3: manager(PIP, unknownSub, readOnly),
  npx: executes,
  pnpx: executes,
  bunx: executes,
};
