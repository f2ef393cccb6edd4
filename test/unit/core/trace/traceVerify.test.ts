import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { GENESIS_HASH, sealRecord, traceChainFields } from '../../../../src/core/trace/traceChain';
import { TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { verifyLog } from '../../../../src/core/trace/traceVerify';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { mergedBranches } from '../../../support/unionMerge';
import type { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { describeInVerifyModes } from '../../../support/verifyModes';

describeInVerifyModes('traceVerify', () => {
  let ws: TraceWorkspace;
  let lines: string[];

  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    for (let i = 0; i < 6; i += 1) await sink.recordMutation(mutationEvent());
    await sink.close();
    lines = (await readFile(ws.trace, 'utf8')).split('\n').slice(0, -1);
  });
  afterEach(() => ws.dispose());

  const anchor = () => ws.anchors.read(TRACE_FILE, '');
  const rewrite = (next: string[]) => writeFile(ws.trace, next.map((l) => `${l}\n`).join(''));
  const verify = async () => verifyLog(ws.trace, { anchor: await anchor() });

  it('verifies an untouched trace against its anchor', async () => {
    const result = await verify();
    assert.equal(result.status, 'verified');
    assert.equal(result.records, 6);
    assert.equal(result.chains, 1);
    assert.equal(result.anchor, 'matched');
  });

  it('reports a missing trace with no anchor as empty', async () => {
    assert.equal((await verifyLog(`${ws.trace}.nope`)).status, 'empty');
  });

  it('detects an edited field and names the edited line', async () => {
    const edited = [...lines];
    edited[2] = edited[2].replace('"agent":"claude-code"', '"agent":"human"');
    assert.notEqual(edited[2], lines[2]);
    await rewrite(edited);
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 3);
    assert.match(result.reason!, /line 3 does not match its hash: the record was edited/);
  });

  it('detects a deleted line at the line that lost its predecessor', async () => {
    await rewrite([...lines.slice(0, 3), ...lines.slice(4)]);
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 4);
    assert.match(result.reason!, /links to a record that is not in the file: the record before it was deleted or edited/);
  });

  it('detects two reordered lines', async () => {
    await rewrite([lines[0], lines[1], lines[3], lines[2], lines[4], lines[5]]);
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 3);
    assert.match(result.reason!, /line 3 links to line 4, which comes after it: lines were reordered/);
  });

  it('detects a truncated end through the anchor, though the remaining chain is intact', async () => {
    await rewrite(lines.slice(0, 4));
    assert.equal((await verifyLog(ws.trace)).status, 'verified', 'without the anchor the cut is invisible');
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 5);
    assert.match(result.reason!, /ends after line 4, but the anchor recorded 6 lines .*lines 5-6 were removed/);
  });

  it('detects a full rewrite with a recomputed chain through the anchor', async () => {
    let prev = GENESIS_HASH;
    const forged = lines.map((line) => {
      const record = JSON.parse(line) as { metadata: Record<string, unknown> };
      record.metadata.agent = 'someone-else';
      const sealed = sealRecord(record as unknown as Record<string, unknown>, prev, traceChainFields);
      prev = record.metadata.hash as string;
      return sealed;
    });
    await rewrite(forged);
    assert.equal((await verifyLog(ws.trace)).status, 'verified', 'the forged chain is self-consistent');
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 6);
    assert.match(result.reason!, /anchored head sha256:\S+ \(line 6\) is not in the log: it was rewritten with a recomputed chain/);
  });

  it('reports a union merge of two branches that both appended as merged, not tampered', async () => {
    const records = (count: number, name: string) => async (sink: JsonlTraceSink) => {
      for (let i = 0; i < count; i += 1) await sink.recordMutation(mutationEvent({ agent: { name } }));
    };
    await writeFile(ws.trace, await mergedBranches(ws, records(3, 'ours'), records(2, 'theirs')));
    const result = await verify();
    assert.equal(result.status, 'merged');
    assert.equal(result.records, 11);
    assert.equal(result.chains, 2);
    assert.equal(result.anchor, 'matched');
    assert.equal(result.mergeFromLine, 10);
    assert.equal(result.reason, 'merged (2 chains from line 10)');
  });

  it('still finds tampering inside a merged trace', async () => {
    const forkLine = sealRecord(JSON.parse(lines[5]) as Record<string, unknown>, JSON.parse(lines[3]).metadata.hash, traceChainFields);
    await rewrite([...lines, forkLine.replace('"INT-001"', '"INT-002"')]);
    const result = await verifyLog(ws.trace);
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 7);
  });

  /** A well-formed record claiming `agent`, chained onto `prevLine` (0-based) exactly as a writer would. */
  const forgedAfter = (prevLine: number, agent = 'forger') => {
    const record = JSON.parse(lines[prevLine]) as { id: string; metadata: Record<string, unknown> };
    record.id = 'forged-record';
    record.metadata.agent = agent;
    return sealRecord(record as unknown as Record<string, unknown>, JSON.parse(lines[prevLine]).metadata.hash, traceChainFields);
  };

  it('reports a forged record inserted mid-log with a correct prev_hash as tampered, through the anchor', async () => {
    await rewrite([...lines.slice(0, 3), forgedAfter(2), ...lines.slice(3)]);
    const result = await verify();
    assert.equal(result.status, 'tampered');
    assert.equal(result.anchor, 'moved');
    assert.equal(result.firstBadLine, 4, 'the forged line');
    assert.match(result.reason!, /anchored head sha256:\S+ was line 6 ending at byte \d+, but is now line 7 ending at byte \d+: line 4 was inserted before it, or a rebase put another branch's records first/);
    assert.match(result.reason!, /governor trace reanchor/);
  });

  it('checks the anchored byte size too, not only the line', async () => {
    await rewrite([...lines.slice(0, 3), forgedAfter(2), ...lines.slice(3)]);
    const head = await anchor();
    assert.ok(head);
    // An anchor whose line agrees with the file but whose size does not: bytes before the head changed.
    const result = await verifyLog(ws.trace, { anchor: { ...head, line: 7 } });
    assert.equal(result.anchor, 'moved');
    assert.equal(result.status, 'tampered');
  });

  it('rejects a branch that does not start where the branch before it did, even without an anchor', async () => {
    // A record chained onto line 1 but put after line 2: line 3 then continues from line 2, whose next line
    // (the forged one) does not. A union merge never produces that.
    await rewrite([lines[0], lines[1], forgedAfter(0), ...lines.slice(2)]);
    const result = await verifyLog(ws.trace);
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 4);
    assert.match(result.reason!, /line 4 starts a branch from line 2, but the line after that does not continue from it: not the shape of a union merge/);
  });

  it('reports a merge record naming a head that is not in the file as tampered', async () => {
    const record = JSON.parse(lines[5]) as { metadata: Record<string, unknown> };
    record.metadata.merge = { heads: [`sha256:${'e'.repeat(64)}`], chains: 2, from_line: 3 };
    const sealed = sealRecord(record as unknown as Record<string, unknown>, JSON.parse(lines[4]).metadata.hash, traceChainFields);
    await rewrite([...lines.slice(0, 5), sealed]);
    const result = await verifyLog(ws.trace);
    assert.equal(result.status, 'tampered');
    assert.equal(result.firstBadLine, 6);
    assert.match(result.reason!, /line 6 closes branch head sha256:eeeeeeeeeeee, which is not a record before it in the file/);
  });

  it('verifies a union merge whose branch our anchored records are on, and one merged twice', async () => {
    const records = (count: number, name: string) => async (sink: JsonlTraceSink) => {
      for (let i = 0; i < count; i += 1) await sink.recordMutation(mutationEvent({ agent: { name } }));
    };
    await writeFile(ws.trace, await mergedBranches(ws, records(1, 'ours'), records(4, 'theirs')));
    // A writer continues after the merge, then another branch forked from here merges in too.
    await writeFile(ws.trace, await mergedBranches(ws, records(2, 'ours-again'), records(2, 'third')));
    const result = await verify();
    assert.equal(result.status, 'merged', result.reason);
    assert.equal(result.anchor, 'matched');
  });

  it('no longer counts a discontinuity note as tampering once a human accepted it on this machine', async () => {
    await rewrite(lines.slice(0, 4));
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.close();
    const before = await verify();
    assert.equal(before.status, 'tampered');
    const [note] = before.discontinuities;
    assert.equal(note.line, 5);
    const after = await verifyLog(ws.trace, { anchor: await anchor(), accepted: new Set([note.hash]) });
    assert.equal(after.status, 'verified', after.reason);
    assert.equal(after.discontinuities[0].accepted, true);
  });

  it('an acceptance record later in the log accepts the note it names for every clone; one naming anything else is a problem', async () => {
    await rewrite(lines.slice(0, 4));
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent());
    await sink.close();
    const [note] = (await verifyLog(ws.trace)).discontinuities;
    const accepting = ws.sink();
    await accepting.recordAcceptance({ [TRACE_FILE]: [note.hash] }, 'Lead <lead@example.test>');
    await accepting.close();
    // No anchor and no local acceptance: as a fresh clone or CI reads it.
    const shared = await verifyLog(ws.trace);
    assert.equal(shared.status, 'verified', shared.reason);
    assert.deepEqual([shared.discontinuities[0].accepted, shared.discontinuities[0].acceptedAt], [true, 7]);
    const stray = ws.sink();
    await stray.recordAcceptance({ [TRACE_FILE]: [JSON.parse(lines[1]).metadata.hash as string] }, undefined);
    await stray.close();
    const wrong = await verifyLog(ws.trace);
    assert.equal(wrong.status, 'tampered');
    assert.match(wrong.reason ?? '', /line 8 is an acceptance of sha256:\S+, which is not a discontinuity note before it/);
  });

  it('does not count a torn last line (a crashed append) as tampering', async () => {
    await writeFile(ws.trace, `${lines.join('\n')}\n${lines[0].slice(0, 40)}`);
    const result = await verify();
    assert.equal(result.status, 'verified');
    assert.equal(result.tornTail, true);
    assert.equal(result.records, 6);
  });
});
