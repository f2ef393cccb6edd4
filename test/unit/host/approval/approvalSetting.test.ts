import { strict as assert } from 'node:assert';
import { resolveApprovalSetting } from '../../../../src/host/approval/approvalSetting';

describe('approval setting', () => {
  it('in VS Code every change asks when the user set nothing', () => {
    assert.deepEqual(resolveApprovalSetting({}, {}), { mode: 'every-change' });
    assert.deepEqual(resolveApprovalSetting(undefined, undefined), { mode: 'every-change' });
  });

  it('follows intentGovernor.approval at its most specific level', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'destructive-only' }, {}), { mode: 'destructive-only' });
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'destructive-only', workspaceValue: 'every-change' }, {}), { mode: 'every-change' });
  });

  it('maps an explicitly set approveWrites, with a deprecation line to log', () => {
    const off = resolveApprovalSetting({}, { globalValue: false });
    assert.equal(off.mode, 'destructive-only');
    assert.match(off.deprecation!, /approveWrites is deprecated: its value false is read as intentGovernor.approval = destructive-only/);
    assert.equal(resolveApprovalSetting({}, { workspaceValue: true }).mode, 'every-change');
  });

  it('the new setting wins over the deprecated one when both are set', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'every-change' }, { globalValue: false }), { mode: 'every-change' });
  });

  it('an unknown value counts as unset: the asking side', () => {
    assert.deepEqual(resolveApprovalSetting({ globalValue: 'never' }, {}), { mode: 'every-change' });
  });
});
