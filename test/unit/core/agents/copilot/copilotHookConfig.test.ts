import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOOK_CONFIG_FILES } from '../../../../../src/core/agents/registry';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { createHarness } from '../../../../support/governorHarness';
import { runGovernor } from '../../../../support/runGovernor';

const CLI = '/opt/intent governor/dist/hook.js';
const EVENTS = ['agentStop', 'postToolUse', 'postToolUseFailure', 'preCompact', 'preToolUse', 'sessionEnd', 'sessionStart', 'subagentStart', 'subagentStop', 'userPromptSubmitted'];

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('GitHub Copilot CLI hook config (.github/hooks/intent-governor-copilot.json)', () => {
  const mine = { version: 1, disableAllHooks: false, hooks: { preToolUse: [{ type: 'command', bash: './audit.sh', timeoutSec: 5 }] } };

  it('is a file of its own beside VS Code’s in .github/hooks/, which both agents read', () => {
    assert.equal(HOOK_CONFIG_FILES.copilot, '.github/hooks/intent-governor-copilot.json');
    assert.notEqual(HOOK_CONFIG_FILES.copilot, HOOK_CONFIG_FILES.vscode);
  });

  it('writes every tool and the lifecycle events in camelCase (version 1), keeping the user’s hooks and keys, once however often it runs', () => {
    const once = text(installHookConfig('copilot', JSON.stringify(mine), CLI));
    assert.equal(text(installHookConfig('copilot', once, CLI)), once);
    const config = JSON.parse(once);
    assert.equal(config.version, 1);
    assert.equal(config.disableAllHooks, false);
    const ours = { type: 'command', command: hookCommandFor('copilot', CLI), timeoutSec: 120 };
    assert.deepEqual(config.hooks.preToolUse, [mine.hooks.preToolUse[0], ours]);
    for (const event of EVENTS.filter((e) => e !== 'preToolUse')) assert.deepEqual(config.hooks[event], [ours], event);
    assert.deepEqual(Object.keys(config.hooks).sort(), EVENTS);
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('copilot', once))), mine);
  });

  it('adds version 1 to a new file, and removes the file on uninstall when nothing of the user’s is left in it', () => {
    const fresh = JSON.parse(text(installHookConfig('copilot', undefined, CLI)));
    assert.equal(fresh.version, 1);
    assert.deepEqual(uninstallHookConfig('copilot', JSON.stringify(fresh)), { ok: true, text: null });
  });

  it('on Windows names this machine’s hook bundle (PowerShell cannot run the POSIX guard); its failures are denies elsewhere: see installedHookFailures', () => {
    assert.equal(hookCommandFor('copilot', CLI, 'win32'), `node "${CLI}" hook copilot --timeout-ms 110000`);
  });

  it('`governor hooks install --agent copilot` writes the file beside the user’s hook files; uninstall removes only ours', async () => {
    const h = await createHarness();
    try {
      await mkdir(join(h.root, '.github', 'hooks'), { recursive: true });
      await writeFile(join(h.root, '.github', 'hooks', 'audit.json'), JSON.stringify(mine));
      const installed = await runGovernor(['hooks', 'install', '--agent', 'copilot', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /^copilot: .*\/\.github\/hooks\/intent-governor-copilot\.json written$/m);
      const config = JSON.parse(await readFile(join(h.root, HOOK_CONFIG_FILES.copilot), 'utf8'));
      assert.equal(config.hooks.preToolUse[0].command, hookCommandFor('copilot', ''), 'the launcher, not this machine’s path');
      const removed = await runGovernor(['hooks', 'uninstall', '--agent', 'copilot', '--workspace', h.root], { anchorDir: h.root });
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stdout, /^copilot: .*intent-governor-copilot\.json removed$/m);
      assert.deepEqual(JSON.parse(await readFile(join(h.root, '.github', 'hooks', 'audit.json'), 'utf8')), mine);
    } finally {
      await h.dispose();
    }
  });
});
