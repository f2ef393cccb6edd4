import * as assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

// Proves the pipeline end to end: this file runs inside a real VS Code extension host, on the temp
// copy of demo/workspace, with the product extension installed from this repository's build.
describe('the VS Code test harness', () => {
  it('runs inside VS Code 1.139', () => {
    assert.ok(vscode.version.startsWith('1.139'), `vscode.version is ${vscode.version}`);
  });

  it('opens the temp copy of demo/workspace, never the repository itself', () => {
    const expected = process.env.INTENT_GOVERNOR_TEST_WORKSPACE;
    assert.ok(expected, 'INTENT_GOVERNOR_TEST_WORKSPACE is not set in the extension host');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, `workspace folders: ${folders.map((folder) => folder.uri.fsPath).join(', ')}`);
    // realpath: on macOS the temp dir is reached through a symlink (/var -> /private/var).
    assert.equal(realpathSync(folders[0].uri.fsPath), realpathSync(expected));
    assert.ok(existsSync(join(expected, '.orchestration', 'active_intents.yaml')), 'the copy has no .orchestration/active_intents.yaml');
  });

  it('has Intent Governor installed, and it activates', async () => {
    const extension = vscode.extensions.getExtension('intent-governor.intent-governor');
    assert.ok(extension, 'intent-governor.intent-governor is not installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
  });
});
