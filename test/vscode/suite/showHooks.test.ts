import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { activateGovernor, workspaceUri } from './extensionUnderTest';

// A PostToolUse hook and a Stop hook: observations, so an unapproved one is skipped and no other suite's calls ask.
const PROJECT_HOOKS = {
  hooks: {
    PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: './scripts/after-write.sh', once: true }] }],
    Notification: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/notified', async: true }] }],
  },
};
const CLAUDE_SETTINGS = { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', args: ['node', 'scripts/log-bash.js'] }] }] } };

describe('Show Hooks in VS Code', () => {
  before(() => activateGovernor());

  it('opens a read-only table of the workspace’s hooks: event, matcher, type, source, state and last run', async () => {
    const files = { '.orchestration/hooks.json': PROJECT_HOOKS, '.claude/settings.json': CLAUDE_SETTINGS };
    try {
      for (const [rel, content] of Object.entries(files)) {
        await mkdir(dirname(workspaceUri(rel).fsPath), { recursive: true });
        await writeFile(workspaceUri(rel).fsPath, JSON.stringify(content));
      }
      const uri = await vscode.commands.executeCommand<vscode.Uri>('intentGovernor.showHooks');
      assert.ok(uri, 'showHooks returned no document');
      assert.notEqual(uri.scheme, 'file', 'the listing must not be an editable file');
      const shown = vscode.window.activeTextEditor?.document;
      assert.equal(shown?.uri.toString(), uri.toString(), 'the listing is not the active editor');
      const lines = shown.getText().split('\n');
      const state = vscode.workspace.isTrusted ? 'not approved' : 'workspace not trusted';
      const row = (text: RegExp) => assert.ok(lines.some((l) => text.test(l)), `no line ${text} in:\n${shown.getText()}`);
      row(/^Hooks for \//);
      row(/^ {2}EVENT +MATCHER +TYPE +STATE +LAST RUN$/);
      row(/^\.orchestration\/hooks\.json$/);
      row(new RegExp(`^ {2}PostToolUse +Write\\|Edit +command once +${state} +never run$`));
      row(new RegExp(`^ {2}Notification +\\* +http async +${state} +never run$`));
      row(/^\.claude\/settings\.json: not run for Claude Code \(it runs them itself\)$/);
      row(new RegExp(`^ {2}PostToolUse +Bash +args +${state} +never run$`));
      row(/^ {2}intent-gate +before +/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const rel of Object.keys(files)) await rm(workspaceUri(rel).fsPath, { force: true });
    }
  });
});
