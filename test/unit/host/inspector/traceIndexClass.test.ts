import { strict as assert } from 'node:assert';
import { appendFile } from 'node:fs/promises';
import { classifyChanges } from '../../../../src/core/changeClass/classifyChange';
import { recordDetail } from '../../../../src/host/inspector/recordDetail';
import { TraceIndex } from '../../../../src/host/inspector/traceIndex';
import { readRecordAt, TraceIndexLoader } from '../../../../src/host/inspector/traceIndexLoader';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const BEFORE = 'export function area(w: number, h: number) {\n  const product = w * h;\n  return product;\n}\n';

describe('inspector index: the change class filter and detail', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => (ws = await traceWorkspace()));
  afterEach(() => ws.dispose());

  it('filters rows by class, and the detail shows the operation, the class, its rule and reason', async () => {
    const sink = ws.sink();
    const refactor = [{ path: 'src/area.ts', before: BEFORE, after: BEFORE.replace(/product/g, 'result') }];
    const evolution = [{ path: 'src/area.ts', before: BEFORE, after: BEFORE.replace('w * h', 'Math.abs(w * h)') }];
    await sink.recordMutation(mutationEvent({ timestamp: '2026-01-01T10:00:00.000Z', mutation_class: 'edit', files: refactor, change_class: classifyChanges(refactor) }));
    await sink.recordMutation(mutationEvent({ timestamp: '2026-01-01T10:00:01.000Z', mutation_class: 'edit', files: evolution, change_class: classifyChanges(evolution) }));
    await sink.close();
    // A record written before change classes: the operation sat in mutation_class.
    await appendFile(ws.trace, `${JSON.stringify({ version: '1.0', id: 'legacy', timestamp: '2026-01-01T10:00:02.000Z', tool: { name: 'intent-governor', version: '0' }, files: [], metadata: { kind: 'mutation', mutation_class: 'write' } })}\n`);

    const index = new TraceIndex();
    const loader = TraceIndexLoader.forWorkspace(index, ws.root);
    await loader.refresh();
    assert.deepEqual(index.query({}, 0, 10).rows.map((r) => r.mutationClass), ['', 'INTENT_EVOLUTION', 'AST_REFACTOR']);
    assert.deepEqual(index.query({ mutationClass: 'AST_REFACTOR' }, 0, 10).rows.map((r) => r.timestamp), ['2026-01-01T10:00:00.000Z']);
    assert.equal(index.query({ mutationClass: 'INTENT_EVOLUTION' }, 0, 10).total, 1);

    const detailOf = async (key: number) => {
      const location = index.location(key)!;
      return recordDetail(index.row(key)!, (await readRecordAt(loader.path(location.source), location.offset, location.bytes))!);
    };
    const [legacy, evolved] = index.query({}, 0, 2).rows;
    const evolvedDetail = await detailOf(evolved.key);
    assert.deepEqual([evolvedDetail.operation, evolvedDetail.mutationClass, evolvedDetail.mutationClassRule], ['edit', 'INTENT_EVOLUTION', 'syntax-tree']);
    assert.match(String(evolvedDetail.mutationClassReason), /changes `area`/);
    const legacyDetail = await detailOf(legacy.key);
    assert.deepEqual([legacyDetail.operation, legacyDetail.mutationClass], ['write', undefined]);
  });
});
