import { strict as assert } from 'node:assert';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
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
    assert.deepEqual(config.hooks.BeforeTool, [mine.hooks.BeforeTool[0], { matcher: '*', hooks: [ours] }]);
    assert.deepEqual(config.hooks.AfterTool, [{ matcher: '*', hooks: [ours] }]);
    for (const event of ['SessionStart', 'BeforeAgent', 'AfterAgent', 'SessionEnd', 'Notification']) assert.deepEqual(config.hooks[event], [{ hooks: [ours] }], event);
    assert.deepEqual(Object.keys(config.hooks).sort(), ['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'Notification', 'SessionEnd', 'SessionStart']);
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('gemini', once))), mine);
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
      assert.equal(config.hooks.BeforeTool[1].hooks[0].command, hookCommandFor('gemini', ''), 'the launcher, not this machine’s path');
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
