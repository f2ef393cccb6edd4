import { strict as assert } from 'node:assert';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordDetail } from '../../../../src/host/inspector/recordDetail';
import { TraceIndex } from '../../../../src/host/inspector/traceIndex';
import { readRecordAt, TraceIndexLoader } from '../../../../src/host/inspector/traceIndexLoader';
import { SYNTHETIC_AGENTS, SYNTHETIC_INTENTS, writeSyntheticTrace } from '../../../support/syntheticTrace';
import { governanceEvent, mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const COUNT = 100_000;

describe('traceIndex: the inspector index over both logs', function () {
  this.timeout(60_000);

  describe('a 100k-record trace', () => {
    let ws: TraceWorkspace;
    let index: TraceIndex;
    before(async () => {
      ws = await traceWorkspace();
      await writeSyntheticTrace(ws.trace, COUNT);
      index = new TraceIndex();
      await TraceIndexLoader.forWorkspace(index, ws.root).refresh();
    });
    after(() => ws.dispose());

    it('indexes every record and pages them newest first', () => {
      assert.equal(index.size, COUNT);
      const page = index.query({}, 0, 3);
      assert.equal(page.total, COUNT);
      assert.deepEqual(page.rows.map((r) => r.line), [COUNT, COUNT - 1, COUNT - 2]);
      const last = index.query({}, COUNT - 2, 10);
      assert.deepEqual(last.rows.map((r) => r.line), [2, 1]);
    });

    it('keeps only the lines a branch added when given them, with the other filters, and a new set is not served from the cache', () => {
      const only = (key: string, trace: number[]) => ({ key, lines: { trace: new Set(trace), governance: new Set<number>() } });
      const page = index.query({}, 0, 10, only('main@1', [5, COUNT, 7]));
      assert.deepEqual([page.total, page.rows.map((r) => r.line)], [3, [COUNT, 7, 5]]);
      const intent = index.query({ intent: index.row(index.keyOf(page.rows[1].id) as number)?.intent }, 0, 10, only('main@1', [5, COUNT, 7]));
      assert.deepEqual(intent.rows.map((r) => r.line), [7]);
      assert.deepEqual(index.query({}, 0, 10, only('main@2', [9])).rows.map((r) => r.line), [9]);
      assert.equal(index.query({}, 0, 1).total, COUNT);
    });

    it('previews the newest records from the log’s end, under keys the full index never uses', async () => {
      const loader = TraceIndexLoader.forWorkspace(new TraceIndex(), ws.root);
      const preview = loader.preview(500, 4 * 1024 * 1024);
      const page = preview.query({}, 0, 100);
      assert.equal(page.total, 500);
      assert.deepEqual(page.rows.map((r) => r.id), index.query({}, 0, 100).rows.map((r) => r.id));
      assert.ok(page.rows.every((r) => r.key < 0 && index.row(r.key) === undefined));
      assert.deepEqual(preview.query({ intent: 'INT-002' }, 0, 3).rows.map((r) => r.intent), ['INT-002', 'INT-002', 'INT-002']);
      // A preview row opens the record it shows.
      const newest = page.rows[0];
      const location = preview.location(newest.key)!;
      const record = await readRecordAt(loader.path(location.source), location.offset, location.bytes);
      assert.equal(record?.id, newest.id);
      // …and the full index finds that line again, with its number.
      const full = index.keyAt(location.source, location.offset)!;
      assert.deepEqual([index.row(full)?.id, index.row(full)?.line], [newest.id, COUNT]);
    });

    // How fast is `npm run bench -- inspector`'s business; this checks what the filters select.
    it('filters by intent, agent, decision and file', () => {
      const page = index.query({ intent: SYNTHETIC_INTENTS[1], agent: SYNTHETIC_AGENTS[0] }, 0, 50);
      // intent i%4 == 1 and agent i%3 == 0: i ≡ 9 (mod 12).
      assert.equal(page.total, Math.ceil((COUNT - 9) / 12));
      assert.ok(page.rows.every((r) => r.intent === 'INT-002' && r.agent === 'claude-code'));
      assert.equal(index.query({ decision: 'approved' }, 0, 1).total, COUNT / 5);
      assert.equal(index.query({ file: 'src/m7.ts' }, 0, 1).total, COUNT / 50);
      assert.equal(index.query({ file: 'src/m4*.ts' }, 0, 1).total, (COUNT / 50) * 11);
    });

    it('filters by time, inclusive at both ends', () => {
      const page = index.query({ since: '2026-01-01T00:00:10.000Z', until: '2026-01-01T00:00:19.000Z' }, 0, 100);
      assert.equal(page.total, 10);
    });

    it('counts changes per intent with the last activity, including intents the plan no longer has', () => {
      const plan = [{ id: 'INT-001', name: 'First', status: 'IN_PROGRESS' as const, owned_scope: ['src/**'], constraints: [], acceptance_criteria: [], related: [] }];
      const summaries = index.intentSummaries(plan);
      assert.equal(summaries.length, 4);
      assert.deepEqual(summaries[0], {
        id: 'INT-001', name: 'First', status: 'IN_PROGRESS', scope: ['src/**'], changes: COUNT / 4, governanceEvents: 0,
        lastActivity: new Date(Date.UTC(2026, 0, 1) + (COUNT - 4) * 1000).toISOString(),
      });
      assert.equal(summaries[1].status, 'NOT IN PLAN');
      const chart = index.chart();
      assert.equal(chart.series.length, 4);
      assert.equal(chart.series.reduce((sum, s) => sum + s.counts.reduce((a, b) => a + b, 0), 0), COUNT);
      assert.deepEqual(index.facets().intents, SYNTHETIC_INTENTS);
    });
  });

  describe('following the logs', () => {
    let ws: TraceWorkspace;
    beforeEach(async () => (ws = await traceWorkspace()));
    afterEach(() => ws.dispose());

    it('reads only what was appended, keeps governance events beside changes, and rereads a log that shrank', async () => {
      const sink = ws.sink();
      await sink.recordMutation(mutationEvent({ timestamp: '2026-01-01T10:00:00.000Z' }));
      await sink.recordGovernance(governanceEvent({ timestamp: '2026-01-01T10:00:01.000Z' }));
      const index = new TraceIndex();
      const loader = TraceIndexLoader.forWorkspace(index, ws.root);
      assert.deepEqual(await loader.refresh(), { added: 2, reset: false });
      assert.deepEqual(index.query({}, 0, 10).rows.map((r) => [r.source, r.decision, r.code]), [['governance', 'deny', 'SCOPE_VIOLATION'], ['trace', 'allow', '']]);
      assert.equal(index.query({ source: 'governance' }, 0, 10).total, 1);

      await sink.recordMutation(mutationEvent({ timestamp: '2026-01-01T10:00:02.000Z', intent_id: 'INT-NEW' }));
      await sink.close();
      assert.deepEqual(await loader.refresh(), { added: 1, reset: false });
      assert.equal(index.query({}, 0, 1).rows[0].intent, 'INT-NEW');

      // A torn last line is left alone until its writer finishes it.
      await appendFile(ws.trace, '{"id":"half');
      assert.deepEqual(await loader.refresh(), { added: 0, reset: false });

      await writeFile(ws.trace, '');
      const after = await loader.refresh();
      assert.equal(after.reset, true);
      assert.equal(index.size, 1);
    });

    it('reads one record back by its location and lays it out for the detail pane', async () => {
      const sink = ws.sink();
      await sink.recordMutation(mutationEvent({ approver: 'alice', decision: 'approved', files: [{ path: 'src/a.ts', before: 'a\n', after: 'a\nb\nc\n' }] }));
      await sink.close();
      const index = new TraceIndex();
      const loader = TraceIndexLoader.forWorkspace(index, ws.root);
      await loader.refresh();
      const key = index.query({}, 0, 1).rows[0].key;
      const location = index.location(key)!;
      const record = await readRecordAt(loader.path(location.source), location.offset, location.bytes);
      const detail = recordDetail(index.row(key)!, record!);
      assert.equal(detail.approver, 'alice');
      assert.equal(detail.files[0].path, 'src/a.ts');
      assert.equal(detail.files[0].change, 'modified');
      assert.deepEqual(detail.files[0].ranges.map((r) => [r.startLine, r.endLine]), [[2, 3]]);
      assert.equal(detail.files[0].changedLines, 2);
      assert.match(detail.hash ?? '', /^sha256:/);
      assert.equal(index.keyOf(detail.row.id), key);
    });
  });

  it('a missing log is an empty index, not an error', async () => {
    const ws = await traceWorkspace();
    try {
      const index = new TraceIndex();
      assert.deepEqual(await new TraceIndexLoader(index, { trace: join(ws.root, 'none.jsonl'), governance: join(ws.root, 'no.jsonl') }).refresh(), { added: 0, reset: false });
      assert.deepEqual(index.chart(), { buckets: [], series: [] });
    } finally {
      await ws.dispose();
    }
  });
});
