import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { FileAnchorStore } from '../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import { repoRoot } from '../vscode/provisioned';
import { runPaletteCommand, webviewFrame } from '../vscode/workbenchActions';
import { launchGovernedVsCode, shoot, type GovernedVsCode } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'inspector-glance');
const LOGIN = 'src/auth/login.ts';
const INVOICE = 'src/billing/invoice.ts';

/** A change a person approved, then a refusal, as an earlier session left them in the two logs. */
async function seedLogs(workspace: string, anchorDir: string): Promise<void> {
  const sink = new JsonlTraceSink({ workspaceRoot: workspace, toolVersion: '0.1.0', anchors: new FileAnchorStore(workspace, anchorDir), fsync: 'never' });
  await sink.recordMutation({
    timestamp: '2026-11-21T10:00:00.000Z', invocation_id: 'seed-1', session_id: 'seed', tool: 'write_file', mutation_class: 'write', decision: 'approved', approver: 'vscode-user',
    agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' }, intent_id: 'auth-refactor',
    files: [{ path: LOGIN, before: 'export function login(user: string, password: string): boolean {\n  return true;\n}\n', after: readFileSync(join(workspace, LOGIN), 'utf8') }],
  });
  await sink.recordGovernance({
    timestamp: '2026-11-21T10:05:00.000Z', invocation_id: 'seed-2', session_id: 'seed', agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' }, intent_id: 'auth-refactor', tool: 'write_file',
    decision: 'deny', code: 'SCOPE_VIOLATION', message: `"${INVOICE}" is outside the owned scope of intent auth-refactor.`, paths: [INVOICE],
  });
  await sink.close();
}

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box): boolean =>
  inner.width > 0 && inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, 'no bounding box: not rendered');
  return box;
}

/** Opens a workbench part with its toggle key when it is closed, as a person would; resolves once it shows. */
async function ensureOpen(page: Page, part: Locator, key: string): Promise<void> {
  if (!(await part.isVisible())) await page.keyboard.press(key);
  await part.waitFor({ state: 'visible', timeout: 15_000 });
}

/**
 * The inspector where people actually look at it: a 1400 px window with the Explorer and the chat open beside
 * it. The refusal's decision and code must be on screen without scrolling sideways, and look unlike an approval.
 */
