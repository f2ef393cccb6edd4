import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateGovernor, waitFor } from './extensionUnderTest';

describe('Trace inspector and intent blame in VS Code', () => {
  before(async () => {
    await activateGovernor();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens one inspector panel, and running the command again reveals it instead of a second one', async () => {
    assert.equal(await vscode.commands.executeCommand('intentGovernor.openInspector'), true);
    await vscode.commands.executeCommand('intentGovernor.openInspector');
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Trace Inspector');
    await waitFor('the inspector tab', () => (tabs().length ? true : undefined));
    assert.equal(tabs().length, 1);
    assert.match((tabs()[0].input as vscode.TabInputWebview).viewType, /intentGovernor\.inspector$/);
  });

  it('toggles intent blame off and on', async () => {
    assert.equal(await vscode.commands.executeCommand('intentGovernor.toggleBlame'), false);
    assert.equal(await vscode.commands.executeCommand('intentGovernor.toggleBlame'), true);
  });
});
