// A real VS Code for tests on a machine without internet: code-server (VS Code 1.139 server + web
// workbench) started on a free local port, and a headless Chromium window on it, because the
// extension host only starts once a window connects. Recipe: shared/VSCODE_RUNTIME.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../support/freePort';
import { readProvisioned } from './provisioned';

export interface CodeServerOptions {
  /** Folder opened as the workspace. */
  workspace: string;
  /** Where extensions are installed (see installExtension); a fresh temp dir, removed on stop, when omitted. */
  extensionsDir?: string;
  /** Settings, state and logs; a fresh temp dir, removed on stop, when omitted. */
  userDataDir?: string;
  /** Extra env for the server; it reaches the extension host (that is how the test harness is told what to run). */
  env?: Record<string, string>;
  /** User settings, over the quiet defaults in TEST_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Keep workspace trust on (for tests about trust); by default it is disabled so nothing waits on a trust prompt. */
  trust?: boolean;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  /** The server's stdout and stderr so far (the last 256 KiB), for failure reports. */
  log(): string;
  /** False once the server process has exited (crashed, or stopped). */
  running(): boolean;
  /** Ends the server and everything it started (helpers, file watchers, extension hosts). */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 90_000;
const LOG_LIMIT = 256 * 1024;

/**
 * User settings every test server starts with. Telemetry off is not cosmetic: built-in extensions
 * (git, typescript, github...) otherwise send telemetry, and without internet each attempt ends in an
 * uncaught `getaddrinfo ENOTFOUND` in the extension host, which mocha blames on whichever test runs.
 */
export const TEST_SETTINGS: Readonly<Record<string, unknown>> = {
  'telemetry.telemetryLevel': 'off',
  'telemetry.feedback.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  // Intent Governor opens its walkthrough on a first run unless this is off; tests that want it turn it on.
  'intentGovernor.openWalkthroughOnFirstRun': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  // Tests about unsaved editor edits need them to stay unsaved; an auto-save under load would race them.
  'files.autoSave': 'off',
  'files.hotExit': 'off',
};

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  // A port picked free can be taken before code-server binds it; a second pick is cheap.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnFreePort(options: CodeServerOptions): Promise<CodeServer> {
  const provisioned = readProvisioned();
  const port = await freePort();
  const ownDirs: string[] = [];
  const dirOrTemp = (dir: string | undefined, prefix: string) => {
    if (dir) {
      mkdirSync(dir, { recursive: true });
      return dir;
    }
    const made = mkdtempSync(join(tmpdir(), prefix));
    ownDirs.push(made);
    return made;
  };
  const userDataDir = dirOrTemp(options.userDataDir, 'ig-vscode-user-');
  const extensionsDir = dirOrTemp(options.extensionsDir, 'ig-vscode-ext-');
  writeUserSettings(userDataDir, options.settings);
  const args = [
    provisioned.paths.codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--config', provisioned.paths.config,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(options.trust ? [] : ['--disable-workspace-trust']),
    options.workspace,
  ];
  // detached: its own process group, so stop() can end the helpers and watchers it spawns too.
  const child = spawn(provisioned.paths.node, args, {
    detached: true,
    env: { ...hostEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(child);
    for (const dir of ownDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  return { url, port, pid: child.pid ?? -1, log: () => log, running, stop };
}

/** Writes User/settings.json: TEST_SETTINGS, then what is already there, then the caller's settings. */
function writeUserSettings(userDataDir: string, settings: Record<string, unknown> = {}): void {
  const file = join(userDataDir, 'User', 'settings.json');
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // None yet (or not plain JSON): start from the defaults.
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...TEST_SETTINGS, ...existing, ...settings }, null, 2)}\n`);
}

/**
 * The caller's env minus what would change how code-server or its extension host behave: a
 * surrounding VS Code's VSCODE_* (VSCODE_IPC_HOOK_CLI makes code-server hand the folder to that
 * instance) and NODE_OPTIONS (tsx's loader has no business inside the extension host).
 */
function hostEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'NODE_OPTIONS' || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return env;
}

/** Polls /healthz until the server answers; fails fast with the server's log if it exits first. */
async function waitUntilAnswering(url: string, child: ChildProcess, log: () => string): Promise<void> {
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `code-server exited (${code ?? signal}) before answering`));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${exited}:\n${log()}`);
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(250);
  }
  throw new Error(`code-server did not answer on ${url} within ${READY_TIMEOUT_MS / 1000} s:\n${log()}`);
}

/** SIGTERM to the whole group, then SIGKILL to whatever is left (watchers ignore SIGTERM at times). */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null;
  const exit = exited ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, 'SIGTERM');
  await Promise.race([exit, delay(5_000)]);
  signalGroup(pid, 'SIGKILL');
  await Promise.race([exit, delay(2_000)]);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Installs an unpacked extension (a folder with package.json and its built files) the way VS Code
 * lays out installed ones, `<publisher>.<name>-<version>`, as a symlink so tests run the current build.
 * Returns the extension id (`publisher.name`).
 */
export function installExtension(extensionsDir: string, folder: string, mode: 'symlink' | 'copy' = 'symlink'): string {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(extensionsDir, { recursive: true });
  rmSync(target, { recursive: true, force: true });
  if (mode === 'copy') cpSync(folder, target, { recursive: true });
  else symlinkSync(folder, target, 'dir');
  return `${manifest.publisher}.${manifest.name}`;
}

export interface Workbench {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Opens the web workbench on `folder` in headless Chromium and waits until it has rendered. `beforeLoad` runs on
 * the page before the workbench loads (it may visit a same-origin page to seed the browser's storage).
 */
export async function openWorkbench(url: string, folder: string, timeoutMs = 90_000, beforeLoad?: (page: Page) => Promise<void>): Promise<Workbench> {
  const browser = await chromium.launch({
    executablePath: readProvisioned().paths.chromium,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const close = async () => {
    await browser.close().catch(() => undefined);
  };
  try {
    const page = await browser.newPage();
    await beforeLoad?.(page);
    await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { timeout: timeoutMs });
    await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
    return { browser, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
