import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FrameLocator, Page } from 'playwright-core';
import { FileAnchorStore } from '../../src/core/trace/anchorStore';
import { traceFilePath } from '../../src/core/trace/traceFiles';
import { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import { SYNTHETIC_INTENTS, writeSyntheticTrace } from '../support/syntheticTrace';
import { repoRoot } from '../vscode/provisioned';
import { runPaletteCommand, webviewFrame } from '../vscode/workbenchActions';
import { connectMcpClient, launchGovernedVsCode, text, waitFor, type GovernedVsCode, shoot } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'inspector');
const LOGIN = 'src/auth/login.ts';
const INVOICE = 'src/billing/invoice.ts';

/**
 * Two intents' changes and one refusal, written before VS Code starts, as an earlier session would have left them: the
 * first committed on main, the others on the branch `feature` the workspace is on (a pull request's view).
 */
async function seedLogs(workspace: string, anchorDir: string): Promise<void> {
  const open = () => new JsonlTraceSink({ workspaceRoot: workspace, toolVersion: '0.1.0', anchors: new FileAnchorStore(workspace, anchorDir), fsync: 'never' });
  const base = { session_id: 'seed', tool: 'write_file', mutation_class: 'write' as const, decision: 'allow' as const };
  let sink = open();
  await sink.recordMutation({
    ...base, timestamp: '2026-11-20T09:00:00.000Z', invocation_id: 'seed-1', agent: { name: 'cursor', model_id: 'gpt-5' }, intent_id: 'billing-cleanup',
    files: [{ path: INVOICE, after: readFileSync(join(workspace, INVOICE), 'utf8') }],
  });
  await sink.close();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=lead', '-c', 'user.email=lead@example.test', ...args], { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'main: the billing change');
  git('checkout', '-qb', 'feature');
  sink = open();
  await sink.recordMutation({
    ...base, timestamp: '2026-11-21T10:00:00.000Z', invocation_id: 'seed-2', agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' }, intent_id: 'auth-refactor',
    files: [{ path: LOGIN, before: 'export function login(user: string, password: string): boolean {\n  return true;\n}\n', after: readFileSync(join(workspace, LOGIN), 'utf8') }],
  });
  await sink.recordGovernance({
    timestamp: '2026-11-21T10:05:00.000Z', invocation_id: 'seed-3', session_id: 'seed', agent: { name: 'claude-code' }, intent_id: 'auth-refactor', tool: 'write_file',
    decision: 'deny', code: 'SCOPE_VIOLATION', message: `"${INVOICE}" is outside the owned scope of intent auth-refactor.`, paths: [INVOICE],
  });
  await sink.close();
}

