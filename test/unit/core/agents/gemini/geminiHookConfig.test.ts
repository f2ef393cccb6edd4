import { strict as assert } from 'node:assert';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { geminiHookEntries } from '../../../../../src/core/agents/gemini/geminiHookConfig';
import { createHarness } from '../../../../support/governorHarness';
import { runGovernor } from '../../../../support/runGovernor';

const CLI = '/opt/intent governor/dist/hook.js';

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('Gemini CLI hook config (.gemini/settings.json)', () => {
  const mine = { general: { vimMode: true }, mcpServers: { docs: { command: 'docs-server' } }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh' }] }] } };

  it('writes every tool and the lifecycle events in Gemini CLI’s shape, keeping the user’s settings and hooks, once however often it runs', () => {
    const once = text(installHookConfig('gemini', JSON.stringify(mine), CLI));
    assert.equal(text(installHookConfig('gemini', once, CLI)), once);
    const config = JSON.parse(once);
    assert.deepEqual(config.general, mine.general);
    assert.deepEqual(config.mcpServers, mine.mcpServers);
    const ours = { name: 'intent-governor', type: 'command', command: hookCommandFor('gemini', CLI), timeout: 120000 };
    // BeforeTool says which tools send no AfterTool: the resident governor completes their changes itself.
    const unposted = ours.command.replace(/^(ig_l="[^"]+";)/u, "$1 export INTENT_GOVERNOR_UNPOSTED='write_file,replace';");
    assert.notEqual(unposted, ours.command);
    assert.deepEqual(config.hooks.BeforeTool, [mine.hooks.BeforeTool[0], { matcher: '*', hooks: [{ ...ours, command: unposted }] }]);
    assert.deepEqual(config.hooks.AfterTool, [{ matcher: '^(?!(?:write_file|replace)$)', hooks: [ours] }]);
    for (const event of ['SessionStart', 'BeforeAgent', 'AfterAgent', 'SessionEnd', 'Notification']) assert.deepEqual(config.hooks[event], [{ hooks: [ours] }], event);
    assert.deepEqual(Object.keys(config.hooks).sort(), ['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'Notification', 'SessionEnd', 'SessionStart']);
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('gemini', once))), mine);
  });

  it('leaves out the AfterTool of write_file and replace only, the way Gemini CLI tests a matcher (a regular expression, unanchored)', () => {
    const matcher = JSON.parse(text(installHookConfig('gemini', undefined, CLI))).hooks.AfterTool[0].matcher as string;
    const sent = ['read_file', 'run_shell_command', 'glob', 'write_file_x', 'my_replace', 'mcp_docs_write_file', 'unknown'];
    for (const tool of sent) assert.ok(new RegExp(matcher).test(tool), `${tool}'s AfterTool is sent`);
    for (const tool of ['write_file', 'replace']) assert.ok(!new RegExp(matcher).test(tool), `${tool}'s is not`);
  });

  it('keeps the AfterTool a PostToolUse hook of the user’s may need, every one when a hook file cannot be read, and all of them on Windows', () => {
    const install = (hooks: { event: string; matcher: string }[], unreadable = false) => {
      const doors: string[] = [];
      const config = JSON.parse(text(installHookConfig('gemini', undefined, CLI, { declaredHooks: (door) => (doors.push(door), { hooks, unreadable }) })));
      return { after: config.hooks.AfterTool[0].matcher as string, before: config.hooks.BeforeTool[0].hooks[0].command as string, doors };
    };
    const edits = install([{ event: 'PostToolUse', matcher: 'Edit|MultiEdit' }]);
    assert.equal(edits.after, '^(?!(?:write_file)$)', "Claude Code's Edit matches replace (edit_file): its post is sent");
    assert.match(edits.before, /export INTENT_GOVERNOR_UNPOSTED='write_file';/u);
    assert.deepEqual(edits.doors, ['gemini-cli'], "the hooks the governor runs for Gemini CLI");
    assert.equal(install([{ event: 'PostToolUseFailure', matcher: '*' }]).after, '*');
    assert.equal(install([{ event: 'PreToolUse', matcher: '*' }]).after, '^(?!(?:write_file|replace)$)', 'a PreToolUse hook needs no post');
    const unreadable = install([], true);
    assert.equal(unreadable.after, '*');
    assert.doesNotMatch(unreadable.before, /INTENT_GOVERNOR_UNPOSTED/u);
    const windows = geminiHookEntries(hookCommandFor('gemini', CLI, 'win32')) as Record<string, { matcher: string; hooks: { command: string }[] }[]>;
    assert.equal(windows.AfterTool[0].matcher, '*', "Windows' command cannot say which posts are left out");
    assert.equal(windows.BeforeTool[0].hooks[0].command, hookCommandFor('gemini', CLI, 'win32'));
  });

  it('removes the file on uninstall when nothing of the user’s is left in it', () => {
    assert.deepEqual(uninstallHookConfig('gemini', text(installHookConfig('gemini', undefined, CLI))), { ok: true, text: null });
  });

  it('on Windows names this machine’s hook bundle (PowerShell cannot run the POSIX guard); its failures are blocks elsewhere: see installedHookFailures', () => {
    assert.equal(hookCommandFor('gemini', CLI, 'win32'), `node "${CLI}" hook gemini --timeout-ms 110000`);
  });

  it('`governor hooks install --agent gemini` writes .gemini/settings.json beside the user’s settings; uninstall restores them', async () => {
    const h = await createHarness();
    try {
      await mkdir(join(h.root, '.gemini'), { recursive: true });
      await writeFile(join(h.root, '.gemini', 'settings.json'), JSON.stringify(mine));
      const installed = await runGovernor(['hooks', 'install', '--agent', 'gemini', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /^gemini: .*\/\.gemini\/settings\.json written$/m);
      const config = JSON.parse(await readFile(join(h.root, '.gemini', 'settings.json'), 'utf8'));
      assert.equal(config.hooks.AfterTool[0].hooks[0].command, hookCommandFor('gemini', ''), 'the launcher, not this machine’s path');
      const removed = await runGovernor(['hooks', 'uninstall', '--agent', 'gemini', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(removed.code, 0, removed.stderr);
      assert.deepEqual(JSON.parse(await readFile(join(h.root, '.gemini', 'settings.json'), 'utf8')), mine);
      await writeFile(join(h.root, '.gemini', 'settings.json'), '');
      await runGovernor(['hooks', 'install', '--agent', 'gemini', '--workspace', h.root], { anchorDir: h.root });
      await runGovernor(['hooks', 'uninstall', '--agent', 'gemini', '--workspace', h.root], { anchorDir: h.root });
      await assert.rejects(stat(join(h.root, '.gemini', 'settings.json')), 'a file that held only our hooks is removed');
    } finally {
      await h.dispose();
    }
  });
});
