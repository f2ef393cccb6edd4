import { strict as assert } from 'node:assert';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { createHarness, type Harness } from '../../../support/governorHarness';

describe('NativeToolBridge', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('an agent’s SessionEnd ends that session’s standing approvals and no other', async () => {
    h = await createHarness();
    const standing = h.governor.services.standingApprovals;
    standing.grant('claude:abc', 'auth-refactor', 'modal:alice', { owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' });
    standing.grant('claude:other', 'auth-refactor', 'modal:alice', { owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' });
    const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
    await bridge.handle({ phase: 'end', session_id: 'claude:abc', agent: { name: 'claude-code' }, key: 'end', calls: [] });
    assert.deepEqual(standing.list().map((a) => a.session), ['claude:other']);
  });
});
