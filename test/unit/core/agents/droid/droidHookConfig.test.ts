import { strict as assert } from 'node:assert';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';
import { ourJsonHandlers } from '../../../../../src/core/agents/doctor/installedDoors';
import { agentById } from '../../../../../src/core/agents/registry';

const CLI = '/opt/intent governor/dist/hook.js';

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('Factory Droid hook config (.factory/hooks.json)', () => {
  // Droid's hooks.json is the events themselves, without a `hooks` key around them.
  const mine = { PreToolUse: [{ matcher: 'Execute', hooks: [{ type: 'command', command: './lint.sh' }] }] };

  it('writes every tool and the lifecycle events at the top of the file, keeping the user’s hooks, once however often it runs', () => {
    const once = text(installHookConfig('droid', JSON.stringify(mine), CLI));
    assert.equal(text(installHookConfig('droid', once, CLI)), once);
    const config = JSON.parse(once);
    assert.equal(config.hooks, undefined, 'no hooks wrapper: Droid would read none of it');
    // Seconds, above the bridge's own deadline (Droid's default is 60 s, and a timeout lets the tool run).
    const ours = { type: 'command', command: hookCommandFor('droid', CLI), timeout: 120 };
    assert.deepEqual(config.PreToolUse, [mine.PreToolUse[0], { matcher: '*', hooks: [ours] }]);
    assert.deepEqual(config.PostToolUse, [{ matcher: '*', hooks: [ours] }]);
    const lifecycle = ['SessionStart', 'UserPromptSubmit', 'SessionEnd', 'PreCompact', 'Notification'];
    for (const event of lifecycle) assert.deepEqual(config[event], [{ hooks: [ours] }], event);
    assert.deepEqual(Object.keys(config).sort(), ['PostToolUse', 'PreToolUse', ...lifecycle].sort(), 'not Stop or SubagentStop: their exit 2 loops Droid');
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('droid', once))), mine);
  });

  it('uninstall leaves no file when only ours was in it', () => {
    const once = text(installHookConfig('droid', undefined, CLI));
    assert.equal(uninstallHookConfig('droid', once).ok && (uninstallHookConfig('droid', once) as { text: string | null }).text, null);
  });

  it("the doctor finds our entries where Droid reads them (the file's top level)", () => {
    const config = JSON.parse(text(installHookConfig('droid', JSON.stringify(mine), CLI)));
    const found = ourJsonHandlers(agentById('droid'), config);
    assert.deepEqual(Object.keys(found).sort(), ['Notification', 'PostToolUse', 'PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart', 'UserPromptSubmit']);
    assert.equal(found.PreToolUse[0].matcher, '*');
    assert.deepEqual(ourJsonHandlers(agentById('droid'), { hooks: config }), {}, 'under a hooks key Droid reads nothing');
  });
});