describe('e2e: the trace inspector and intent blame inside a real VS Code', function () {
  let vscode: GovernedVsCode | undefined;
  let client: Client | undefined;
  let page: Page;
  let frame: FrameLocator;

  before(async function () {
    this.timeout(600_000);
    assert.ok(existsSync(join(repoRoot, 'dist', 'webview', 'inspector.js')), 'run `npm run build` first');
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({
      prefix: 'ig-inspector-',
      settings: { 'intentGovernor.approval': 'destructive-only', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      prepare: (seeded, temp) => seedLogs(seeded, join(temp, 'seed-anchors')),
    });
    page = vscode.workbench.page;
    await page.setViewportSize({ width: 1400, height: 860 });
    client = await connectMcpClient(vscode.discovered);
    frame = webviewFrame(page);
    // Room for the inspector beside an editor: hide the explorer (the chat bar stays hidden by the setting above).
    await page.keyboard.press('Control+B');
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close().catch(() => undefined);
    await vscode?.stop();
  });

  it('opens from the command palette and lists changes and refusals, newest first, with the chain status', async () => {
    await runPaletteCommand(page, 'Intent Governor: Open Trace Inspector');
    const rows = frame.locator('.row');
    await rows.nth(2).waitFor({ state: 'visible', timeout: 60_000 });
    const texts = await rows.allInnerTexts();
    assert.equal(texts.length, 3, texts.join('\n'));
    assert.match(texts[0], /SCOPE_VIOLATION/);
    assert.match(texts[1], /auth-refactor[\s\S]*claude-code[\s\S]*src\/auth\/login\.ts/);
    assert.match(texts[2], /billing-cleanup[\s\S]*cursor/);
    assert.equal(await frame.locator('.row.governance').count(), 1);
    await frame.locator('.chain .badge[data-log=".orchestration/agent_trace.jsonl"]', { hasText: /verified/ }).waitFor({ timeout: 30_000 });
    await shoot(page, shots, 'inspector-timeline.png');
  });

  it('filters by intent', async () => {
    await frame.locator('select[name="intent"]').selectOption('billing-cleanup');
    await waitFor('the filtered list', async () => ((await frame.locator('.row').count()) === 1 ? true : undefined), 15_000);
    assert.match(await frame.locator('.row').first().innerText(), /billing-cleanup/);
    assert.match(await frame.locator('.count').innerText(), /^1 record$/);
    await shoot(page, shots, 'inspector-filtered.png');
    await frame.locator('select[name="intent"]').selectOption('');
    await waitFor('the unfiltered list', async () => ((await frame.locator('.row').count()) === 3 ? true : undefined), 15_000);
  });

  it('opens a record with the keyboard and reveals its range in the editor', async () => {
    await frame.locator('.list').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = frame.locator('.detail');
    await detail.waitFor({ state: 'visible', timeout: 15_000 });
    const shown = await detail.innerText();
    assert.match(shown, /auth-refactor/);
    assert.match(shown, /claude-sonnet-4-5/);
    assert.match(shown, /src\/auth\/login\.ts/);
    assert.match(shown, /sha256:[0-9a-f]{64}/);
    await shoot(page, shots, 'inspector-detail.png');
    await detail.locator('button.open-range', { hasText: 'Open at 2-2' }).click();
    const tab = page.locator('.tab.active', { hasText: 'login.ts' });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: /Ln 2, Col/ }).first().waitFor({ state: 'visible', timeout: 15_000 });
    // Monaco renders spaces as no-break spaces.
    const visible = (await page.locator('.editor-group-container.active .view-lines').innerText()).replace(/\u00a0/g, ' ');
    assert.match(visible, /password\.length >= 12/);
  });

  it('shows a write an agent makes through MCP without a reload', async () => {
    assert.match(text(await client!.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /auth-refactor/);
    const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
    const content = 'export function login(user: string, password: string): boolean {\n  return user.length > 0 && password.length >= 16;\n}\n';
    const result = (await client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content, expected_content_hash: hash } })) as CallToolResult;
    assert.ok(!result.isError, text(result));
    const live = frame.locator('.row', { hasText: 'e2e-agent' });
    await live.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await frame.locator('.row').first().innerText(), /e2e-agent/);
    assert.match(await frame.locator('.count').innerText(), /^4 records$/);
  });

  it('shows intent blame on an attributed line, with a hover naming intent, agent and model', async () => {
    const editorLine = page.locator('.editor-group-container .view-line', { hasText: 'password.length >= 16' }).first();
    await editorLine.waitFor({ state: 'visible', timeout: 30_000 });
    const hover = page.locator('.monaco-hover', { hasText: 'e2e-agent' });
    await waitFor('the blame hover', async () => {
      await page.mouse.move(0, 0);
      await editorLine.hover({ position: { x: 40, y: 5 } });
      // The hover shows after its delay; decorations arrive a moment after the write, so retry the hover.
      return (await hover.first().waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => undefined));
    }, 45_000).catch(async (error: unknown) => {
      await page.screenshot({ path: join(shots, 'blame-hover-failed.png') });
      throw new Error(`${String(error)}; hovers: ${JSON.stringify(await page.locator('.monaco-hover').allInnerTexts())}`);
    });
    const shown = await hover.first().innerText();
    assert.match(shown, /Intent auth-refactor/);
    assert.match(shown, /Open record in Trace Inspector/);
    await shoot(page, shots, 'blame-hover.png');
  });

  it('shows the intents with their counts and the activity chart', async () => {
    await page.mouse.move(0, 0);
    await page.locator('.tab', { hasText: 'Trace Inspector' }).first().click();
    await frame.locator('.tabs button[data-tab="intents"]').click();
    const row = frame.locator('.intents tr[data-intent="auth-refactor"]');
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    const cells = await row.locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 3), ['auth-refactor', 'Move sessions to the new token store', 'IN_PROGRESS']);
    assert.equal(cells[4], '2');
    assert.equal(cells[5], '1');
    assert.equal(await frame.locator('.chart polyline').count(), 2);
    await shoot(page, shots, 'inspector-intents.png');
  });

  it('shows only what the branch added since a ref (a pull request\'s view), says why when the ref is unknown, and filters by class', async () => {
    await frame.locator('.tabs button[data-tab="timeline"]').click();
    const since = frame.locator('input[name="branchBase"]');
    await since.fill('main');
    // The agent's write through MCP and the two seeded on the branch; the billing change is main's.
    await waitFor('the branch\'s rows', async () => ((await frame.locator('.row').count()) === 3 ? true : undefined), 15_000);
    const texts = await frame.locator('.row').allInnerTexts();
    assert.match(texts[0], /e2e-agent/);
    assert.match(texts[1], /SCOPE_VIOLATION/);
    assert.match(texts[2], /auth-refactor[\s\S]*claude-code/);
    assert.ok(!texts.some((t) => /billing-cleanup/.test(t)), texts.join('\n'));
    assert.match(await frame.locator('.count').innerText(), /^3 records added since the merge base of main and HEAD \([0-9a-f]{12}\)$/);
    await shoot(page, shots, 'inspector-since-main.png');
    await since.fill('no-such-branch');
    await waitFor('no rows', async () => ((await frame.locator('.row').count()) === 0 ? true : undefined), 15_000);
    assert.match(await frame.locator('.count').innerText(), /^0 records: no-such-branch is not a commit git knows here/);
    await since.fill('');
    await waitFor('the unfiltered list', async () => ((await frame.locator('.row').count()) === 4 ? true : undefined), 15_000);
    // The class drop-down reaches the host (it was dropped there before): only the agent's write was classified.
    await frame.locator('select[name="mutationClass"]').selectOption('INTENT_EVOLUTION');
    await waitFor('the classified row', async () => ((await frame.locator('.row').count()) === 1 ? true : undefined), 15_000);
    assert.match(await frame.locator('.row').first().innerText(), /e2e-agent/);
    await frame.locator('select[name="mutationClass"]').selectOption('');
    await waitFor('the unfiltered list', async () => ((await frame.locator('.row').count()) === 4 ? true : undefined), 15_000);
  });
});

