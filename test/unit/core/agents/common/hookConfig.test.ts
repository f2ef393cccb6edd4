import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { CURSOR_GATE_EVENTS, CURSOR_OBSERVE_EVENTS } from '../../../../../src/core/agents/cursor/cursorHookConfig';
import { createHarness } from '../../../../support/governorHarness';
import { runGovernor } from '../../../../support/runGovernor';
import { removeTree } from '../../../../support/removeTree';

const CLI = '/opt/intent governor/dist/cli.js';

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('hook configs (install / uninstall)', () => {
  it('writes the exact Claude Code settings, keeping the user’s other hooks and keys, once however often it runs', () => {
    const mine = JSON.stringify({ permissions: { allow: ['Bash(npm test)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }] } });
    const once = text(installHookConfig('claude', mine, CLI, { claudeHooks: 'command' }));
    const twice = text(installHookConfig('claude', once, CLI, { claudeHooks: 'command' }));
    assert.equal(twice, once);
    const config = JSON.parse(once);
    assert.deepEqual(config.permissions, { allow: ['Bash(npm test)'] });
    const ours = { type: 'command', command: hookCommandFor('claude', CLI), timeout: 120 };
    assert.deepEqual(config.hooks.PreToolUse, [
      { matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] },
      { matcher: '^(?:Write|Edit|MultiEdit|NotebookEdit|Bash|Read)$|^mcp__(?!intent-governor__)', hooks: [ours] },
    ]);
    // Claude Code tests a matcher that is not plain names as an unanchored regular expression.
    const pre = new RegExp(config.hooks.PreToolUse[1].matcher);
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'Read', 'mcp__github__create_issue']) assert.ok(pre.test(tool), `${tool} reaches the governor`);
    for (const tool of ['TodoWrite', 'BashOutput', 'Glob', 'mcp__intent-governor__select_active_intent']) assert.equal(pre.test(tool), false, `${tool} does not`);
    assert.deepEqual(config.hooks.PostToolUse, [{ matcher: 'Write|Edit|MultiEdit|Read|Bash', hooks: [ours] }], 'post-hooks run for Bash too, with its real response');
    for (const event of ['PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification']) {
      assert.deepEqual(config.hooks[event], [{ hooks: [ours] }], `${event} reaches the project's hooks`);
    }
    assert.deepEqual(config.hooks.SessionStart, [{ hooks: [ours] }]);
    assert.deepEqual(config.hooks.SessionEnd, [{ hooks: [ours] }], 'so the extension frees what it kept for the conversation');
    const removed = JSON.parse(text(uninstallHookConfig('claude', once)));
    assert.deepEqual(removed, JSON.parse(mine));
  });

  it('writes VS Code’s and Cursor’s formats, and uninstall leaves no file behind when nothing else is in it', () => {
    const vscode = JSON.parse(text(installHookConfig('vscode', undefined, CLI)));
    assert.deepEqual(vscode.hooks.PreToolUse, [{ type: 'command', command: hookCommandFor('vscode', CLI), timeout: 120 }]);
    const cursor = JSON.parse(text(installHookConfig('cursor', undefined, CLI)));
    assert.equal(cursor.version, 1);
    assert.deepEqual(Object.keys(cursor.hooks), [...CURSOR_GATE_EVENTS, ...CURSOR_OBSERVE_EVENTS], 'the events cursorHookEntries installs (their shapes: cursorHookConfig.test.ts)');
    assert.deepEqual(Object.keys(vscode.hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact']);
    assert.deepEqual(uninstallHookConfig('cursor', JSON.stringify(cursor)), { ok: true, text: null });
    assert.deepEqual(uninstallHookConfig('vscode', JSON.stringify(vscode)), { ok: true, text: null });
  });

  it("`governor hooks install` with no claude on PATH picks the resident governor, says so, and writes Claude's config under the HOME it runs with", async () => {
    const h = await createHarness();
    const home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    try {
      const installed = await runGovernor(['hooks', 'install', '--agent', 'claude', '--workspace', h.root], { anchorDir: h.root, home, env: { PATH: '/nonexistent' } });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /claude: mcp_tool hooks answered by the resident governor \(no claude on PATH; --claude-hooks chooses\)/);
      assert.match(installed.stdout, new RegExp(`claude: ${home}/\\.claude\\.json written`));
      const claude = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8'));
      assert.ok(claude.projects[h.root].mcpServers['intent-governor']);
    } finally {
      await h.dispose();
      await removeTree(home);
    }
  });

  it('refuses to touch a config that is not valid JSON', () => {
    const edit = installHookConfig('cursor', '{ "version": 1, ', CLI);
    assert.equal(edit.ok, false);
  });

  it('`governor hooks install` / `uninstall` change the workspace files, keeping other hooks', async () => {
    const h = await createHarness();
    try {
      await mkdir(join(h.root, '.cursor'), { recursive: true });
      await writeFile(join(h.root, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { stop: [{ command: './notify.sh' }] } }));
      const installed = await runGovernor(['hooks', 'install', '--claude-hooks', 'command', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /claude: .*settings\.local\.json written/);
      const claude = JSON.parse(await readFile(join(h.root, '.claude', 'settings.local.json'), 'utf8'));
      assert.equal(claude.hooks.PreToolUse[0].hooks[0].command, hookCommandFor('claude', ''), 'the launcher, not this machine’s path');
      const cursor = JSON.parse(await readFile(join(h.root, '.cursor', 'hooks.json'), 'utf8'));
      assert.deepEqual(cursor.hooks.stop[0], { command: './notify.sh' }, "the user's own stop hook is kept, ours follows it");
      assert.equal(cursor.hooks.stop.length, 2);
      const removed = await runGovernor(['hooks', 'uninstall', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(removed.code, 0, removed.stderr);
      await assert.rejects(stat(join(h.root, '.claude', 'settings.local.json')));
      await assert.rejects(stat(join(h.root, '.github', 'hooks', 'intent-governor.json')));
      assert.deepEqual(JSON.parse(await readFile(join(h.root, '.cursor', 'hooks.json'), 'utf8')), { version: 1, hooks: { stop: [{ command: './notify.sh' }] } });
    } finally {
      await h.dispose();
    }
  });
});
