import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { keyIdOf, parsePublicKey } from '../../src/core/signing/signingKey';
import { descendants, running } from '../support/processTree';
import { CHROMIUM_ARGS } from '../vscode/codeServer';
import { provision, readProvisioned, repoRoot } from '../vscode/provisioned';
import { runPaletteCommand } from '../vscode/workbenchActions';
import { answerModal, errorOf, pickIntentInPalette, publishShot, text, waitFor } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'e2e');
const LOGIN = 'src/auth/login.ts';

/** The Intent Governor log files of every window (extension host) code-server started. */
function governorLogs(userData: string): string[] {
  const logs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/Intent Governor.*\.log$/.test(entry.name)) logs.push(readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  try {
    walk(join(userData, 'logs'));
  } catch {
    // No logs yet.
  }
  return logs;
}

/** A tab of the user's browser: one context, so the tabs share storage as a real browser's do. */
async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url, { timeout: 120_000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
  return page;
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'first-contact-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe('e2e: first contact, as a new user tries it (npm start, the printed URLs, Ctrl-C)', function () {
  let temp: string;
  let home: string;
  let demo: string;
  let start: ChildProcess | undefined;
  let output = '';
  let browser: Browser | undefined;
  let context: BrowserContext;
  let client: Client | undefined;

  const printed = (pattern: RegExp, what: string, timeoutMs: number) => waitFor(what, () => pattern.exec(output) ?? undefined, timeoutMs, 200);
  const serverFiles = () => readdirSync(join(home, 'servers')).filter((name) => name.endsWith('.json'));

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    provision();
    temp = mkdtempSync(join(tmpdir(), 'ig-first-contact-'));
    home = join(temp, 'governor-home');
    demo = join(temp, 'demo');
    // As in a terminal: `npm start` is a job of its own (its own process group), and Ctrl-C signals that group.
    start = spawn('npm', ['start'], {
      cwd: repoRoot,
      detached: true,
      env: { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_DEMO_DIR: demo, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    start.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  });

  after(async function () {
    this.timeout(120_000);
    await client?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    if (start?.pid !== undefined && running(start.pid)) {
      try {
        process.kill(-start.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(temp, { recursive: true, force: true });
  });

  let url: string;
  let page: Page;
  let mcpUrl: string;
  let token: string;
  let second: Page;

  it('npm start prints the URL to open and says it opened no window itself', async function () {
    this.timeout(600_000);
    url = (await printed(/open:\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/, 'the workbench URL', 540_000))[1];
    assert.match(output, /No browser window was opened/);
    // Nobody has opened the URL yet, so no window runs the extension: no MCP server is announced.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.doesNotMatch(output, /MCP server:/);
  });

  it('once the user opens it, npm start prints the MCP URL and where the token is', async function () {
    this.timeout(300_000);
    browser = await chromium.launch({ executablePath: readProvisioned().paths.chromium, args: CHROMIUM_ARGS, headless: true });
    context = await browser.newContext();
    page = await openTab(context, url);
    const [, announced, file] = await printed(/MCP server: (http:\/\/127\.0\.0\.1:\d+\/mcp) \(bearer token in (\S+), mode 0600\)/, 'the MCP URL', 180_000);
    mcpUrl = announced;
    token = (JSON.parse(readFileSync(file, 'utf8')) as { token: string }).token;
    client = await connect(mcpUrl, token);
    // Opening the folder wrote no key into it (the extension's key store has long answered by now): the first change will.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const signers = join(demo, 'workspace', '.orchestration', 'signers');
    assert.deepEqual(existsSync(signers) ? readdirSync(signers).filter((name) => name.endsWith('.pub')) : [], [], 'a key was published before any change');
  });

  /** Selects the intent, reads login.ts, writes it, and the human in `tab` clicks Approve; the write lands. */
  const approvedWrite = async (tab: Page, minimum: number, screenshot?: string) => {
    assert.match(text(await client!.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /auth-refactor|login/);
    const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
    assert.ok(hash, text(read));
    const content = `export function login(user: string, password: string): boolean {\n  return user.length > 0 && password.length >= ${minimum};\n}\n`;
    const pending = client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content, expected_content_hash: hash } });
    const shown = await answerModal(tab, 'Approve', screenshot && join(shots, screenshot));
    if (screenshot) publishShot(join(shots, screenshot));
    assert.match(shown, /login\.ts|write_file/);
    const result = await pending;
    assert.equal(errorOf(result), undefined, text(result));
    assert.equal(readFileSync(join(demo, 'workspace', LOGIN), 'utf8'), content);
  };

  it("a write in scope shows the approval modal in the user's tab; Approve lands it", async function () {
    this.timeout(180_000);
    await approvedWrite(page, 12, 'first-contact-modal.png');
  });

  it('that record is signed by the key its change made, the person was told where it is, and verify and the inspector name it', async function () {
    this.timeout(180_000);
    const workspace = join(demo, 'workspace');
    // The key's public half, published by the first change: the one file in the signers folder.
    const pubs = readdirSync(join(workspace, '.orchestration', 'signers')).filter((name) => name.endsWith('.pub'));
    assert.equal(pubs.length, 1, pubs.join(', '));
    const signer = pubs[0].slice(0, -'.pub'.length);
    const publicKey = parsePublicKey(readFileSync(join(workspace, '.orchestration', 'signers', pubs[0]), 'utf8'));
    assert.ok(typeof publicKey !== 'string', publicKey as string);
    const keyId = keyIdOf(publicKey);
    // The person's key on this machine, the one the governor CLI signs with too (not one per VS Code profile).
    const keyFile = join(home, 'keys', 'signer.json');
    assert.equal((JSON.parse(readFileSync(keyFile, 'utf8')) as { key_id: string }).key_id, keyId);
    assert.ok(governorLogs(join(demo, 'user-data')).some((log) => log.includes(`signing trace records with a new key, ${signer} (${keyId}), kept in ${keyFile}`)));

    // On disk: the approved write's record carries the signature and names its key.
    const lines = readFileSync(join(workspace, '.orchestration', 'agent_trace.jsonl'), 'utf8').trim().split('\n');
    const record = JSON.parse(lines.at(-1)!) as { files: { path: string }[]; metadata: { approver?: string; signature?: { key_id: string; sig: string }; signing?: { key_id: string } } };
    assert.deepEqual(record.files.map((file) => file.path), [LOGIN]);
    assert.ok(record.metadata.approver, 'the record names who approved it');
    assert.equal(record.metadata.signature?.key_id, keyId);
    assert.match(record.metadata.signature?.sig ?? '', /^[A-Za-z0-9+/]{86}==$/);
    assert.equal(record.metadata.signing?.key_id, keyId);

    // The CLI, as anyone with the checkout runs it: the chain verifies and every record is signed by that signer.
    const verify = execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'trace', 'verify', '--workspace', workspace], {
      encoding: 'utf8',
      env: { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') },
    });
    assert.ok(verify.includes(`signers: ${signer} (trusted)`), verify);
    assert.match(verify, /agent_trace\.jsonl: verified/, verify);
    assert.ok(verify.includes(`${lines.length === 1 ? 'line 1' : `lines 1-${lines.length}`}: signed by ${signer} (${keyId})`), verify);
    assert.doesNotMatch(verify, /unsigned|unknown|revoked|bad signature/i, verify);

    // The person was told once that records are signed, where the key is, and which file to commit.
    await runPaletteCommand(page, 'Notifications: Show Notifications');
    const notice = page.locator('.notifications-center .notification-list-item', { hasText: 'signs every trace record' });
    await notice.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await notice.count(), 1, 'told once');
    const told = await notice.first().innerText();
    assert.ok(told.includes(`${signer}, kept in ${keyFile} (for every VS Code profile and the governor CLI on this machine)`), told);
    assert.ok(told.includes(`Commit .orchestration/signers/${signer}.pub`), told);
    await runPaletteCommand(page, 'Notifications: Hide Notifications');

    // The Trace Inspector's detail pane for that record says it is signed, and by which key.
    await runPaletteCommand(page, 'Intent Governor: Open Trace Inspector');
    // The first-run walkthrough may keep a webview of its own: the inspector's is the one in front.
    const frame = page.frameLocator('iframe.webview:visible').frameLocator('iframe#active-frame');
    const row = frame.locator('.row', { hasText: 'first-contact-agent' });
    await row.first().waitFor({ state: 'visible', timeout: 60_000 });
    await row.first().click();
    const detail = frame.locator('.detail');
    await detail.waitFor({ state: 'visible', timeout: 30_000 });
    const said = detail.locator('dt', { hasText: /^Signer$/ }).locator('xpath=following-sibling::dd[1]');
    await said.scrollIntoViewIfNeeded();
    assert.equal((await said.innerText()).trim(), `signed by ${signer} (${keyId})`, await detail.innerText());
    await page.screenshot({ path: join(shots, 'first-contact-signed-record.png') });
  });

  it('a second tab on the same folder attaches: still one discovery file, the same URL', async function () {
    this.timeout(300_000);
    second = await openTab(context, url);
    // The second window's extension host is up once its log says it attached to the serving window.
    await waitFor('the second window attached', () => (governorLogs(join(demo, 'user-data')).some((log) => /attached to the window serving/.test(log)) ? true : undefined), 180_000, 500);
    assert.equal(serverFiles().length, 1, serverFiles().join(', '));
    const entry = JSON.parse(readFileSync(join(home, 'servers', serverFiles()[0]), 'utf8')) as { url: string };
    assert.equal(entry.url, mcpUrl);
    assert.equal((output.match(/MCP server: /g) ?? []).length, 1, output);
  });

  it('the second tab shows the agent the serving tab holds: its status bar counts it, under its intent', async function () {
    this.timeout(120_000);
    await second.locator('.statusbar-item', { hasText: /1 agent on auth-refactor/ }).first().waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('an intent picked in the second tab is the workspace’s: the serving tab, which judges the agents, shows it too', async function () {
    this.timeout(120_000);
    await pickIntentInPalette(second, 'auth-refactor');
    // Before, the serving tab said `no intent · 1 agent on auth-refactor` (the agent's own selection only).
    await page.locator('.statusbar-item', { hasText: 'auth-refactor · 1 agent' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('the modal shows in the tab the human works in (the one focused last), not in the serving one', async function () {
    this.timeout(180_000);
    await second.bringToFront();
    await second.locator('.monaco-workbench').click({ position: { x: 400, y: 300 } });
    await approvedWrite(second, 14);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
    // The serving tab says where the question went instead.
    await page.locator('.notification-toast', { hasText: 'waiting for approval in another VS Code window' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('when the serving tab closes, the other one serves the same URL and token, and its human answers', async function () {
    this.timeout(300_000);
    const before = JSON.parse(readFileSync(join(home, 'servers', serverFiles()[0]), 'utf8')) as { pid: number; url: string; token: string };
    await page.close({ runBeforeUnload: true });
    const after = await waitFor('another window to serve', () => {
      const name = serverFiles()[0];
      if (!name) return undefined;
      const entry = JSON.parse(readFileSync(join(home, 'servers', name), 'utf8')) as { pid: number; url: string; token: string };
      return entry.pid !== before.pid && running(entry.pid) ? entry : undefined;
    }, 180_000, 500);
    assert.deepEqual([after.url, after.token], [before.url, before.token]);
    assert.equal(serverFiles().length, 1);
    // The agent's old MCP session ended with its server; it reconnects with what it already has.
    await client?.close().catch(() => undefined);
    client = await connect(mcpUrl, token);
    await approvedWrite(second, 16);
  });

  it('a reload of the only tab serves the same URL and token again', async function () {
    this.timeout(300_000);
    const before = JSON.parse(readFileSync(join(home, 'servers', serverFiles()[0]), 'utf8')) as { pid: number; url: string; token: string };
    await second.reload();
    await second.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    const after = await waitFor('the reloaded window to serve', () => {
      const name = serverFiles()[0];
      if (!name) return undefined;
      const entry = JSON.parse(readFileSync(join(home, 'servers', name), 'utf8')) as { pid: number; url: string; token: string };
      return entry.pid !== before.pid && running(entry.pid) ? entry : undefined;
    }, 180_000, 500);
    assert.deepEqual([after.url, after.token], [before.url, before.token]);
    await client?.close().catch(() => undefined);
    client = await connect(mcpUrl, token);
    await approvedWrite(second, 18);
  });

  it('Ctrl-C ends every process npm start began and leaves no discovery file', async function () {
    this.timeout(120_000);
    const pid = start!.pid!;
    const started = descendants(pid);
    assert.ok(started.length > 3, `npm start, code-server and its extension hosts: ${started.join(' ')}`);
    const exited = new Promise<void>((resolve) => start!.once('exit', () => resolve()));
    process.kill(-pid, 'SIGINT');
    await exited;
    assert.match(output, /stopped; no discovery file is left/);
    await waitFor('every process to end', () => (started.every((p) => !running(p)) ? true : undefined), 20_000, 250).catch(() => undefined);
    assert.deepEqual(started.filter(running), [], `still running: ${started.filter(running).map((p) => `${p} ${readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 120)}`).join('\n')}`);
    assert.deepEqual(serverFiles(), []);
    start = undefined;
  });
});
