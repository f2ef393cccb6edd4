import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { IntentGovernorApi, IntentRow } from '../../../src/host/extensionApi';
import { activateGovernor, waitFor, workspaceUri } from './extensionUnderTest';

const INTENTS = '.orchestration/active_intents.yaml';
const session = { session_id: 'intents-view-test', agent: { name: 'intents-view-test' } };

describe('Intents view in VS Code', () => {
  let api: IntentGovernorApi;
  let originalIntents: string;
  const row = async (id: string): Promise<IntentRow | undefined> => (await api.intentsView()).find((r) => r.id === id);

  before(async () => {
    api = await activateGovernor();
    originalIntents = await readFile(workspaceUri(INTENTS).fsPath, 'utf8');
    // Writes here must land without a human at the modal: only deletes and the like ask.
    await vscode.workspace.getConfiguration('intentGovernor').update('approveWrites', false, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('intentGovernor').update('approveWrites', undefined, vscode.ConfigurationTarget.Workspace);
    await writeFile(workspaceUri(INTENTS).fsPath, originalIntents);
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
  });

  it("shows the workspace's intents with status and scope, the human's marked, and counts a governed write and a refusal", async () => {
    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntentForMe', 'auth-refactor'), 'auth-refactor');
    const before = await waitFor('the view to show the plan', async () => {
      const rows = await api.intentsView();
      return rows.length >= 2 ? rows : undefined;
    });
    const auth = before.find((r) => r.id === 'auth-refactor');
    assert.deepEqual(
      { name: auth?.name, status: auth?.status, selected: auth?.selected, scope: auth?.scope },
      { name: 'Move sessions to the new token store', status: 'IN_PROGRESS', selected: true, scope: ['src/auth/**', 'test/auth/**'] },
    );
    const billing = before.find((r) => r.id === 'billing-cleanup');
    assert.equal(billing?.status, 'PLANNED');
    assert.equal(billing?.selected, false);
    // The trace may already hold records of earlier tests: count from what the view showed a moment ago.
    const counted = await waitFor('the index to settle', async () => {
      const now = await row('auth-refactor');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = await row('auth-refactor');
      return now && again && now.changes === again.changes && now.refusals === again.refusals ? again : undefined;
    }, 15_000);

    const startedAt = Date.now();
    const written = await api.call({ tool: 'write_file', input: { path: 'src/auth/from-intents-view.ts', content: 'export const seen = true;\n' }, ...session });
    assert.ok(written.ok, written.ok ? '' : written.error.message);
    const refused = await api.call({ tool: 'write_file', input: { path: 'src/billing/from-intents-view.ts', content: 'x\n' }, ...session });
    assert.equal(refused.ok ? 'ok' : refused.error.code, 'SCOPE_VIOLATION');

    const after = await waitFor(
      'the write and the refusal to be counted',
      async () => {
        const now = await row('auth-refactor');
        return now && now.changes === counted.changes + 1 && now.refusals === counted.refusals + 1 ? now : undefined;
      },
      20_000,
    );
    assert.ok(after.lastActivity && Date.parse(after.lastActivity) >= startedAt - 1000, `last activity ${after.lastActivity}`);
    assert.match(after.description, new RegExp(`^auth-refactor · IN_PROGRESS · yours · ${counted.changes + 1} changes? · ${counted.refusals + 1} refusals?$`));
  });

  it('Set Status writes the new status into the YAML, keeping its comments, and the picker then offers the intent', async () => {
    assert.equal(await vscode.commands.executeCommand('intentGovernor.setIntentStatus', 'billing-cleanup', 'IN_PROGRESS'), true);
    const text = await readFile(workspaceUri(INTENTS).fsPath, 'utf8');
    assert.ok(text.startsWith('# Sample plan: one intent is under way, one is only planned.\n'), text);
    assert.equal(text, originalIntents.replace('    status: PLANNED\n', '    status: IN_PROGRESS\n'));
    await waitFor('the view to show the new status', async () => ((await row('billing-cleanup'))?.status === 'IN_PROGRESS' ? true : undefined));
    // Selecting it by id runs the same check as the picker: only IN_PROGRESS intents may be picked.
    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntentForMe', 'billing-cleanup'), 'billing-cleanup');
    assert.equal((await row('billing-cleanup'))?.selected, true);
  });

  it('Show in Trace Inspector opens the inspector', async () => {
    await vscode.commands.executeCommand('intentGovernor.showIntentInInspector', 'auth-refactor');
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Trace Inspector');
    await waitFor('the inspector tab', () => (tabs().length ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
