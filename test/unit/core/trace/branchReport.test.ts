import { strict as assert } from 'node:assert';
import { buildBranchReport, mergeSpans, type ReportInputs } from '../../../../src/core/trace/branchReport';
import { branchChange } from '../../../support/branchChange';

const change = branchChange;

const inputs = (overrides: Partial<ReportInputs> = {}): ReportInputs => ({
  base: { commit: 'abc', said: 'main' },
  records: { trace: [], governance: [], unreadable: 0 },
  baseRecords: [{ log: '.orchestration/agent_trace.jsonl', records: 5 }],
  dropped: [],
  outOfScope: [],
  newSigners: [],
  ...overrides,
});

describe('branch report: the records a branch added, shaped for a reviewer', () => {
  it('merges overlapping and touching line ranges of a file, in order', () => {
    assert.deepEqual(mergeSpans([{ start: 8, end: 9 }, { start: 1, end: 3 }, { start: 4, end: 5 }, { start: 2, end: 2 }]), [{ start: 1, end: 5 }, { start: 8, end: 9 }]);
  });

  it('groups by intent, names the person behind a standing approval, and puts changes with no intent apart', () => {
    const standing = { approver: 'standing', standing: { session: 's', intent: 'app', granted_by: 'alice', granted_at: 't' } };
    const report = buildBranchReport(inputs({
      records: {
        trace: [change(1, 'src/a.ts', [[1, 2]]), change(2, 'src/a.ts', [[3, 4]], { approval: standing }), change(3, 'x.ts', [[1, 1]], { intent_id: undefined, agent: 'cursor' })],
        governance: [],
        unreadable: 1,
      },
      outOfScope: [{ traceLine: 2, intentId: 'app', path: 'src/a.ts', ownedScope: ['lib/**'] }],
    }));
    assert.deepEqual(report.intents.map((i) => i.intent), ['app', null]);
    assert.deepEqual(report.intents[0].files[0].lines, [{ start: 1, end: 4 }]);
    assert.deepEqual(report.intents[0].approvals.map((a) => [a.approver, a.standing]), [['alice', true]]);
    assert.equal(report.intents[0].outOfScope.length, 1);
    assert.deepEqual(report.summary, { changes: 3, agents: 2, intents: 1, refusals: 0, approvals: 1, commands: 0, outOfScope: 1, newSigners: 0 });
    assert.equal(report.unreadable, 1);
  });
});
