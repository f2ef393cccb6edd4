import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { queryTrace, readTrace, type TraceFilter } from '../../../../src/core/trace/traceReader';
import { writeSyntheticTrace } from '../../../support/syntheticTrace';
import { traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { appendFile } from 'node:fs/promises';

const COUNT = 100_000;
const START = Date.UTC(2026, 0, 1);

/** How many synthetic record indexes satisfy a predicate (the generator's rules, restated). */
function expected(predicate: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < COUNT; i += 1) if (predicate(i)) n += 1;
  return n;
}

async function count(path: string, filter: TraceFilter): Promise<number> {
  let n = 0;
  for await (const _ of queryTrace(path, filter)) n += 1;
  return n;
}

describe('traceReader', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;
  let path: string;
  before(async () => {
    ws = await traceWorkspace();
    path = join(ws.root, 'big.jsonl');
    await writeSyntheticTrace(path, COUNT);
  });
  after(() => ws.dispose());

  it('streams all 100k records of a large trace in file order', async () => {
    let n = 0;
    for await (const { line, record } of readTrace(path)) {
      n += 1;
      assert.equal(line, n);
      if (n === 1 || n === COUNT) assert.equal(record?.metadata.invocation_id, `inv-${n - 1}`);
    }
    assert.equal(n, COUNT);
  });

  it('filters by intent, agent, model and decision', async () => {
    assert.equal(await count(path, { intent: 'INT-002' }), expected((i) => i % 4 === 1));
    assert.equal(await count(path, { agent: 'cursor' }), expected((i) => i % 3 === 1));
    assert.equal(await count(path, { model: 'gemini-2.5-pro' }), expected((i) => i % 4 === 2));
    assert.equal(await count(path, { decision: 'approved' }), expected((i) => i % 5 === 0));
    assert.equal(await count(path, { intent: 'INT-001', agent: 'claude-code' }), expected((i) => i % 12 === 0));
  });

  it('filters by exact path or glob', async () => {
    assert.equal(await count(path, { file: 'src/m7.ts' }), expected((i) => i % 50 === 7));
    assert.equal(await count(path, { file: 'src/m1?.ts' }), expected((i) => i % 50 >= 10 && i % 50 <= 19));
    assert.equal(await count(path, { file: 'lib/**' }), 0);
  });

  it('filters by time range, inclusive at both ends', async () => {
    const since = new Date(START + 1000 * 1000);
    const until = new Date(START + 1999 * 1000);
    assert.equal(await count(path, { since, until }), 1000);
    assert.equal(await count(path, { since: new Date(START + (COUNT - 10) * 1000) }), 10);
  });

  it('reports a line that is not JSON and skips a torn last line', async () => {
    const small = join(ws.root, 'small.jsonl');
    await appendFile(small, '{"id":"a","files":[],"metadata":{}}\nnot json\n{"id":"b"');
    const lines = [];
    for await (const line of readTrace(small)) lines.push(line);
    assert.deepEqual(lines.map((l) => [l.line, l.record?.id, l.error]), [
      [1, 'a', undefined],
      [2, undefined, 'not valid JSON'],
    ]);
  });
});
