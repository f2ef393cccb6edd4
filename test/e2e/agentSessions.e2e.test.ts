import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Locator, Page } from 'playwright-core';
import { finished, type Finished } from '../support/childProcesses';
import { repoRoot } from '../vscode/provisioned';
import { answerModal, connectMcpClient, errorOf, launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode, shoot } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'agent-sessions');

/** For the screenshot: the chat panel closed and the side bar wide enough for the sessions' descriptions. */
async function widenSideBar(page: Page): Promise<void> {
  const chat = page.locator('.part.auxiliarybar');
  if (await chat.isVisible()) {
    await page.keyboard.press('Control+Alt+B');
    await chat.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 300, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.mouse.move(box.x + box.width + 600, box.y + box.height / 2); // off the sash, so it is not highlighted
}

/**
 * Two agents at once, through two doors, as a person sees them in VS Code: an MCP client connected to the
 * extension's server and Claude Code's command hook (dist/hook.js, answered by the running extension). The
 * Agent Sessions view and the status bar are read from the workbench's DOM; Unbind Intent is clicked.
 */
describe('e2e: the Agent Sessions view and the status bar with two live agents from two doors', function () {
  let vscode: GovernedVsCode | undefined;
  let page: Page;
  let mcp: Client | undefined;

  const claude = (tool: string, input: object, id: string): Promise<Finished> => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist', 'hook.js'), 'hook', 'claude', '--timeout-ms', '90000'], {
      env: { ...process.env, INTENT_GOVERNOR_HOME: vscode!.governorHome, INTENT_GOVERNOR_ANCHOR_DIR: join(vscode!.temp, 'cli-anchors'), INTENT_GOVERNOR_INTENT: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const payload = { session_id: 'e2e-sessions-claude', transcript_path: '/tmp/t.jsonl', cwd: vscode!.workspace, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id };
    child.stdin.end(JSON.stringify(payload));
    return finished(child);
  };
  const sessionsView = (): Locator => page.locator('[id="workbench.view.extension.intentGovernor"] .pane', { has: page.locator('.pane-header', { hasText: 'Agent Sessions' }) });
  const statusItem = (): Locator => page.locator('.statusbar-item', { hasText: /agents?\b/ }).first();

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    // Every change asks, so Approve for this Session has a modal to be chosen in.
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-sessions-', settings: { 'intentGovernor.approval': 'every-change' } });
    page = vscode.workbench.page;
  });

  after(async function () {
    this.timeout(60_000);
    await mcp?.close().catch(() => undefined);
    await vscode?.stop();
  });

  it("shows an MCP agent's intent in the status bar while the human has picked none", async () => {
    mcp = await connectMcpClient(vscode!.discovered, 'e2e-mcp-agent');
    assert.equal(errorOf(await mcp.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), undefined);
    const item = statusItem();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await waitFor('the status bar to name the agent and its intent', async () => ((await item.innerText()).includes('no intent · 1 agent on auth-refactor') ? true : undefined), 30_000);
  });

  it('lists both sessions with agent, door and bound intent; the status bar counts them', async () => {
    await pickIntentInPalette(page, 'auth-refactor');
    const read = await claude('Read', { file_path: join(vscode!.workspace, 'src/auth/login.ts') }, 'toolu_e2e_sessions_read');
    assert.equal(read.code, 0, read.stderr);

    await page.locator('.activitybar [aria-label^="Intent Governor"]').first().click();
    const view = sessionsView();
    const header = view.locator('.pane-header');
    await header.waitFor({ state: 'visible', timeout: 60_000 });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();

    const mcpRow = view.locator('.monaco-list-row', { hasText: 'e2e-mcp-agent' });
    const claudeRow = view.locator('.monaco-list-row', { hasText: 'claude-code' });
    await mcpRow.waitFor({ state: 'visible', timeout: 30_000 });
    await claudeRow.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await mcpRow.innerText(), /e2e-mcp-agent\s*MCP · auth-refactor \(its own\)/);
    assert.match(await claudeRow.innerText(), /claude-code\s*hook bridge \(Claude Code\) · auth-refactor \(yours\)/);
    // Each session opens on its last call and its decision.
    await view.locator('.monaco-list-row', { hasText: 'last: select_active_intent auth-refactor: allowed' }).waitFor({ state: 'visible', timeout: 30_000 });
    await view.locator('.monaco-list-row', { hasText: 'last: read_file src/auth/login.ts: allowed' }).waitFor({ state: 'visible', timeout: 30_000 });

    const item = page.locator('.statusbar-item', { hasText: 'auth-refactor · 2 agents' });
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await widenSideBar(page);
    await shoot(page, shots, 'agent-sessions.png');
  });

  it("Unbind Intent makes the session's next write NO_ACTIVE_INTENT, though the human has an intent", async () => {
    const view = sessionsView();
    const mcpRow = view.locator('.monaco-list-row', { hasText: 'e2e-mcp-agent' });
    await mcpRow.hover();
    await mcpRow.locator('.action-label[aria-label="Unbind Intent"]').click();
    await waitFor('the view to show the session unbound', async () => ((await mcpRow.innerText()).includes('MCP · unbound') ? true : undefined), 30_000);

    const written = await mcp!.callTool({ name: 'write_file', arguments: { path: 'src/auth/after-unbind.ts', content: 'x\n' } });
    assert.equal(errorOf(written)?.code, 'NO_ACTIVE_INTENT');
    await view.locator('.monaco-list-row', { hasText: 'last: write_file src/auth/after-unbind.ts: denied NO_ACTIVE_INTENT' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The other session still works under the human's intent.
    assert.match(await view.locator('.monaco-list-row', { hasText: 'claude-code' }).innerText(), /auth-refactor \(yours\)/);
  });

  it('shows a standing approval (Approve for this Session) under its session, and Revoke makes the next write ask again', async () => {
    assert.equal(errorOf(await mcp!.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), undefined);
    const first = mcp!.callTool({ name: 'write_file', arguments: { path: 'src/auth/standing.ts', content: 'export const a = 1;\n' } });
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    await dialog.locator('.monaco-button', { hasText: /^Approve for this Session$/ }).click();
    assert.equal(errorOf(await first), undefined);

    const view = sessionsView();
    const standing = view.locator('.monaco-list-row', { hasText: 'approved for this session in auth-refactor' });
    await standing.waitFor({ state: 'visible', timeout: 30_000 });
    // The view redraws on every call's outcome; a click that lands on a row being redrawn is lost, so click until it is gone.
    await waitFor('Revoke to remove the standing approval', async () => {
      if ((await standing.count()) === 0) return true;
      await standing.hover();
      await standing.locator('.action-label[aria-label="Revoke"]').click({ timeout: 5_000 }).catch(() => undefined);
      return (await standing.waitFor({ state: 'detached', timeout: 3_000 }).then(() => true, () => undefined));
    }, 30_000);

    const second = mcp!.callTool({ name: 'write_file', arguments: { path: 'src/auth/standing-2.ts', content: 'export const b = 2;\n' } });
    await answerModal(page, 'Reject');
    assert.equal(errorOf(await second)?.code, 'HITL_REJECT', 'asked again once revoked');
  });

  it("Show Calls lists the session's recent calls, newest first, with their decisions", async () => {
    const mcpRow = sessionsView().locator('.monaco-list-row', { hasText: 'e2e-mcp-agent' });
    await mcpRow.hover();
    await mcpRow.locator('.action-label[aria-label="Show Calls"]').click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await rows.first().innerText(), /write_file src\/auth\/standing-2\.ts\s*denied HITL_REJECT/);
    await page.keyboard.press('Escape');
  });
});
