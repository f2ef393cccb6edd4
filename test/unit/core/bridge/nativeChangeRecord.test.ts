import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { createHarness, type Harness } from '../../../support/governorHarness';

/** What an agent's native tool changed is traced even when no intent was bound: a change is never dropped. */
describe('native changes without an intent', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('records a native write the governor never authorized (no pre phase, no intent)', async () => {
    h = await createHarness();
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false });
    await writeFile(join(h.root, 'notes.md'), 'written by the agent\n');
    await bridge.handle({ phase: 'post', session_id: 'claude:x', agent: { name: 'claude-code' }, key: 'k1', calls: [{ tool: 'write_file', input: { path: 'notes.md', content: 'written by the agent\n' } }] });
    assert.equal(h.trace.mutations.length, 1);
    const [event] = h.trace.mutations;
    assert.equal(event.intent_id, undefined);
    assert.deepEqual(event.files.map((f) => [f.path, f.after]), [['notes.md', 'written by the agent\n']]);
  });

  it('refuses a pre phase with nothing to judge (an unknown field from a newer hook, a malformed request)', async () => {
    h = await createHarness();
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: false });
    const answer = await bridge.handle({ phase: 'pre', session_id: 'claude:x', agent: { name: 'claude-code' }, key: 'k2', calls: [] });
    assert.equal(answer.decision, 'deny');
  });
});
