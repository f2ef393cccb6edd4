// Provisions the real agent binaries the agent suite drives (test/agents), from the npm registry only, cached
// under .vscode-test/agents/<name>/. One recipe per agent in scripts/agents/<name>.mjs (name, pinned version,
// npm packages, binary, expected --version). Usage: node scripts/provision-agents.mjs [name ...] (default: all).
// Idempotent: .vscode-test/agents/<name>/ready.json makes a rerun a no-op; a lock per agent keeps two cold runs
// from installing into the same folder. Prints the binary's path per agent on the last line as JSON.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runLogged } from './loggedRun.mjs';
import { acquireProvisionLock } from './provisionLock.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.vscode-test', 'agents');
const recipesDir = join(root, 'scripts', 'agents');
const LOCK_WAIT_MS = 10 * 60_000;

function step(message) {
  console.error(`provision-agents: ${message}`);
}

function versionOf(binary, env) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', env: { ...process.env, DISABLE_AUTOUPDATER: '1', ...env }, timeout: 60_000 }).trim();
  } catch {
    return undefined;
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

async function recipes(names) {
  const all = [];
  for (const file of readdirSync(recipesDir).filter((f) => f.endsWith('.mjs')).sort()) {
    all.push((await import(pathToFileURL(join(recipesDir, file)).href)).default);
  }
  if (names.length === 0) return all;
  const unknown = names.filter((n) => !all.some((r) => r.name === n));
  if (unknown.length) throw new Error(`no recipe for ${unknown.join(', ')} in scripts/agents/ (known: ${all.map((r) => r.name).join(', ')})`);
  return all.filter((r) => names.includes(r.name));
}

function provision(recipe) {
  const dir = join(cacheDir, recipe.name);
  const stampPath = join(dir, 'ready.json');
  const binary = join(dir, ...recipe.binary);
  const current = (stamp) => stamp?.version === recipe.version && existsSync(stamp.binary ?? '');
  if (current(readJson(stampPath))) return binary;
  const release = acquireProvisionLock(join(cacheDir, `${recipe.name}.lock`), LOCK_WAIT_MS, () => step(`${recipe.name}: another provisioning run is in progress; waiting for it`));
  try {
    if (current(readJson(stampPath))) return binary;
    const logPath = join(cacheDir, `${recipe.name}.log`);
    writeFileSync(logPath, '');
    const staging = `${dir}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'package.json'), '{ "private": true }\n');
    step(`${recipe.name}: npm install ${recipe.packages.join(' ')}`);
    // Scripts off: binaries are taken straight from their packages; a recipe that needs a postinstall says so.
    const scripts = recipe.runScripts ? [] : ['--ignore-scripts'];
    runLogged(logPath, 'npm', ['install', ...scripts, '--no-audit', '--no-fund', '--loglevel=error', ...recipe.packages], { cwd: staging });
    // Rename last so an interrupted run never leaves a half-installed folder that looks ready.
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    const version = versionOf(binary, recipe.versionEnv);
    if (!version?.startsWith(recipe.versionPrefix)) throw new Error(`${binary} --version printed ${version ?? 'nothing'}, expected ${recipe.versionPrefix.trim()}`);
    step(`${recipe.name} --version: ${version}`);
    writeFileSync(stampPath, `${JSON.stringify({ name: recipe.name, version: recipe.version, binary, provisionedAt: new Date().toISOString() }, null, 2)}\n`);
    return binary;
  } finally {
    release();
  }
}

try {
  mkdirSync(cacheDir, { recursive: true });
  const binaries = {};
  for (const recipe of await recipes(process.argv.slice(2))) binaries[recipe.name] = provision(recipe);
  console.log(JSON.stringify(binaries));
} catch (error) {
  console.error(`provision-agents: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
