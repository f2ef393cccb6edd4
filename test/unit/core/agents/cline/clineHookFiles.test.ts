import { strict as assert } from 'node:assert';
import { agentHookCommand } from '../../../../../src/core/agents/common/hookCommand';
import { clineDialect } from '../../../../../src/core/agents/cline/clineDialect';
import { clineHookCommands } from '../../../../../src/core/agents/cline/clineHookFiles';

/** Which of Cline's hook files an install writes: a PostToolUse file is a process per tool call, written only when needed. */
describe('Cline hook files: clineHookCommands', () => {
  const command = agentHookCommand(clineDialect, '/opt/ig/dist/hook.js', 'linux');

  it('no PostToolUse file; the PreToolUse command says every tool sends no post, the others are the shared command', () => {
    const commands = clineHookCommands(command, { hooks: [{ event: 'PreToolUse', matcher: '*' }], unreadable: false });
    assert.equal(commands.PostToolUse, null);
    assert.equal(commands.SessionShutdown, command);
    assert.equal(commands.PreToolUse, command.replace(/^(ig_l="[^"]+";)/u, "$1 export INTENT_GOVERNOR_UNPOSTED='*';"));
    assert.notEqual(commands.PreToolUse, command);
    assert.deepEqual(clineHookCommands(command, undefined), commands, 'nothing declared: the same');
  });

  it('keeps the PostToolUse file when a PostToolUse hook of the user’s is declared, or a hook file cannot be read, and on Windows', () => {
    for (const declared of [{ hooks: [{ event: 'PostToolUse', matcher: 'Bash' }], unreadable: false }, { hooks: [{ event: 'PostToolUseFailure', matcher: '*' }], unreadable: false }, { hooks: [], unreadable: true }]) {
      assert.deepEqual(clineHookCommands(command, declared), { PreToolUse: command, PostToolUse: command, SessionShutdown: command }, JSON.stringify(declared));
    }
    const windows = agentHookCommand(clineDialect, 'C:\\ig\\dist\\hook.js', 'win32');
    assert.deepEqual(clineHookCommands(windows, undefined), { PreToolUse: windows, PostToolUse: windows, SessionShutdown: windows });
  });
});
