import { strict as assert } from 'node:assert';
import { hookPayloadFrom } from '../../../src/cli/residentHookTool';

describe("the resident governor's hook tool input", () => {
  it("rebuilds Claude's hook input from the interpolated strings: objects from their JSON, missing fields left out", () => {
    const payload = hookPayloadFrom({
      hook_event_name: 'PostToolUse',
      session_id: 's1',
      cwd: '/ws',
      tool_name: 'Bash',
      tool_input: '{"command":"ls"}',
      tool_response: '{"stdout":"a\\n","stderr":""}',
      prompt: '',
      agent_id: '',
    });
    assert.deepEqual(payload, { hook_event_name: 'PostToolUse', session_id: 's1', cwd: '/ws', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a\n', stderr: '' } });
  });

  it('keeps a tool_response that is plain text, and a tool_input that is not JSON stays a string (the parser then refuses the call)', () => {
    const payload = hookPayloadFrom({ hook_event_name: 'PreToolUse', tool_input: 'not json', tool_response: 'plain' });
    assert.equal(payload.tool_input, 'not json');
    assert.equal(payload.tool_response, 'plain');
  });
});
