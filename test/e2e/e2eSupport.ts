import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { readDiscoveryFiles, type DiscoveredServer } from '../../src/core/mcp/discoveryFile';
import { installExtension, openWorkbench, startCodeServer, type CodeServer, type Workbench } from '../vscode/codeServer';
import { provision, repoRoot } from '../vscode/provisioned';
import { pickAfterPaletteCommand } from '../vscode/workbenchActions';

/**
 * Screenshots are saved under test-results/ (ignored by git); `npm run docs:images` (UPDATE_DOC_IMAGES=1) also
 * copies them into docs/images/ for the README, so an ordinary test run leaves the tree clean.
 */
export function publishShot(path: string): void {
  if (process.env.UPDATE_DOC_IMAGES !== '1') return;
  const docsImages = join(repoRoot, 'docs', 'images');
  mkdirSync(docsImages, { recursive: true });
  cpSync(path, join(docsImages, basename(path)));
}

/** A full-page screenshot named `name` under `dir`, published as publishShot says. */
export async function shoot(page: Page, dir: string, name: string): Promise<void> {
  const path = join(dir, name);
  await page.screenshot({ path });
  publishShot(path);
}

/** Polls `probe` every `intervalMs` until it returns a value, or fails naming what never came. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 90_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The text an MCP tool result shows the model. */
export function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The tool_error of a refused MCP call, or undefined when it succeeded. */
export function errorOf(result: unknown): { code: string; message: string; meta?: Record<string, unknown> } | undefined {
  const r = result as CallToolResult;
  return r.isError ? JSON.parse((r.content[0] as { text: string }).text) : undefined;
}

/**
 * The native approval modal as a human sees it: its text (and a screenshot), then a click on one of its buttons.
 * `meanwhile` runs while the modal is open, before the click (what else happens while a human reads it).
 */
export async function answerModal(page: Page, button: 'Approve' | 'Approve for this Session' | 'Reject', screenshotPath?: string, meanwhile?: () => Promise<void>): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const shown = await dialog.innerText();
  if (screenshotPath) await page.screenshot({ path: screenshotPath });
  await meanwhile?.();
  await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  return shown;
}

/** A real VS Code (code-server + headless Chromium) governing a temp copy of demo/workspace. */
export interface GovernedVsCode {
  temp: string;
  workspace: string;
  /** INTENT_GOVERNOR_HOME of the extension host: where its discovery file is written. */
  governorHome: string;
  server: CodeServer;
  workbench: Workbench;
  /** The extension's MCP server as its discovery file announces it. */
  discovered: DiscoveredServer;
  stop(): Promise<void>;
}

/**
 * Provisions, copies demo/workspace, installs the built extension, starts code-server, opens the workbench
 * and waits for the extension's discovery file. `prepare` may seed the workspace before the server starts.
 */
export async function launchGovernedVsCode(options: {
  prefix: string;
  settings?: Record<string, unknown>;
  prepare?: (workspace: string, temp: string) => Promise<void>;
  /** Runs in the browser before the workbench loads (seeding its storage). */
  beforeWorkbench?: (page: Page, serverUrl: string) => Promise<void>;
  /** More environment for code-server and its extension host (a benchmark's INTENT_GOVERNOR_HOOK_TIMINGS, say). */
  env?: Record<string, string>;
  /** Runs as soon as the workbench shows, before the extension has announced its server (what a person does first). */
  afterOpen?: (page: Page) => Promise<void>;
}): Promise<GovernedVsCode> {
  assert.ok(existsSync(join(repoRoot, 'dist', 'extension.js')), 'run `npm run build` first');
  provision();
  const temp = mkdtempSync(join(tmpdir(), options.prefix));
  const workspace = join(temp, 'workspace');
  cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
  await options.prepare?.(workspace, temp);
  const extensionsDir = join(temp, 'extensions');
  installExtension(extensionsDir, repoRoot);
  const governorHome = join(temp, 'governor-home');
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const stop = async () => {
    await workbench?.close();
    await server?.stop();
    rmSync(temp, { recursive: true, force: true });
  };
  try {
    server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir: join(temp, 'user-data'),
      env: { ...options.env, INTENT_GOVERNOR_HOME: governorHome, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
      settings: options.settings ?? {},
    });
    const { url } = server;
    const { beforeWorkbench } = options;
    workbench = await openWorkbench(url, workspace, undefined, beforeWorkbench && ((page) => beforeWorkbench(page, url)));
    await options.afterOpen?.(workbench.page);
    const discovered = await waitFor('the discovery file', async () => (await readDiscoveryFiles(join(governorHome, 'servers')))[0], 120_000);
    return { temp, workspace, governorHome, server, workbench, discovered, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A real MCP client connected to the extension's server with the token from its discovery file. */
export async function connectMcpClient(discovered: DiscoveredServer, name = 'e2e-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(discovered.url), { requestInit: { headers: { Authorization: `Bearer ${discovered.token}` } } }));
  return client;
}

/** A human picks an intent through the command palette, as a user would; resolves once the status bar shows it. */
export async function pickIntentInPalette(page: Page, intentId: string): Promise<Locator> {
  await pickAfterPaletteCommand(page, 'Intent Governor: Select Active Intent', intentId);
  const item = page.locator('.statusbar-item', { hasText: intentId });
  await item.waitFor({ state: 'visible', timeout: 30_000 });
  return item;
}
