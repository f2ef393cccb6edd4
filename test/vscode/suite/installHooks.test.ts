import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { activateGovernor, workspaceUri } from './extensionUnderTest';

describe('Install Agent Hooks in VS Code', () => {
  before(() => activateGovernor());

  it('writes each agent’s hook config pointing at the installed dist/hook.js, and uninstall removes it again', async () => {
    const written = await vscode.commands.executeCommand<string[]>('intentGovernor.installHooks', ['vscode', 'claude', 'cursor']);
    assert.equal(written?.length, 3);
    const vscodeHooks = JSON.parse(readFileSync(workspaceUri('.github/hooks/intent-governor.json').fsPath, 'utf8'));
    const command: string = vscodeHooks.hooks.PreToolUse[0].command;
    assert.match(command, /^node ".*dist\/hook\.js" hook vscode --timeout-ms 110000$/);
    const hookJs = /^node "([^"]+)"/.exec(command)?.[1];
    assert.ok(hookJs && existsSync(hookJs), `${hookJs} is not there`);
    const claude = JSON.parse(readFileSync(workspaceUri('.claude/settings.local.json').fsPath, 'utf8'));
    assert.equal(claude.hooks.PreToolUse[0].matcher, 'Write|Edit|MultiEdit|NotebookEdit|Bash|Read');
    const cursor = JSON.parse(readFileSync(workspaceUri('.cursor/hooks.json').fsPath, 'utf8'));
    assert.equal(cursor.version, 1);

    await vscode.commands.executeCommand('intentGovernor.installHooks', ['vscode', 'claude', 'cursor'], 'uninstall');
    for (const file of ['.github/hooks/intent-governor.json', '.claude/settings.local.json', '.cursor/hooks.json']) {
      assert.equal(existsSync(workspaceUri(file).fsPath), false, `${file} is still there`);
    }
  });
});
