import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installClaudeLocalServer, uninstallClaudeLocalServer } from '../../../../../src/core/agents/claude/claudeLocalServer';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { applyHookConfig } from '../../../../../src/core/agents/agentHooks';
import { RESIDENT_HOOK_FIELDS } from '../../../../../src/core/agents/claude/residentHook';

const CLI = '/opt/governor/dist/hook.js';
const text = (edit: ReturnType<typeof installHookConfig>): string => {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
};

describe('Claude Code with the resident governor: what install writes', () => {
  it('every tool but the read-only ones goes to the hook tool before it runs (an unknown or foreign MCP tool included), Read after; every event with the whole hook input and the routing; SessionStart and SessionEnd stay command hooks', () => {
    const config = JSON.parse(text(installHookConfig('claude', undefined, CLI, { claudeHooks: 'mcp_tool' })));
    const [pre] = config.hooks.PreToolUse;
    // Claude Code tests a matcher that is not a list of names as an unanchored JavaScript regular expression.
    const sent = (name: string) => new RegExp(pre.matcher).test(name);
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'Bash', 'Read', 'NotebookEdit', 'Workflow', 'AgentX', 'mcp__other__write_file', 'mcp__intent-governor-x__write', '']) assert.ok(sent(tool), `${tool} reaches the governor`);
    for (const tool of ['Agent', 'ToolSearch', 'Skill', 'WebFetch', 'TodoWrite', 'mcp__intent-governor__write_file']) assert.ok(!sent(tool), `${tool} is answered without a round trip`);
    assert.deepEqual(pre.hooks[0].server, 'intent-governor');
    assert.deepEqual(pre.hooks[0].tool, 'agent_hook');
    assert.equal(pre.hooks[0].onFailure, 'block', 'a governor that is not there blocks');
    assert.deepEqual(Object.keys(pre.hooks[0].input), [...RESIDENT_HOOK_FIELDS, 'routing']);
    assert.equal(pre.hooks[0].input.tool_input, '${tool_input}');
    assert.deepEqual(JSON.parse(pre.hooks[0].input.routing).posts, ['Read'], 'the hooks tell the governor which posts never come');
    assert.equal(config.hooks.PostToolUse[0].matcher, 'Read', "a Read's post feeds the read ledger; writes and edits are completed by the governor itself");
    for (const event of ['PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PermissionRequest']) assert.equal(config.hooks[event][0].hooks[0].type, 'mcp_tool', event);
    for (const event of ['PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PermissionRequest']) assert.equal(config.hooks[event][0].matcher, undefined, `${event}: every tool`);
    for (const event of ['SessionStart', 'SessionEnd']) assert.equal(config.hooks[event][0].hooks[0].command, hookCommandFor('claude', CLI), event);
    assert.deepEqual(config.permissions.deny, ['mcp__intent-governor__agent_hook'], 'the model may not call the hook tool itself');
  });

  it("routes every tool event the user's hooks need: a hook for a read-only tool, for every post, or an unreadable hooks file", () => {
    const install = (hooks: { event: string; matcher: string }[], unreadable = false) => JSON.parse(text(installHookConfig('claude', undefined, CLI, { claudeHooks: 'mcp_tool', declaredHooks: () => ({ hooks, unreadable }) }))).hooks;
    const toolSearch = install([{ event: 'PreToolUse', matcher: 'ToolSearch' }]);
    assert.ok(new RegExp(toolSearch.PreToolUse[0].matcher).test('ToolSearch'), 'a PreToolUse hook for ToolSearch: Claude Code sends it');
    assert.ok(!new RegExp(toolSearch.PreToolUse[0].matcher).test('Agent'));
    assert.equal(install([{ event: 'PostToolUse', matcher: 'Edit|Write' }]).PostToolUse[0].matcher, 'Read|Write|Edit|MultiEdit', 'the posts a hook for Edit|Write runs on (MultiEdit is an edit)');
    assert.equal(install([{ event: 'PostToolUse', matcher: 'write_file' }]).PostToolUse[0].matcher, 'Read|Write', 'a hook written for the governed tool');
    assert.equal(install([{ event: 'PostToolUse', matcher: '' }]).PostToolUse[0].matcher, '*');
    assert.equal(install([{ event: 'PostToolUse', matcher: 'Wr.*' }]).PostToolUse[0].matcher, '*', 'a regular expression: every post');
    assert.equal(install([{ event: 'PreToolUse', matcher: '*' }]).PreToolUse[0].matcher, '*');
    assert.equal(install([{ event: 'Stop', matcher: '' }]).PreToolUse[0].matcher.startsWith('^(?!'), true, "another event's hooks change nothing");
    const broken = install([], true);
    assert.deepEqual([broken.PreToolUse[0].matcher, broken.PostToolUse[0].matcher], ['*', '*'], 'a hooks file that cannot be read may declare anything');
  });

  it("keeps the user's hooks and permissions, replaces an older install of either kind, and uninstall leaves exactly the user's", () => {
    const mine = JSON.stringify({ permissions: { deny: ['Bash(rm:*)'], allow: ['Read'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }] } });
    const command = text(installHookConfig('claude', mine, CLI, { claudeHooks: 'command' }));
    const resident = JSON.parse(text(installHookConfig('claude', command, CLI, { claudeHooks: 'mcp_tool' })));
    assert.deepEqual(resident.hooks.PreToolUse.map((e: { matcher: string }) => e.matcher.slice(0, 4)), ['Bash', '^(?!'], 'the command install was replaced, not added to');
    assert.deepEqual(resident.permissions, { deny: ['Bash(rm:*)', 'mcp__intent-governor__agent_hook'], allow: ['Read'] });
    const again = text(installHookConfig('claude', JSON.stringify(resident), CLI, { claudeHooks: 'mcp_tool' }));
    assert.deepEqual(JSON.parse(again), resident, 'installing twice changes nothing');
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('claude', again))), JSON.parse(mine));
  });

  it("registers the server in Claude's own config as the project's local-scope server, keeping everything else, and removes only ours", () => {
    const existing = JSON.stringify({ numStartups: 3, projects: { '/ws': { allowedTools: [], mcpServers: { github: { type: 'http', url: 'https://x' } } }, '/other': {} } });
    const installed = JSON.parse(text(installClaudeLocalServer(existing, '~/.claude.json', '/ws', '/opt/governor/dist/cli.js')));
    assert.equal(installed.numStartups, 3);
    assert.deepEqual(installed.projects['/ws'].mcpServers['intent-governor'], { type: 'stdio', command: 'node', args: ['/opt/governor/dist/cli.js', 'mcp', '--workspace', '/ws', '--agent', 'claude'], env: {} });
    assert.deepEqual(installed.projects['/ws'].mcpServers.github, { type: 'http', url: 'https://x' });
    assert.deepEqual(installed.projects['/other'], {});
    const removed = JSON.parse(text(uninstallClaudeLocalServer(JSON.stringify(installed), '~/.claude.json', '/ws')));
    assert.deepEqual(removed, JSON.parse(existing));
  });

  it('uninstall leaves no stub: a config the install made is removed, an emptied projects map goes', () => {
    const made = text(installClaudeLocalServer(undefined, '~/.claude.json', '/ws', '/opt/governor/dist/cli.js'));
    assert.deepEqual(uninstallClaudeLocalServer(made, '~/.claude.json', '/ws'), { ok: true, text: null });
    const withOther = JSON.stringify({ ...(JSON.parse(made) as object), theme: 'dark' });
    assert.deepEqual(JSON.parse(text(uninstallClaudeLocalServer(withOther, '~/.claude.json', '/ws'))), { theme: 'dark' });
  });

  it("refuses to replace a server of the user's that has our name, and never rewrites a config it cannot read", () => {
    const theirs = JSON.stringify({ projects: { '/ws': { mcpServers: { 'intent-governor': { type: 'http', url: 'https://theirs' } } } } });
    const refused = installClaudeLocalServer(theirs, '~/.claude.json', '/ws', '/cli.js');
    assert.ok(!refused.ok);
    assert.match(refused.message, /already has an MCP server named 'intent-governor'/);
    assert.deepEqual(uninstallClaudeLocalServer(theirs, '~/.claude.json', '/ws'), { ok: true, text: theirs }, 'uninstall leaves their server alone');
    const broken = installClaudeLocalServer('{ not json', '~/.claude.json', '/ws', '/cli.js');
    assert.ok(!broken.ok);
    assert.match(broken.message, /is not a JSON object/);
  });

  it('applyHookConfig writes both files: the workspace hooks and Claude config under the HOME (or CLAUDE_CONFIG_DIR) it is given', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ig-resident-install-'));
    try {
      await writeFile(join(root, 'keep'), '');
      // With no CLI beside the hook bundle the server entry could not start: install fails, naming the file.
      const missing = await applyHookConfig(root, 'claude', 'install', join(root, 'dist', 'hook.js'), { claudeHooks: 'mcp_tool', env: { HOME: join(root, 'home') } });
      assert.deepEqual(missing.map((c) => c.action), ['failed']);
      assert.match(missing[0].action === 'failed' ? missing[0].message : '', /not at .*dist\/cli\.js/);
      await mkdir(join(root, 'dist'), { recursive: true });
      await writeFile(join(root, 'dist', 'cli.js'), '');
      const changes = await applyHookConfig(root, 'claude', 'install', join(root, 'dist', 'hook.js'), { claudeHooks: 'mcp_tool', env: { HOME: join(root, 'home') } });
      assert.deepEqual(changes.map((c) => [c.file.replace(root, '<root>'), c.action]), [['<root>/.claude/settings.local.json', 'written'], ['<root>/home/.claude.json', 'written']]);
      const claude = JSON.parse(await readFile(join(root, 'home', '.claude.json'), 'utf8'));
      assert.deepEqual(claude.projects[root].mcpServers['intent-governor'].args.slice(0, 2), [join(root, 'dist', 'cli.js'), 'mcp']);
      const custom = await applyHookConfig(root, 'claude', 'install', join(root, 'dist', 'hook.js'), { claudeHooks: 'mcp_tool', env: { HOME: join(root, 'home'), CLAUDE_CONFIG_DIR: join(root, 'cfg') } });
      assert.equal(custom[1].file, join(root, 'cfg', '.claude.json'));
      const gone = await applyHookConfig(root, 'claude', 'uninstall', join(root, 'dist', 'hook.js'), { env: { HOME: join(root, 'home') } });
      assert.deepEqual(gone.map((c) => c.action), ['removed', 'removed']);
      // No empty stub is left: the config the install made held only our server.
      assert.equal(existsSync(join(root, 'home', '.claude.json')), false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
