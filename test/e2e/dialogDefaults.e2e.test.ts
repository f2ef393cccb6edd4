import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { repoRoot } from '../vscode/provisioned';
import { connectMcpClient, errorOf, launchGovernedVsCode, text, type GovernedVsCode } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'e2e');
const PICKER_ROW = '.quick-input-widget .quick-input-list .monaco-list-row';

/** The approval modal once it shows: its text and the button that has the keyboard focus (what Enter presses). */
async function modalOnScreen(page: Page): Promise<{ shown: string; focused: string }> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const button = dialog.locator('.monaco-button:focus');
  await button.waitFor({ state: 'visible', timeout: 10_000 });
  const focused = (await button.innerText()).trim();
  return { shown: await dialog.innerText(), focused };
}

async function pressOnModal(page: Page, key: 'Enter' | 'Escape'): Promise<void> {
  await page.keyboard.press(key);
  await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** The newest governance record about `tool`. */
function lastGovernance(workspace: string, tool: string): Record<string, unknown> | undefined {
  const file = join(workspace, '.orchestration', 'governance_log.jsonl');
  if (!existsSync(file)) return undefined;
  const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  return records.filter((record) => record.tool_name === tool).at(-1);
}

/**
 * What a person's keyboard does to the approval dialog in a real VS Code, and the palette the moment the window
 * opens: Enter or Escape on a delete or a destructive command never approves it, a write still has Approve first,
 * and Select Active Intent from the Command Palette shows its picker even before the extension finished starting.
 */
describe('e2e: the keyboard on approval dialogs, and the palette right after the window opens', function () {
  let vscode: GovernedVsCode | undefined;
  let client: Client | undefined;
  let page: Page;
  let workspace: string;
  let pickerRightAfterOpen: string | undefined;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({
      prefix: 'ig-e2e-dialog-keys-',
      settings: { 'intentGovernor.approval': 'every-change' },
      // As a person does once the window shows: F1, the title, Enter; once, no retry.
      afterOpen: async (opened) => {
        await opened.keyboard.press('F1');
        const input = opened.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await input.pressSequentially('>Intent Governor: Select Active Intent', { delay: 20 });
        await opened.locator(PICKER_ROW, { hasText: 'Intent Governor: Select Active Intent' }).first().waitFor({ state: 'visible', timeout: 30_000 });
        await opened.keyboard.press('Enter');
        const row = opened.locator(PICKER_ROW, { hasText: 'auth-refactor' }).first();
        pickerRightAfterOpen = await row.waitFor({ state: 'visible', timeout: 30_000 }).then(
          async () => (await opened.locator('.quick-input-widget').innerText()).replace(/\s+/g, ' '),
          async () => {
            await opened.screenshot({ path: join(shots, 'palette-right-after-open.png') });
            return undefined;
          },
        );
        await opened.keyboard.press('Escape');
      },
    });
    ({ workspace } = vscode);
    page = vscode.workbench.page;
    client = await connectMcpClient(vscode.discovered, 'dialog-keys-agent');
    assert.match(text(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /auth-refactor/);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: join(shots, 'dialog-keys-failed.png') }).catch(() => undefined);
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close().catch(() => undefined);
    await vscode?.stop();
  });

  it('Select Active Intent from the Command Palette, run as soon as the window opened, shows the intent picker', () => {
    assert.ok(pickerRightAfterOpen, 'no intent picker came up (screenshot: test-results/e2e/palette-right-after-open.png)');
    assert.match(pickerRightAfterOpen, /Select Active Intent/);
  });

  it('Enter on the dialog for `rm -rf src/auth` rejects it: Reject is the focused button, nothing is deleted, the log says rejected', async () => {
    const pending = client!.callTool({ name: 'run_command', arguments: { command: 'rm -rf src/auth' } });
    const { shown, focused } = await modalOnScreen(page);
    assert.match(shown, /rm -rf src\/auth/);
    assert.equal(focused, 'Reject');
    await pressOnModal(page, 'Enter');
    assert.equal(errorOf(await pending)?.code, 'HITL_REJECT', text(await pending));
    assert.ok(existsSync(join(workspace, 'src/auth/login.ts')), 'src/auth was deleted');
    assert.equal(lastGovernance(workspace, 'run_command')?.decision, 'reject');
  });

  it('Escape on the dialog for a delete rejects it: the file stays, the log says rejected', async () => {
    await client!.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    const pending = client!.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
    const { shown, focused } = await modalOnScreen(page);
    assert.match(shown, /delete src\/auth\/login\.ts/);
    assert.equal(focused, 'Reject');
    await pressOnModal(page, 'Escape');
    assert.equal(errorOf(await pending)?.code, 'HITL_REJECT', text(await pending));
    assert.ok(existsSync(join(workspace, 'src/auth/login.ts')), 'src/auth/login.ts was deleted');
    assert.equal(lastGovernance(workspace, 'delete_file')?.decision, 'reject');
  });

  it('a write keeps Approve first: it is the focused button, and Enter approves the change', async () => {
    const pending = client!.callTool({ name: 'write_file', arguments: { path: 'src/auth/keys.ts', content: 'export const KEYS = 1;\n' } });
    const { shown, focused } = await modalOnScreen(page);
    assert.match(shown, /src\/auth\/keys\.ts/);
    assert.equal(focused, 'Approve');
    await pressOnModal(page, 'Enter');
    assert.equal(errorOf(await pending), undefined, text(await pending));
    assert.equal(readFileSync(join(workspace, 'src/auth/keys.ts'), 'utf8'), 'export const KEYS = 1;\n');
  });
});
