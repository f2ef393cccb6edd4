// Makes the operating-system sandbox the governor confines commands with available to the tests: on Debian,
// the `bubblewrap` package through apt-get as root (as provision-vscode.mjs installs chromium); elsewhere it
// says what to install. Runs before the unit, agent and end-to-end suites (package.json pretest:*).
// Idempotent and fast once bwrap starts. On CI (CI=true) a sandbox that cannot start fails the run, because the
// sandbox tests must run there; on a developer's machine they skip with the reason this prints.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged } from './loggedRun.mjs';
import { acquireProvisionLock } from './provisionLock.mjs';

const APT_PACKAGES = ['bubblewrap'];
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.vscode-test');
// The same lock as provision-vscode.mjs: two apt-get runs at once fight over dpkg's lock.
const lockPath = join(cacheDir, 'provision.lock');
const logPath = join(cacheDir, 'provision-sandbox.log');
const LOCK_WAIT_MS = 15 * 60_000;
const onCi = process.env.CI === 'true' || process.env.CI === '1';

function step(message) {
  console.log(`provision-sandbox: ${message}`);
}

/** The same start the governor probes at run time (src/core/sandbox/sandboxDetection.ts): a namespace, / read-only. */
function bwrapStarts() {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--new-session', '--die-with-parent', '--', '/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error) return { ok: false, why: probe.error.code === 'ENOENT' ? 'missing' : probe.error.message };
  return probe.status === 0 ? { ok: true } : { ok: false, why: (probe.stderr || `exit ${probe.status}`).trim().split('\n')[0] };
}

function missingAptPackages() {
  return APT_PACKAGES.filter((name) => {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return result.status !== 0 || !result.stdout.includes('install ok installed');
  });
}

function installWithApt(missing) {
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  if (process.getuid?.() !== 0) return `run as root: apt-get update && apt-get ${install.join(' ')}`;
  mkdirSync(cacheDir, { recursive: true });
  const release = acquireProvisionLock(lockPath, LOCK_WAIT_MS, () => step('another provisioning run is in progress; waiting for it'));
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    step('apt-get update');
    runLogged(logPath, 'apt-get', ['update'], { env });
    step(`apt-get ${install.join(' ')}`);
    runLogged(logPath, 'apt-get', install, { env });
  } finally {
    release();
  }
  return undefined;
}

function linux() {
  const first = bwrapStarts();
  if (first.ok) return step('bubblewrap starts a sandbox here');
  if (first.why === 'missing') {
    const hasApt = existsSync('/usr/bin/apt-get');
    const missing = hasApt ? missingAptPackages() : APT_PACKAGES;
    const todo = !hasApt ? 'install bubblewrap with your distribution\'s package manager' : missing.length > 0 ? installWithApt(missing) : undefined;
    if (todo) return unavailable(`bubblewrap is not installed; ${todo}`);
  }
  const second = first.why === 'missing' ? bwrapStarts() : first;
  if (second.ok) return step('bubblewrap installed; it starts a sandbox here');
  unavailable(`bubblewrap cannot start a sandbox here (${second.why}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1) or the container forbids them`);
}

function unavailable(why) {
  if (onCi) {
    console.error(`provision-sandbox: FAILED: ${why}`);
    process.exit(1);
  }
  step(`no sandbox: ${why}; the sandbox tests will skip and say why`);
}

try {
  if (process.platform === 'linux') linux();
  else if (process.platform === 'darwin') {
    if (existsSync('/usr/bin/sandbox-exec')) step('sandbox-exec is present');
    else unavailable('/usr/bin/sandbox-exec is missing');
  } else unavailable(`no sandbox is known for ${process.platform}`);
} catch (error) {
  console.error(`provision-sandbox: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
