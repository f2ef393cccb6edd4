import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { hookLauncherPath } from '../../../src/core/agents/common/hookLauncher';
import { activateGovernor, workspaceUri } from './extensionUnderTest';

describe('Install Agent Hooks in VS Code', () => {
  before(() => activateGovernor());

  it('writes each agent’s hook config naming the per-user launcher, which points at the installed dist/hook.js, and uninstall removes it again', async () => {
    const written = await vscode.commands.executeCommand<string[]>('intentGovernor.installHooks', ['vscode', 'claude', 'cursor']);
    assert.equal(written?.length, 4, "three hook configs and Claude's own config");
    const vscodeHooks = JSON.parse(readFileSync(workspaceUri('.github/hooks/intent-governor.json').fsPath, 'utf8'));
    const command: string = vscodeHooks.hooks.PreToolUse[0].command;
    // The committed file names the launcher, never this machine's path; the launcher (outside the workspace) does.
    assert.match(command, /^ig_l="\$\{INTENT_GOVERNOR_HOME:-\$HOME\/\.intent-governor\}\/bin\/governor-hook";.*"\$ig_l" hook vscode --timeout-ms 110000/s);
    assert.doesNotMatch(command, /dist\/hook\.js/);
    const launcher = readFileSync(hookLauncherPath(process.env), 'utf8');
    const hookJs = /^hook='([^']+)'$/m.exec(launcher)?.[1];
    assert.ok(hookJs?.endsWith(join('dist', 'hook.js')) && existsSync(hookJs), `the launcher points at ${hookJs}`);
    // No claude on this machine's PATH: the current kind, the resident governor through mcp_tool hooks.
    const claude = JSON.parse(readFileSync(workspaceUri('.claude/settings.local.json').fsPath, 'utf8'));
    // Every tool but Claude's own read-only ones and the governor's own MCP tools: an unknown tool or another server's still reaches it.
    const matcher = new RegExp(claude.hooks.PreToolUse[0].matcher as string);
    for (const tool of ['Write', 'Edit', 'Bash', 'Read', 'NotebookEdit', 'FreshlyInventedTool', 'mcp__github__create_issue']) assert.ok(matcher.test(tool), tool);
    for (const tool of ['Grep', 'Glob', 'mcp__intent-governor__select_active_intent']) assert.ok(!matcher.test(tool), tool);
    assert.equal(claude.hooks.PreToolUse[0].hooks[0].type, 'mcp_tool');
    const claudeConfig = join(process.env.CLAUDE_CONFIG_DIR ?? '', '.claude.json');
    const server = JSON.parse(readFileSync(claudeConfig, 'utf8')).projects[workspaceUri('.').fsPath.replace(/\/$/, '')]?.mcpServers?.['intent-governor'];
    assert.deepEqual(server?.args?.slice(1), ['mcp', '--workspace', workspaceUri('.').fsPath.replace(/\/$/, ''), '--agent', 'claude']);
    const cursor = JSON.parse(readFileSync(workspaceUri('.cursor/hooks.json').fsPath, 'utf8'));
    assert.equal(cursor.version, 1);

    await vscode.commands.executeCommand('intentGovernor.installHooks', ['vscode', 'claude', 'cursor'], 'uninstall');
    for (const file of ['.github/hooks/intent-governor.json', '.claude/settings.local.json', '.cursor/hooks.json']) {
      assert.equal(existsSync(workspaceUri(file).fsPath), false, `${file} is still there`);
    }
    // Nothing of ours is left: Claude's config held only the governor's server (the install made it), so it goes.
    assert.equal(existsSync(claudeConfig), false, `${claudeConfig} is still there`);
  });
});
