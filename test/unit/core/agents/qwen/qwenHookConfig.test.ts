import { strict as assert } from 'node:assert';
import { hookCommandFor, installHookConfig, uninstallHookConfig } from '../../../../../src/core/agents/agentHooks';

const CLI = '/opt/intent governor/dist/hook.js';

function text(edit: ReturnType<typeof installHookConfig>): string {
  assert.ok(edit.ok, edit.ok ? '' : edit.message);
  return edit.text ?? '';
}

describe('Qwen Code hook config (.qwen/settings.json)', () => {
  const mine = { model: { name: 'qwen3-coder-plus' }, hooks: { PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh' }] }] } };

  it('writes every tool and the lifecycle events in Claude Code’s shape, keeping the user’s settings and hooks, once however often it runs', () => {
    const once = text(installHookConfig('qwen', JSON.stringify(mine), CLI));
    assert.equal(text(installHookConfig('qwen', once, CLI)), once);
    const config = JSON.parse(once);
    assert.deepEqual(config.model, mine.model);
    // Seconds (below 1000, so Qwen Code does not read it as milliseconds), above the bridge's own deadline.
    const ours = { name: 'intent-governor', type: 'command', command: hookCommandFor('qwen', CLI), timeout: 120 };
    assert.deepEqual(config.hooks.PreToolUse, [mine.hooks.PreToolUse[0], { matcher: '*', hooks: [ours] }]);
    assert.deepEqual(config.hooks.PostToolUse, [{ matcher: '*', hooks: [ours] }]);
    const lifecycle = ['SessionStart', 'UserPromptSubmit', 'SessionEnd', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification'];
    for (const event of lifecycle) assert.deepEqual(config.hooks[event], [{ hooks: [ours] }], event);
    assert.deepEqual(Object.keys(config.hooks).sort(), ['PostToolUse', 'PreToolUse', ...lifecycle].sort());
    assert.deepEqual(JSON.parse(text(uninstallHookConfig('qwen', once))), mine);
  });

});
