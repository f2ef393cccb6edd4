import { strict as assert } from 'node:assert';
import { driftedLines } from '../../../../src/core/trace/blameDrift';
import { blameFile } from '../../../../src/core/trace/traceBlame';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

describe('blameDrift', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({ intent_id: 'INT-A', timestamp: '2026-01-01T10:00:00.000Z', files: [{ path: 'src/a.ts', after: 'one\ntwo\n' }] }));
    await sink.recordMutation(mutationEvent({ intent_id: 'INT-B', timestamp: '2026-01-01T11:00:00.000Z', files: [{ path: 'src/a.ts', before: 'one\ntwo\n', after: 'one\ntwo\nthree\nfour\n' }] }));
    await sink.close();
  });
  afterEach(() => ws.dispose());

  it('marks lines a record wrote that a human edited since as drifted, and leaves intact ones attributed', async () => {
    const current = 'one\ntwo\nTHREE (edited)\nfour\n';
    const blame = await blameFile(ws.trace, 'src/a.ts', current);
    assert.deepEqual(blame.map((l) => l.intentId ?? '-'), ['INT-A', 'INT-A', '-', 'INT-B']);
    const drift = await driftedLines(ws.trace, 'src/a.ts', blame);
    assert.deepEqual(drift.map((d) => [d.line, d.intentId]), [[3, 'INT-B']]);
  });

  it('reports nothing when every record is still found', async () => {
    const blame = await blameFile(ws.trace, 'src/a.ts', 'one\ntwo\nthree\nfour\n');
    assert.deepEqual(await driftedLines(ws.trace, 'src/a.ts', blame), []);
  });
});
