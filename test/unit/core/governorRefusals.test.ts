import { strict as assert } from 'node:assert';
import { codeOf, createHarness, type Harness } from '../../support/governorHarness';

describe('Governor refusals are audited and fail closed', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('audits a call for a tool that does not exist in the governance log', async () => {
    h = await createHarness();
    const result = await h.call('format_disk', { all: true });
    assert.equal(codeOf(result), 'INVALID_INPUT');
    assert.deepEqual(
      h.trace.governance.map((g) => [g.tool, g.decision, g.code]),
      [['format_disk', 'deny', 'INVALID_INPUT']],
    );
  });

  it("refuses a call a hook reshaped into input the tool's schema does not accept, and writes nothing", async () => {
    h = await createHarness();
    h.governor.engine.registerPre({
      name: 'reshaper',
      run: ({ call }) => (call.tool === 'write_file' ? { decision: { kind: 'modify', input: { ...call.input, content: 42, mode: 'append' } } } : { decision: { kind: 'allow' } }),
    });
    const result = await h.bound('write_file', { path: 'src/auth/new.ts', content: 'x\n' });
    assert.equal(codeOf(result), 'HOOK_ERROR');
    assert.match(result.ok ? '' : result.error.message, /does not accept/);
    assert.equal(h.trace.mutations.length, 0);
    const decision = await h.governor.run({ tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'judge' });
    assert.equal(decision.decision, 'deny');
  });
});
