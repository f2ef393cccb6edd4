import { strict as assert } from 'node:assert';
import { cursorHookEntries } from '../../../../../src/core/agents/cursor/cursorHookConfig';

const COMMAND = 'node "/opt/intent governor/dist/hook.js" hook cursor --timeout-ms 110000';

describe('Cursor hook entries (.cursor/hooks.json)', () => {
  it('registers every gate with failClosed, one post event per call, and the session events, each for every tool', () => {
    const entries = cursorHookEntries(COMMAND);
    const gate = { command: COMMAND, timeout: 120, failClosed: true };
    const observe = { command: COMMAND, timeout: 120 };
    assert.deepEqual(entries, {
      preToolUse: [gate],
      beforeShellExecution: [gate],
      beforeReadFile: [gate],
      beforeMCPExecution: [gate],
      beforeSubmitPrompt: [gate],
      sessionStart: [gate],
      subagentStart: [gate],
      postToolUse: [observe],
      postToolUseFailure: [observe],
      subagentStop: [observe],
      preCompact: [observe],
      stop: [observe],
      sessionEnd: [observe],
    });
    for (const [event, list] of Object.entries(entries)) {
      const entry = list[0] as Record<string, unknown>;
      assert.equal(entry.matcher, undefined, `${event}: no matcher, so an unknown tool reaches the governor`);
      assert.ok((entry.timeout as number) * 1000 > 110_000, `${event}: Cursor waits longer than the bridge (--timeout-ms 110000)`);
    }
  });

  it('leaves out the after… events that report a call postToolUse already reports (each edit is traced once)', () => {
    const entries = cursorHookEntries(COMMAND);
    for (const event of ['afterFileEdit', 'afterShellExecution', 'afterMCPExecution']) assert.equal(entries[event], undefined, event);
  });
});
