// Provisions the real agent binaries the agent suite drives (test/agents), from the npm registry only,
// cached under .vscode-test/agents/. Idempotent: a matching .vscode-test/agents/ready.json stamp makes a rerun
// a no-op; a lock keeps two cold runs from installing into the same folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged } from './loggedRun.mjs';
import { acquireProvisionLock } from './provisionLock.mjs';

const CLAUDE_CODE_VERSION = '2.1.330';
/** The native binary ships in a per-platform optional dependency; its `claude` is what bin/claude.exe becomes. */
const CLAUDE_PLATFORM_PACKAGE = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.vscode-test', 'agents');
const claudeDir = join(cacheDir, 'claude-code');
const stampPath = join(cacheDir, 'ready.json');
const lockPath = join(cacheDir, 'provision.lock');
const LOCK_WAIT_MS = 10 * 60_000;
const logPath = join(cacheDir, 'provision.log');

const paths = {
  claude: join(claudeDir, 'node_modules', ...CLAUDE_PLATFORM_PACKAGE.split('/'), 'claude'),
};

function step(message) {
  console.log(`provision-agents: ${message}`);
}

/** Runs a command with its output appended to this script's log. */
function run(command, args, options = {}) {
  runLogged(logPath, command, args, options);
}

function versionOf(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', env: { ...process.env, DISABLE_AUTOUPDATER: '1' } }).trim();
  } catch {
    return undefined;
  }
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return undefined;
  }
}

function stampIsCurrent(stamp) {
  return stamp?.claudeCode === CLAUDE_CODE_VERSION && existsSync(stamp.paths?.claude ?? '');
}

function installClaudeCode() {
  const staging = `${claudeDir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), '{ "private": true }\n');
  // Scripts off: npm 11 may skip them anyway, and the binary is taken straight from the platform package.
  step(`npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} (${CLAUDE_PLATFORM_PACKAGE})`);
  run(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`, `${CLAUDE_PLATFORM_PACKAGE}@${CLAUDE_CODE_VERSION}`],
    { cwd: staging },
  );
  // Rename last so an interrupted run never leaves a half-installed folder that looks ready.
  rmSync(claudeDir, { recursive: true, force: true });
  renameSync(staging, claudeDir);
  const version = versionOf(paths.claude);
  if (!version?.startsWith(`${CLAUDE_CODE_VERSION} `)) {
    throw new Error(`${paths.claude} --version printed ${version ?? 'nothing'}, expected ${CLAUDE_CODE_VERSION} (Claude Code)`);
  }
  step(`claude --version: ${version}`);
}

function main() {
  mkdirSync(cacheDir, { recursive: true });
  const current = readStamp();
  if (stampIsCurrent(current)) {
    step(`ready (claude-code ${current.claudeCode}) from .vscode-test/agents/ready.json`);
    return;
  }
  const release = acquireProvisionLock(lockPath, LOCK_WAIT_MS, () => step('another provisioning run is in progress; waiting for it'));
  try {
    const stamp = readStamp();
    if (stampIsCurrent(stamp)) {
      step(`ready (claude-code ${stamp.claudeCode}) from .vscode-test/agents/ready.json`);
      return;
    }
    rmSync(stampPath, { force: true });
    writeFileSync(logPath, '');
    installClaudeCode();
    writeFileSync(stampPath, `${JSON.stringify({ claudeCode: CLAUDE_CODE_VERSION, paths, provisionedAt: new Date().toISOString() }, null, 2)}\n`);
    step('wrote .vscode-test/agents/ready.json');
  } finally {
    release();
  }
}

try {
  main();
} catch (error) {
  console.error(`provision-agents: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
