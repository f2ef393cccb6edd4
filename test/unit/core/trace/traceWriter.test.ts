import { strict as assert } from 'node:assert';
import { appendFile, copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GENESIS_HASH, sealRecord, traceChainFields } from '../../../../src/core/trace/traceChain';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { governanceChainFields } from '../../../../src/core/trace/traceChain';
import { verifyLog } from '../../../../src/core/trace/traceVerify';
import { assertAgentTraceFile } from '../../../support/agentTraceSchema';
import { governanceEvent, mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { mergedBranches } from '../../../support/unionMerge';

type Line = { id: string; metadata: Record<string, unknown> };
const readRecords = async (path: string): Promise<Line[]> =>
  (await readFile(path, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

describe('JsonlTraceSink', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
  });
  afterEach(() => ws.dispose());

  it('appends one schema-valid, chained line per acknowledged mutation and anchors the head', async () => {
    const sink = ws.sink({ fsync: 'always' });
    await sink.recordMutation(mutationEvent({ invocation_id: 'first' }));
    assert.equal((await readRecords(ws.trace)).length, 1, 'the line is there as soon as recordMutation resolves');
    await Promise.all([2, 3, 4].map((n) => sink.recordMutation(mutationEvent({ invocation_id: `n${n}` }))));
    await sink.close();
    const records = assertAgentTraceFile(ws.trace) as unknown as Line[];
    assert.deepEqual(records.map((r) => r.metadata.invocation_id), ['first', 'n2', 'n3', 'n4']);
    assert.equal(records[0].metadata.prev_hash, GENESIS_HASH);
    for (let i = 1; i < records.length; i += 1) assert.equal(records[i].metadata.prev_hash, records[i - 1].metadata.hash);
    const anchor = await ws.anchors.read(TRACE_FILE, '');
    assert.deepEqual({ hash: anchor?.hash, line: anchor?.line, size: anchor?.size }, {
      hash: records[3].metadata.hash,
      line: 4,
      size: (await stat(ws.trace)).size,
    });
    assert.equal((await verifyLog(ws.trace, { anchor })).status, 'verified');
  });

  it('keeps refusals in the governance log, on their own chain', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.recordGovernance(governanceEvent({ decision: 'reject', code: 'HITL_REJECT', approver: 'alice' }));
    await sink.recordGovernance(governanceEvent());
    await sink.close();
    assert.equal((await readRecords(ws.trace)).length, 1);
    const governance = (await readRecords(ws.governance)) as unknown as Record<string, unknown>[];
    assert.deepEqual(governance.map((g) => [g.kind, g.decision, g.code]), [
      ['governance', 'reject', 'HITL_REJECT'],
      ['governance', 'deny', 'SCOPE_VIOLATION'],
    ]);
    assert.equal(governance[0].prev_hash, GENESIS_HASH);
    const anchor = await ws.anchors.read(GOVERNANCE_LOG_FILE, '');
    assert.equal((await verifyLog(ws.governance, { fields: governanceChainFields, anchor })).status, 'verified');
  });

  it('quarantines a torn last line on open, appends a recovery record and leaves committed lines untouched', async () => {
    const sink = ws.sink();
    for (let i = 0; i < 3; i += 1) await sink.recordMutation(mutationEvent());
    await sink.close();
    const committed = await readFile(ws.trace, 'utf8');
    const torn = '{"files":[{"conversations":[{"contri'; // what a crash mid-write leaves
    await appendFile(ws.trace, torn);

    const reopened = ws.sink();
    await reopened.open();
    await reopened.recordMutation(mutationEvent({ invocation_id: 'after-crash' }));
    await reopened.close();

    const text = await readFile(ws.trace, 'utf8');
    assert.ok(text.startsWith(committed), 'bytes before the torn line are unchanged');
    const records = assertAgentTraceFile(ws.trace) as unknown as Line[];
    assert.equal(records[3].metadata.kind, 'recovery');
    assert.equal(records[3].metadata.bytes, torn.length);
    assert.equal(records[4].metadata.invocation_id, 'after-crash');
    const corrupt = (await readFile(`${ws.trace}.corrupt`, 'utf8')).split('\n');
    assert.equal(JSON.parse(corrupt[0]).bytes, torn.length);
    assert.match(JSON.parse(corrupt[0]).quarantined_at, /^\d{4}-\d\d-\d\dT/);
    assert.equal(corrupt[1], torn);
    assert.equal((await verifyLog(ws.trace, { anchor: await ws.anchors.read(TRACE_FILE, '') })).status, 'verified');
  });

  it('quarantines a last line that is complete but not JSON', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.close();
    await appendFile(ws.trace, 'garbage\n');
    const reopened = ws.sink();
    await reopened.open();
    await reopened.close();
    const records = await readRecords(ws.trace);
    assert.deepEqual(records.map((r) => r.metadata.kind), ['mutation', 'recovery']);
    assert.match(await readFile(`${ws.trace}.corrupt`, 'utf8'), /\ngarbage\n/);
  });

  it('keeps appending to the trace when the file is replaced underneath it (a checkout or merge)', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    const copy = `${ws.trace}.copy`;
    await copyFile(ws.trace, copy);
    await rename(copy, ws.trace); // same content, new inode: what git does
    await sink.recordMutation(mutationEvent({ invocation_id: 'after-replace' }));
    await sink.close();
    const records = await readRecords(ws.trace);
    assert.deepEqual(records.map((r) => r.metadata.invocation_id).slice(-1), ['after-replace']);
    assert.equal(records.length, 2);
  });

  it('continues from the last line after a union merge and records the merge', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.close();
    const merged = await mergedBranches(
      ws,
      (ours) => ours.recordMutation(mutationEvent({ invocation_id: 'ours' })),
      (theirs) => theirs.recordMutation(mutationEvent({ invocation_id: 'theirs' })),
    );
    await writeFile(join(ws.root, 'merged.tmp'), merged);
    await rename(join(ws.root, 'merged.tmp'), ws.trace);

    const after = ws.sink();
    await after.recordMutation(mutationEvent({ invocation_id: 'after-merge' }));
    await after.close();
    const records = await readRecords(ws.trace);
    const [, oursRecord, theirsRecord, next] = records;
    assert.equal(next.metadata.prev_hash, theirsRecord.metadata.hash, 'links to the last line');
    assert.deepEqual(next.metadata.merge, { heads: [oursRecord.metadata.hash], chains: 2, from_line: 3 });
    const result = await verifyLog(ws.trace, { anchor: await ws.anchors.read(TRACE_FILE, '') });
    assert.equal(result.status, 'merged');
    assert.deepEqual(result.openHeads, [next.metadata.hash], 'the merge record joined both branches');
  });

  it('writes a discontinuity record when the anchored head has vanished, so the cut stays visible', async () => {
    const sink = ws.sink();
    for (let i = 0; i < 3; i += 1) await sink.recordMutation(mutationEvent());
    await sink.close();
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    await writeFile(ws.trace, `${lines[0]}\n`);
    const after = ws.sink();
    await after.recordMutation(mutationEvent({ invocation_id: 'after-cut' }));
    await after.close();
    const records = await readRecords(ws.trace);
    assert.deepEqual(records.map((r) => r.metadata.kind), ['mutation', 'discontinuity', 'mutation']);
    const result = await verifyLog(ws.trace, { anchor: await ws.anchors.read(TRACE_FILE, '') });
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 2);
    assert.match(result.reason!, /writer found the anchored head missing or moved: the log ends after line 1, but the anchor recorded 3 lines/);
  });

  it('does not trust an unchanged last line when a record was inserted before it: notes the discontinuity', async () => {
    const sink = ws.sink();
    for (let i = 0; i < 3; i += 1) await sink.recordMutation(mutationEvent());
    await sink.close();
    const lines = (await readFile(ws.trace, 'utf8')).split('\n').slice(0, -1);
    const forged = JSON.parse(lines[0]) as { id: string; metadata: Record<string, unknown> };
    forged.id = 'forged';
    forged.metadata.agent = 'forger';
    const forgedLine = sealRecord(forged as unknown as Record<string, unknown>, JSON.parse(lines[0]).metadata.hash, traceChainFields);
    await writeFile(ws.trace, [lines[0], forgedLine, lines[1], lines[2], ''].join('\n'));

    const after = ws.sink();
    await after.recordMutation(mutationEvent({ invocation_id: 'after-insert' }));
    await after.close();
    const records = await readRecords(ws.trace);
    assert.deepEqual(records.map((r) => r.metadata.kind), ['mutation', 'mutation', 'mutation', 'mutation', 'discontinuity', 'mutation']);
    assert.match(String(records[4].metadata.reason), /was line 3 ending at byte \d+, but is now line 4 .*inserted before it/);
    const anchor = await ws.anchors.read(TRACE_FILE, '');
    assert.equal(anchor?.line, 6, 'the anchor counts the lines that are really there');
    const result = await verifyLog(ws.trace, { anchor });
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 5);
  });

  it('anchors each git branch separately, so switching branches is not a discontinuity', async () => {
    await mkdir(join(ws.root, '.git', 'refs', 'heads'), { recursive: true });
    await writeFile(join(ws.root, '.git', 'refs', 'heads', 'main'), `${'a'.repeat(40)}\n`);
    await writeFile(join(ws.root, '.git', 'refs', 'heads', 'topic'), `${'b'.repeat(40)}\n`);
    await writeFile(join(ws.root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.recordMutation(mutationEvent());
    const mainText = await readFile(ws.trace, 'utf8');
    // "checkout topic": HEAD moves and the trace goes back to its one-record state.
    await writeFile(join(ws.root, '.git', 'HEAD'), 'ref: refs/heads/topic\n');
    await writeFile(`${ws.trace}.tmp`, `${mainText.split('\n')[0]}\n`);
    await rename(`${ws.trace}.tmp`, ws.trace);
    await sink.recordMutation(mutationEvent({ invocation_id: 'on-topic' }));
    await sink.close();
    const records = await readRecords(ws.trace);
    assert.deepEqual(records.map((r) => r.metadata.kind), ['mutation', 'mutation']);
    assert.equal((records[1] as unknown as { vcs: { revision: string } }).vcs.revision, 'b'.repeat(40));
    assert.equal((await ws.anchors.read(TRACE_FILE, 'refs/heads/main'))?.line, 2);
    assert.equal((await ws.anchors.read(TRACE_FILE, 'refs/heads/topic'))?.hash, records[1].metadata.hash);
  });

  it('tells listeners of each record once it stands: after the append, and for a write-ahead record once its change landed', async () => {
    const sink = ws.sink();
    const heard: { log: string; id: string; invocation_id: string; onDisk: boolean }[] = [];
    const onDisk = async (log: string, id: string) => (await readFile(log === TRACE_FILE ? ws.trace : ws.governance, 'utf8').catch(() => '')).includes(id);
    const checks: Promise<void>[] = [];
    sink.onRecorded(() => {
      throw new Error('a listener that throws changes nothing');
    });
    // Heard in the order told; whether the record was on disk when told is filled in once the read answers.
    const stop = sink.onRecorded((notice) => {
      const entry = { log: notice.log, id: notice.id, invocation_id: notice.invocation_id, onDisk: false };
      heard.push(entry);
      checks.push(onDisk(notice.log, notice.id).then((found) => void (entry.onDisk = found)));
    });
    await sink.recordMutation(mutationEvent({ invocation_id: 'native' }));
    const ahead = await sink.recordAhead(mutationEvent({ invocation_id: 'ahead' }), [{ path: 'src/a.ts', after_hash: `sha256:${'1'.repeat(64)}` }]);
    await Promise.all(checks);
    assert.deepEqual(heard.map((h) => h.invocation_id), ['native'], 'a write-ahead record is not announced before its change landed');
    await ahead.landed();
    const voided = await sink.recordAhead(mutationEvent({ invocation_id: 'voided' }), [{ path: 'src/b.ts' }]);
    await voided.abandoned({ code: 'STALE_FILE', message: 'the file changed' });
    await sink.recordGovernance(governanceEvent({ invocation_id: 'refused' }));
    stop();
    await sink.recordGovernance(governanceEvent({ invocation_id: 'after-unsubscribe' }));
    await Promise.all(checks);
    await sink.close();
    assert.deepEqual(heard.map((h) => [h.log, h.invocation_id, h.onDisk]), [
      [TRACE_FILE, 'native', true],
      [TRACE_FILE, 'ahead', true],
      [GOVERNANCE_LOG_FILE, 'voided', true],
      [GOVERNANCE_LOG_FILE, 'refused', true],
    ]);
    const trace = await readRecords(ws.trace);
    assert.deepEqual(heard.slice(0, 2).map((h) => h.id), [trace[0].id, trace[1].id]);
  });

  it('refuses records after close', async () => {
    const sink = ws.sink();
    await sink.close();
    await assert.rejects(sink.recordMutation(mutationEvent()), /closed/);
  });
});