describe('e2e: the trace inspector at a glance, at 1400 px with the side bar and the chat open', function () {
  let vscode: GovernedVsCode | undefined;
  let page: Page;
  let frame: FrameLocator;

  before(async function () {
    this.timeout(600_000);
    assert.ok(existsSync(join(repoRoot, 'dist', 'webview', 'inspector.js')), 'run `npm run build` first');
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({
      prefix: 'ig-inspector-glance-',
      settings: { 'intentGovernor.approval': 'destructive-only', 'workbench.secondarySideBar.defaultVisibility': 'visible' },
      prepare: (workspace, temp) => seedLogs(workspace, join(temp, 'seed-anchors')),
    });
    page = vscode.workbench.page;
    await page.setViewportSize({ width: 1400, height: 860 });
    frame = webviewFrame(page);
  });

  after(async function () {
    this.timeout(60_000);
    await vscode?.stop();
  });

  it("shows a refusal's decision and code in view, in the theme's error colour with an icon, unlike the approved change", async function () {
    this.timeout(180_000);
    await runPaletteCommand(page, 'Intent Governor: Open Trace Inspector');
    await frame.locator('.row').nth(1).waitFor({ state: 'visible', timeout: 60_000 });
    const sideBar = page.locator('.part.sidebar');
    const chat = page.locator('.part.auxiliarybar');
    await ensureOpen(page, sideBar, 'Control+B');
    await ensureOpen(page, chat, 'Control+Alt+B');
    // Both take room from the editor area the inspector lives in.
    assert.ok((await boxOf(sideBar)).width > 150, 'the side bar is open');
    assert.ok((await boxOf(chat)).width > 150, 'the chat is open');

    const refusal = frame.locator('.row.tone-refused');
    const approved = frame.locator('.row.tone-approved');
    assert.equal(await refusal.count(), 1);
    assert.equal(await approved.count(), 1);
    const refusalDecision = refusal.locator('.cell.decision');
    const refusalCode = refusal.locator('.cell.code');
    assert.match(await refusalDecision.innerText(), /deny/);
    assert.equal(await refusalCode.innerText(), 'SCOPE_VIOLATION');

    // In view: inside the page, the webview's frame and the list (which clips what overflows it), and not cut short.
    const viewport = { x: 0, y: 0, ...page.viewportSize()! };
    const webview = await boxOf(page.locator('iframe.webview'));
    const list = await boxOf(frame.locator('.list'));
    for (const [name, cell] of [['decision', refusalDecision], ['code', refusalCode]] as const) {
      const box = await boxOf(cell);
      const where = `${name} ${JSON.stringify(box)}, webview ${JSON.stringify(webview)}, list ${JSON.stringify(list)}`;
      assert.ok(inside(box, viewport), `the refusal's ${name} cell is inside the window: ${where}`);
      assert.ok(inside(box, webview), `the refusal's ${name} cell is inside the webview: ${where}`);
      assert.ok(inside(box, list), `the refusal's ${name} cell is inside the list: ${where}`);
    }
    // Run in the webview: the test's tsconfig has no DOM types, so the page's globals are typed here by hand.
    type Window = { getComputedStyle(el: unknown): { color: string }; document: { createElement(tag: string): Probe; body: { append(el: Probe): void } } };
    type Probe = { style: { color: string }; remove(): void };
    const truncated = (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth > el.clientWidth;
    assert.equal(await refusalCode.evaluate(truncated), false, 'SCOPE_VIOLATION is shown in full');
    assert.equal(await refusalDecision.locator('.label').evaluate(truncated), false, 'deny is shown in full');

    // Looks like a refusal: the theme's error colour (not the approved row's), an icon named for screen readers.
    const colour = (el: unknown) => (globalThis as unknown as Window).getComputedStyle(el).color;
    const themeColour = (_el: unknown, variable: string) => {
      const win = globalThis as unknown as Window;
      const probe = win.document.createElement('span');
      probe.style.color = `var(${variable})`;
      win.document.body.append(probe);
      const value = win.getComputedStyle(probe).color;
      probe.remove();
      return value;
    };
    const refusalColour = await refusalDecision.evaluate(colour);
    const approvedColour = await approved.locator('.cell.decision').evaluate(colour);
    assert.notEqual(refusalColour, approvedColour, 'a refusal and an approval are told apart by colour');
    assert.equal(refusalColour, await refusalDecision.evaluate(themeColour, '--vscode-errorForeground'));
    assert.equal(await refusalDecision.locator('svg[role="img"]').getAttribute('aria-label'), 'Refused by the governor');
    assert.equal(await approved.locator('.cell.decision svg[role="img"]').getAttribute('aria-label'), 'Approved by a person');
    assert.ok((await boxOf(refusalDecision.locator('svg'))).width >= 10, 'the refusal icon is drawn');
    // Opened, the record says the same in its detail: the decision, its code and what it means, in the same colour.
    await refusal.click();
    const decisionFact = frame.locator('.detail .facts dd.decision');
    await decisionFact.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal((await decisionFact.innerText()).trim(), 'deny (SCOPE_VIOLATION) · Refused by the governor');
    assert.equal(await decisionFact.evaluate(colour), refusalColour);
    assert.ok(await decisionFact.locator('svg[role="img"]').isVisible(), 'the detail shows the refusal icon');
    await runPaletteCommand(page, 'Notifications: Clear All Notifications');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await shoot(page, shots, 'inspector-1400-sidebar-chat.png');
  });

  it('keeps the decision and code in view in a 900 px window with the side bar and the chat open', async function () {
    this.timeout(60_000);
    await page.setViewportSize({ width: 900, height: 860 });
    const refusal = frame.locator('.row.tone-refused');
    await refusal.waitFor({ state: 'visible', timeout: 15_000 });
    assert.ok(await page.locator('.part.sidebar').isVisible(), 'the side bar is still open');
    assert.ok(await page.locator('.part.auxiliarybar').isVisible(), 'the chat is still open');
    const list = await boxOf(frame.locator('.list'));
    for (const cell of [refusal.locator('.cell.decision'), refusal.locator('.cell.code')]) {
      const box = await boxOf(cell);
      assert.ok(inside(box, { x: 0, y: 0, width: 900, height: 860 }) && inside(box, list), `in view: ${JSON.stringify(box)} in list ${JSON.stringify(list)}`);
    }
    await shoot(page, shots, 'inspector-900-sidebar-chat.png');
  });
});