describe('e2e: the trace inspector on a 200k-record trace', function () {
  const RECORDS = 200_000;
  let vscode: GovernedVsCode | undefined;

  before(async function () {
    this.timeout(600_000);
    vscode = await launchGovernedVsCode({
      prefix: 'ig-inspector-large-',
      settings: { 'intentGovernor.approval': 'destructive-only', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
      prepare: async (workspace) => void (await writeSyntheticTrace(traceFilePath(workspace), RECORDS)),
    });
  });

  after(async function () {
    this.timeout(60_000);
    await vscode?.stop();
  });

  it('shows the newest rows while it is still indexing, and a row opened then shows its record with its line', async function () {
    this.timeout(120_000);
    const page = vscode!.workbench.page;
    const frame = webviewFrame(page);
    await runPaletteCommand(page, 'Intent Governor: Open Trace Inspector');
    const count = frame.locator('.count');
    await count.filter({ hasText: 'Indexing the trace… the newest 500 records so far' }).waitFor({ timeout: 60_000 });
    const newest = frame.locator('.row').first();
    assert.equal(await newest.getAttribute('data-intent'), SYNTHETIC_INTENTS[(RECORDS - 1) % 4]);
    await newest.click();
    // The detail comes from the full index (preview rows have no line numbers), once it is built.
    const detail = frame.locator('.detail');
    await detail.filter({ hasText: `agent_trace.jsonl line ${RECORDS.toLocaleString('en').replaceAll(',', '')}` }).waitFor({ timeout: 60_000 });
    await count.filter({ hasText: `${RECORDS.toLocaleString('en')} records` }).waitFor({ timeout: 60_000 });
    assert.equal(await frame.locator('.row').first().getAttribute('data-id'), await newest.getAttribute('data-id'));
  });
});
