import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parseIntentsFile } from '../../src/core/intents/intentsFile';
import { FileAnchorStore } from '../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import { repoRoot } from '../vscode/provisioned';
import { openPalette, webviewFrame } from '../vscode/workbenchActions';
import { launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode, shoot } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'intents-view');
const INTENTS = '.orchestration/active_intents.yaml';

/** A change and a refusal under auth-refactor, as an earlier session would have left them. */
async function seedLogs(workspace: string, anchorDir: string): Promise<void> {
  const sink = new JsonlTraceSink({ workspaceRoot: workspace, toolVersion: '0.1.0', anchors: new FileAnchorStore(workspace, anchorDir), fsync: 'never' });
  const login = 'src/auth/login.ts';
  await sink.recordMutation({
    session_id: 'seed', tool: 'write_file', mutation_class: 'write', decision: 'allow', timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
    invocation_id: 'seed-1', agent: { name: 'claude-code' }, intent_id: 'auth-refactor', files: [{ path: login, after: readFileSync(join(workspace, login), 'utf8') }],
  });
  await sink.recordGovernance({
    timestamp: new Date(Date.now() - 4 * 60_000).toISOString(), invocation_id: 'seed-2', session_id: 'seed', agent: { name: 'claude-code' }, intent_id: 'auth-refactor',
    tool: 'write_file', decision: 'deny', code: 'SCOPE_VIOLATION', message: 'src/billing/invoice.ts is outside the owned scope of intent auth-refactor.', paths: ['src/billing/invoice.ts'],
  });
  await sink.close();
}

