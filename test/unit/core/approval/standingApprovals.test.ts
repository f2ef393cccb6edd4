import { strict as assert } from 'node:assert';
import { StandingApprovals } from '../../../../src/core/approval/standingApprovals';

const T0 = new Date('2026-01-02T03:04:05.000Z');
const AUTH = { id: 'INT-001', owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' };

describe('StandingApprovals', () => {
  it('a grant covers its own session and intent only, and says who granted it and when', () => {
    const standing = new StandingApprovals(() => T0);
    standing.grant('s1', 'INT-001', 'modal', AUTH);
    assert.deepEqual(standing.find('s1', 'INT-001'), { session: 's1', intent: 'INT-001', granted_by: 'modal', granted_at: T0.toISOString(), basis: { owned_scope: ['src/auth/**'], status: 'IN_PROGRESS' } });
    assert.equal(standing.find('s2', 'INT-001'), undefined);
    assert.equal(standing.find('s1', 'INT-002'), undefined);
  });

  it('revoke ends one intent’s grant or all of a session’s, and tells listeners', () => {
    const standing = new StandingApprovals();
    let changes = 0;
    const stop = standing.onDidChange(() => changes++);
    standing.grant('s1', 'INT-001', 'modal', AUTH);
    standing.grant('s1', 'INT-002', 'modal', AUTH);
    standing.grant('s2', 'INT-001', 'modal', AUTH);
    assert.equal(standing.revoke('s1', 'INT-001'), true);
    assert.deepEqual(standing.list().map((a) => `${a.session}/${a.intent}`), ['s1/INT-002', 's2/INT-001']);
    assert.equal(standing.revoke('s1'), true);
    assert.deepEqual(standing.list().map((a) => `${a.session}/${a.intent}`), ['s2/INT-001']);
    assert.equal(standing.revoke('s1'), false);
    assert.equal(changes, 5);
    stop();
    standing.revoke('s2');
    assert.equal(changes, 5);
  });

  it('a grant ends when the intent’s scope or status changes', () => {
    const standing = new StandingApprovals();
    standing.grant('s1', 'INT-001', 'modal', AUTH);
    assert.ok(standing.findCurrent('s1', AUTH));
    assert.equal(standing.findCurrent('s1', { ...AUTH, owned_scope: ['src/**'] }), undefined);
    assert.equal(standing.find('s1', 'INT-001'), undefined, 'ended, not only skipped');
    standing.grant('s1', 'INT-001', 'modal', AUTH);
    assert.equal(standing.findCurrent('s1', { ...AUTH, status: 'BLOCKED' }), undefined);
  });

  it('a grant with nothing to compare the intent against never covers a change', () => {
    const standing = new StandingApprovals();
    standing.grant('s1', 'INT-001', 'modal');
    assert.equal(standing.findCurrent('s1', AUTH), undefined);
  });

  it('reconcile ends grants whose intent changed or is gone and keeps the rest', () => {
    const standing = new StandingApprovals();
    standing.grant('s1', 'INT-001', 'modal', AUTH);
    standing.grant('s2', 'INT-002', 'modal', AUTH);
    standing.grant('s3', 'INT-003', 'modal', AUTH);
    standing.reconcile([AUTH, { ...AUTH, id: 'INT-002', status: 'DONE' }]);
    assert.deepEqual(standing.list().map((a) => a.intent), ['INT-001']);
  });
});
