import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { verifyLog } from '../../../../src/core/trace/traceVerify';
import { assertAgentTraceFile } from '../../../support/agentTraceSchema';
import { bundledScript } from '../../../support/bundledScript';
import { finished } from '../../../support/childProcesses';
import { traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const ROUNDS = 30;

describe('JsonlTraceSink under SIGKILL', function () {
  this.timeout(120_000);
  let ws: TraceWorkspace;
  before(async () => {
    ws = await traceWorkspace();
  });
  after(() => ws.dispose());

  it('keeps every acknowledged record and the chain through 30 writers killed at random points', async () => {
    const child = bundledScript(join(__dirname, '..', '..', '..', 'support', 'traceWriterChild.ts'));
    const env = { ...process.env, INTENT_GOVERNOR_ANCHOR_DIR: ws.anchorDir };
    const acknowledged = new Set<string>();
    let tornTails = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Every third round writes ~200 KB records so a kill can land inside a write.
      const filesPerRecord = round % 3 === 0 ? 400 : 1 + (round % 7);
      const fsync = round % 2 === 0 ? 'always' : 'never';
      // Every fifth round dies holding the lock with half a line written, the worst place to be killed.
      const tear = round % 5 === 4;
      const args = [child, ws.root, `r${round}`, 'forever', fsync, '4', String(filesPerRecord), ...(tear ? ['tear'] : [])];
      const writer = spawn(process.execPath, args, {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const done = finished(writer);
      let pending = '';
      let killed = false;
      writer.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('ack ')) acknowledged.add(line.slice(4));
        if (!killed && (!tear || pending.includes('torn') || lines.includes('torn'))) {
          killed = true;
          setTimeout(() => writer.kill('SIGKILL'), tear ? 0 : Math.random() * 60);
        }
      });
      const exit = await done;
      assert.equal(exit.signal, 'SIGKILL', `round ${round}: writer ended on its own: ${exit.stderr}`);

      // What the kill left: whole JSON lines, then at most one partial line.
      const text = await readFile(ws.trace, 'utf8');
      const parts = text.split('\n');
      const tail = parts.pop() as string;
      for (const [i, line] of parts.entries()) assert.doesNotThrow(() => JSON.parse(line), `round ${round}: line ${i + 1} is torn`);
      if (tail !== '') tornTails += 1;

      // The next open quarantines the partial line and the chain verifies against the anchor.
      const sink = ws.sink();
      await sink.open();
      await sink.close();
      const repaired = await readFile(ws.trace, 'utf8');
      assert.ok(repaired.endsWith('\n'), `round ${round}: torn tail still there after open`);
      assert.ok(repaired.startsWith(parts.map((l) => `${l}\n`).join('')), `round ${round}: committed lines changed`);
      if (tail !== '') assert.ok((await readFile(`${ws.trace}.corrupt`, 'utf8')).includes(tail), `round ${round}: torn bytes not in .corrupt`);
      const result = await verifyLog(ws.trace, { anchor: await ws.anchors.read(TRACE_FILE, '') });
      assert.equal(result.status, 'verified', `round ${round}: ${result.reason}`);
    }

    const records = assertAgentTraceFile(ws.trace) as { metadata: { invocation_id?: string; kind: string } }[];
    const written = new Set(records.map((r) => r.metadata.invocation_id));
    const lost = [...acknowledged].filter((id) => !written.has(id));
    assert.deepEqual(lost, [], 'acknowledged records missing from the trace');
    assert.ok(acknowledged.size >= ROUNDS, 'every round acknowledged at least one record');
    assert.ok(tornTails >= ROUNDS / 5, 'the rounds killed mid-line left torn tails to quarantine');
    const recoveries = records.filter((r) => r.metadata.kind === 'recovery').length;
    assert.equal(recoveries, tornTails, 'one recovery record per torn tail');
    process.stdout.write(`      (${acknowledged.size} acknowledged records, ${tornTails} torn tails quarantined)\n`);
  });
});
