import { strict as assert } from 'node:assert';
import { modeInEffect, needsPerson, resolveApprovalSetting } from '../../../../src/core/approval/approvalPolicy';

describe('approval policy', () => {
  it('every change asks when the user set nothing, at every door', () => {
    assert.deepEqual(resolveApprovalSetting({}, {}), { mode: 'every-change', from: 'default' });
    assert.deepEqual(resolveApprovalSetting(undefined, undefined), { mode: 'every-change', from: 'default' });
  });

  it('follows intentGovernor.approval at its most specific level', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'destructive-only' }, {}), { mode: 'destructive-only', from: 'setting' });
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'destructive-only', workspaceValue: 'every-change' }, {}), { mode: 'every-change', from: 'setting' });
  });

  it('maps an explicitly set approveWrites, with a deprecation line to log', () => {
    const off = resolveApprovalSetting({}, { globalValue: false });
    assert.equal(off.mode, 'destructive-only');
    assert.match(off.deprecation!, /approveWrites is deprecated: its value false is read as intentGovernor.approval = destructive-only/);
    assert.equal(resolveApprovalSetting({}, { workspaceValue: true }).mode, 'every-change');
  });

  it('the new setting wins over the deprecated one when both are set', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'every-change' }, { globalValue: false }), { mode: 'every-change', from: 'setting' });
  });

  it('an unknown value counts as unset: the asking side', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'never' }, {}), { mode: 'every-change', from: 'default' });
  });

  it('an intent’s own approval wins over the setting, and the answer names what set the mode', () => {
    assert.deepEqual(modeInEffect({ id: 'auth-refactor', approval: 'destructive-only' }, { approval: 'every-change', approvalFrom: 'setting' }), { mode: 'destructive-only', setBy: 'set by intent auth-refactor' });
    assert.deepEqual(modeInEffect({ id: 'auth-refactor' }, { approval: 'destructive-only', approvalFrom: 'setting' }), { mode: 'destructive-only', setBy: 'set by the intentGovernor.approval setting' });
    assert.deepEqual(modeInEffect(undefined, { approval: 'every-change' }), { mode: 'every-change', setBy: 'the default' });
  });

  it('the table: deletes and scope expansions always ask, changes under every-change or untrusted, reads never', () => {
    for (const mode of ['every-change', 'destructive-only'] as const) {
      assert.equal(needsPerson('delete', mode, true), true);
      assert.equal(needsPerson('scope', mode, true), true);
      assert.equal(needsPerson('none', mode, false), false);
      assert.equal(needsPerson('change', mode, false), true);
    }
    assert.equal(needsPerson('change', 'every-change', true), true);
    assert.equal(needsPerson('change', 'destructive-only', true), false);
  });
});