/** Runs a palette command by its title with the keyboard (Enter on the first match), which a re-rendering list cannot dodge. */
async function runCommand(page: Page, title: string): Promise<void> {
  const input = await openPalette(page, `>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await input.press('Enter');
}

/** Shows the Intent Governor side bar (its Activity Bar item toggles, so it is clicked only when hidden). */
async function showIntentsView(page: Page): Promise<void> {
  if (await page.locator('[id="workbench.view.extension.intentGovernor"]').isVisible()) return;
  await page.locator('.activitybar [aria-label^="Intent Governor"]').first().click();
}

/** One step of a multi-step input, by its `(n/6)` title: types `value` (or keeps the suggestion) and presses Enter. */
async function answerStep(page: Page, step: number, value?: string): Promise<string> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: `(${step}/6)` }).waitFor({ state: 'visible', timeout: 30_000 });
  const input = widget.locator('input');
  const suggested = await input.inputValue();
  if (value !== undefined) await input.fill(value);
  await input.press('Enter');
  return suggested;
}

describe('e2e: the Intent Governor side bar, New Intent… and the walkthrough in a real VS Code', function () {
  let vscode: GovernedVsCode | undefined;
  let page: Page;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({
      prefix: 'ig-e2e-intents-view-',
      // Test servers keep the walkthrough closed; a user's VS Code opens it on the first run (the default).
      settings: { 'intentGovernor.openWalkthroughOnFirstRun': true },
      prepare: (workspace, temp) => seedLogs(workspace, join(temp, 'anchors')),
    });
    page = vscode.workbench.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: join(shots, 'failed.png') }).catch(() => undefined);
  });

  after(async () => {
    await vscode?.stop();
  });

  it('opens the walkthrough on the first run, with its four steps', async () => {
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get started with Intent Governor').first().waitFor({ state: 'visible', timeout: 60_000 });
    for (const step of ['Write or generate the plan', 'Pick an intent', 'Connect an agent', 'Watch the trace']) {
      await walkthrough.getByText(step, { exact: true }).first().waitFor({ state: 'visible', timeout: 10_000 });
    }
    await shoot(page, shots, 'walkthrough.png');
  });

  it('shows the Intents view in its own Activity Bar container, with status, counts and the human\'s intent', async () => {
    await showIntentsView(page);
    const view = page.locator('[id="workbench.view.extension.intentGovernor"]');
    const auth = view.locator('.monaco-list-row', { hasText: 'Move sessions to the new token store' });
    await auth.waitFor({ state: 'visible', timeout: 60_000 });
    await waitFor('the seeded change and refusal to be counted', async () => ((await auth.innerText()).includes('1 change · 1 refusal') ? true : undefined), 60_000);
    assert.match(await auth.innerText(), /auth-refactor · IN_PROGRESS · 1 change · 1 refusal/);
    assert.match(await view.locator('.monaco-list-row', { hasText: 'Remove the legacy invoice path' }).innerText(), /billing-cleanup · PLANNED · 0 changes · 0 refusals/);
    await pickIntentInPalette(page, 'auth-refactor');
    await waitFor('the view to mark the human\'s intent', async () => ((await auth.innerText()).includes('IN_PROGRESS · yours') ? true : undefined), 30_000);
    await auth.click();
    await view.locator('.monaco-list-row', { hasText: 'src/auth/**' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await view.locator('.monaco-list-row', { hasText: 'last activity' }).innerText(), /last activity \d+ minutes ago\s*1 change · 1 refusal/);
    // For the screenshot: the editor area closed and the side bar wide enough for the descriptions.
    await runCommand(page, 'View: Close All Editors');
    const sash = await page.locator('.part.sidebar').boundingBox();
    if (sash) {
      await page.mouse.move(sash.x + sash.width + 1, sash.y + 200);
      await page.mouse.down();
      await page.mouse.move(sash.x + sash.width + 260, sash.y + 200, { steps: 5 });
      await page.mouse.up();
      await page.mouse.move(sash.x + 200, sash.y + 500);
    }
    await shoot(page, shots, 'intents-view.png');
  });

  it("Show in Trace Inspector (the intent's activity line) opens the inspector on that intent's timeline", async () => {
    const view = page.locator('[id="workbench.view.extension.intentGovernor"]');
    await view.locator('.monaco-list-row', { hasText: 'last activity' }).click();
    const frame = webviewFrame(page);
    const intent = frame.locator('select[name="intent"]');
    await waitFor('the inspector to filter on auth-refactor', async () => ((await intent.inputValue().catch(() => '')) === 'auth-refactor' ? true : undefined), 60_000);
    await frame.locator('.row', { hasText: 'SCOPE_VIOLATION' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await frame.locator('.row:not([data-intent="auth-refactor"])').count(), 0, 'rows of other intents are shown');
    await runCommand(page, 'View: Close All Editors');
  });

  it("Edit Scope… from an intent's context menu shows its globs and writes the new ones into the YAML, comments kept", async () => {
    const file = join(vscode!.workspace, INTENTS);
    const before = readFileSync(file, 'utf8');
    const view = page.locator('[id="workbench.view.extension.intentGovernor"]');
    await showIntentsView(page);
    await view.locator('.monaco-list-row', { hasText: 'Remove the legacy invoice path' }).click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-label', { hasText: 'Edit Scope…' }).first();
    await item.hover();
    await item.click();
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Edit Scope of billing-cleanup' }).waitFor({ state: 'visible', timeout: 30_000 });
    const input = widget.locator('input');
    assert.equal(await input.inputValue(), 'src/billing/**');
    await input.fill('src/billing/**, test/billing/**');
    await input.press('Enter');
    const after = await waitFor('the new scope in the file', () => {
      const text = readFileSync(file, 'utf8');
      return text.includes('test/billing/**') ? text : undefined;
    }, 30_000);
    assert.equal(after, before.replace('      - src/billing/**\n', '      - src/billing/**\n      - test/billing/**\n'));
    await view.locator('.monaco-list-row', { hasText: 'Remove the legacy invoice path' }).click();
    await view.locator('.monaco-list-row', { hasText: 'test/billing/**' }).waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('New Intent… on a folder in the Explorer writes a valid intent into the YAML, keeping its comment, and the picker then offers it', async () => {
    const file = join(vscode!.workspace, INTENTS);
    const before = readFileSync(file, 'utf8');
    assert.ok(before.startsWith('# Sample plan'), 'the fixture lost its comment');
    await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
    await page.locator('.explorer-folders-view .monaco-list-row[aria-label="src"]').first().click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-label', { hasText: 'New Intent…' }).first();
    await item.hover();
    await item.click();
    // A click that lands while the menu is still settling only focuses the item; Enter runs it then.
    const firstStep = page.locator('.quick-input-widget .quick-input-title', { hasText: '(1/6)' });
    if (!(await firstStep.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false))) await page.keyboard.press('Enter');
    assert.equal(await answerStep(page, 1), 'INT-001', 'the suggested id');
    await answerStep(page, 2, 'Payments retry queue');
    assert.equal(await answerStep(page, 3, 'src/payments/**, test/payments/**'), 'src/**', 'the scope suggested from the folder');
    await answerStep(page, 4, 'IN_PROGRESS');
    await answerStep(page, 5, 'Keep the public API; no new dependencies');
    await answerStep(page, 6, 'Retries are idempotent');
    const after = await waitFor('the intents file to hold the new intent', () => {
      const text = readFileSync(file, 'utf8');
      return text.includes('INT-001') ? text : undefined;
    }, 30_000);
    assert.ok(after.startsWith(before), `the existing entries or comments changed:\n${after}`);
    const snapshot = parseIntentsFile(after, INTENTS);
    assert.ok(snapshot.valid, JSON.stringify(snapshot));
    assert.deepEqual(snapshot.intents.find((i) => i.id === 'INT-001'), {
      id: 'INT-001',
      name: 'Payments retry queue',
      status: 'IN_PROGRESS',
      owned_scope: ['src/payments/**', 'test/payments/**'],
      constraints: ['Keep the public API', 'no new dependencies'],
      acceptance_criteria: ['Retries are idempotent'],
      related: [],
    });
    await showIntentsView(page);
    await page.locator('[id="workbench.view.extension.intentGovernor"] .monaco-list-row', { hasText: 'Payments retry queue' }).waitFor({ state: 'visible', timeout: 30_000 });
    await pickIntentInPalette(page, 'INT-001');
  });
});

describe('e2e: a workspace with no plan yet, in a real VS Code', function () {
  let vscode: GovernedVsCode | undefined;
  let page: Page;

  before(async function () {
    this.timeout(600_000);
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-no-plan-', prepare: async (workspace) => rmSync(join(workspace, INTENTS)) });
    page = vscode.workbench.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot({ path: join(shots, 'no-plan-failed.png') }).catch(() => undefined);
  });

  after(async () => {
    await vscode?.stop();
  });

  it('the Intents view welcomes with Create the Plan, which writes the commented template; then it offers New Intent…', async () => {
    await showIntentsView(page);
    const view = page.locator('[id="workbench.view.extension.intentGovernor"]');
    await view.getByText('This workspace has no plan yet').waitFor({ state: 'visible', timeout: 60_000 });
    // intentGovernor.openWalkthroughOnFirstRun is off on test servers: the extension, active by now, opened nothing.
    assert.equal(await page.locator('.gettingStartedContainer').isVisible(), false, 'the walkthrough opened although its setting is off');
    await shoot(page, shots, 'intents-welcome.png');
    await view.locator('.monaco-button', { hasText: 'Create the Plan' }).click();
    const file = join(vscode!.workspace, INTENTS);
    await waitFor('the template', () => (existsSync(file) ? true : undefined), 30_000);
    assert.match(readFileSync(file, 'utf8'), /^# Intent Governor: the plan agents work against\./);
    await view.getByText('The plan has no intents yet.').waitFor({ state: 'visible', timeout: 30_000 });
    await view.locator('.monaco-button', { hasText: 'New Intent…' }).waitFor({ state: 'visible' });
  });

  it('the empty trace inspector says how records appear', async () => {
    await runCommand(page, 'Intent Governor: Open Trace Inspector');
    const hint = webviewFrame(page).locator('.empty-trace');
    await hint.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await hint.innerText(), /^No records yet\. Pick an intent .* connect an agent .*every change it makes and every call refused shows up here\.$/);
  });
});
