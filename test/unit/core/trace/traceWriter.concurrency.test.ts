import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { verifyLog } from '../../../../src/core/trace/traceVerify';
import { assertAgentTraceRecord } from '../../../support/agentTraceSchema';
import { bundledScript } from '../../../support/bundledScript';
import { finished } from '../../../support/childProcesses';
import { traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const PROCESSES = 16;
const RECORDS = 1000;
const FILES_PER_RECORD = 15; // ~8 KB per line

describe('JsonlTraceSink with concurrent processes', function () {
  this.timeout(180_000);
  let ws: TraceWorkspace;
  before(async () => {
    ws = await traceWorkspace();
  });
  after(() => ws.dispose());

  it(`loses and interleaves nothing when ${PROCESSES} processes append ${RECORDS} ~8 KB records each`, async () => {
    const child = bundledScript(join(__dirname, '..', '..', '..', 'support', 'traceWriterChild.ts'));
    const env = { ...process.env, INTENT_GOVERNOR_ANCHOR_DIR: ws.anchorDir };
    const runs = await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        finished(
          spawn(process.execPath, [child, ws.root, `c${i}`, String(RECORDS), 'never', '8', String(FILES_PER_RECORD)], {
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        ),
      ),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const acknowledged = runs.flatMap((run) => run.stdout.split('\n').filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)));
    assert.equal(acknowledged.length, PROCESSES * RECORDS);

    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a complete line');
    const seen = new Map<string, number>();
    let bytes = 0;
    for (const [i, line] of lines.entries()) {
      const record = JSON.parse(line) as { metadata: { invocation_id: string } }; // throws on an interleaved line
      if (i % 997 === 0) assertAgentTraceRecord(record, `line ${i + 1}`);
      seen.set(record.metadata.invocation_id, (seen.get(record.metadata.invocation_id) ?? 0) + 1);
      bytes += line.length;
    }
    assert.equal(lines.length, PROCESSES * RECORDS);
    assert.deepEqual(acknowledged.filter((id) => seen.get(id) !== 1), [], 'every acknowledged record exactly once');
    assert.ok(bytes / lines.length > 7000, `records average ${Math.round(bytes / lines.length)} bytes`);

    const result = await verifyLog(ws.trace, { anchor: await ws.anchors.read(TRACE_FILE, '') });
    assert.equal(result.status, 'verified', result.reason);
    assert.equal(result.chains, 1, 'the lock kept one linear chain');
    assert.equal(result.anchor, 'matched');
  });
});
