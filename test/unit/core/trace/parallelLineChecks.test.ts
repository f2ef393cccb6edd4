import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLineBatches } from '../../../../src/core/io/lineStream';
import { checkLine, compactCheckedLine, type CheckedLine } from '../../../../src/core/trace/lineChecks';
import { checkLinesInParallel, lineCheckWorkerFile, shareStarts } from '../../../../src/core/trace/parallelLineChecks';
import { GENESIS_HASH, sealRecord, traceChainFields } from '../../../../src/core/trace/traceChain';
import { verifyLog, type RecordLine } from '../../../../src/core/trace/traceVerify';

/** The line checks on worker threads give, line for line, what the calling thread's checks give. */
describe('line checks on worker threads', () => {
  let dir: string;
  let path: string;
  let text: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-line-checks-'));
    path = join(dir, 'agent_trace.jsonl');
    text = await writeMixedLog();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A log with every kind of line verify meets: records, an edited one, a non-canonical one, junk, an empty line, a long one, and a torn end. */
  async function writeMixedLog(): Promise<string> {
    const lines: string[] = [];
    let prev = GENESIS_HASH;
    for (let i = 0; i < 400; i += 1) {
      const record = { id: `r${i}`, files: [{ path: `src/f${i}.ts`, note: 'x'.repeat(i === 200 ? 200_000 : (i * 37) % 900) }], metadata: { agent: 'a', ...(i % 50 === 7 ? { kind: 'discontinuity', reason: 'moved' } : {}) } };
      const line = sealRecord(record, prev, traceChainFields);
      prev = (JSON.parse(line) as { metadata: { hash: string } }).metadata.hash;
      lines.push(line);
    }
    lines[10] = lines[10].replace('"agent":"a"', '"agent":"b"'); // edited after it was written
    lines[20] = lines[20].replace('{"files"', '{ "files"'); // not canonical
    lines[30] = 'not json';
    lines[40] = '';
    const text = `${lines.join('\n')}\n{"torn":`;
    await writeFile(path, text);
    return text;
  }

  const here = async () => {
    const all: CheckedLine[] = [];
    for await (const batch of readLineBatches(path)) for (const line of batch) all.push(compactCheckedLine(checkLine(line, traceChainFields)));
    return all;
  };
  const onWorkers = async (workers: number) => {
    const file = lineCheckWorkerFile();
    assert.ok(file, 'no worker script beside parallelLineChecks');
    const all: CheckedLine[] = [];
    for await (const batch of checkLinesInParallel(path, 'trace', Buffer.byteLength(text), workers, file)) all.push(...batch);
    return all;
  };

  it('1, 2, 3 and 7 workers give every line, numbered and judged as on this thread, the torn end last', async () => {
    const expected = await here();
    assert.equal(expected.length, 401);
    assert.equal(expected.at(-1)?.complete, false);
    assert.equal(expected[10].hashMatches, false);
    assert.equal(expected[20].canonical, false);
    assert.equal(expected[30].problem, 'the line is not valid JSON');
    assert.equal(expected[40].problem, 'an empty line was inserted');
    for (const workers of [1, 2, 3, 7]) assert.deepEqual(await onWorkers(workers), expected, `${workers} workers`);
  });

  it('cuts the shares at line starts only, and a line longer than a share joins it to the one before', async () => {
    const starts = shareStarts(path, Buffer.byteLength(text), 64);
    assert.equal(starts[0], 0);
    const bytes = Buffer.from(text);
    for (const start of starts.slice(1)) assert.equal(bytes[start - 1], 10, `share at ${start} does not start a line`);
    assert.deepEqual([...starts].sort((a, b) => a - b), starts);
    assert.equal(new Set(starts).size, starts.length);
    assert.ok(starts.length < 64, 'the 200 KB line was split');
  });
});

describe('a record a worker checked, read back for its signature', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-reread-'));
    path = join(dir, 'agent_trace.jsonl');
    let prev = GENESIS_HASH;
    const lines: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const line = sealRecord({ id: `r${i}`, files: [{ path: `src/f${i}.ts` }], metadata: { agent: 'a' } }, prev, traceChainFields);
      prev = (JSON.parse(line) as { metadata: { hash: string } }).metadata.hash;
      lines.push(line);
    }
    await writeFile(path, `${lines.join('\n')}\n`);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is the text the worker checked, and nothing a signature can match once the log changed under verify', async () => {
    const seen: RecordLine[] = [];
    const result = await verifyLog(path, { parallel: { workers: 2, minBytes: 0 }, onRecord: (line) => void seen.push(line) });
    assert.equal(result.status, 'verified');
    const original = (await readFile(path, 'utf8')).split('\n');
    const [fifth, sixth] = [seen[4], seen[5]];
    // A worker sends no text but a scheme-1 record's: this one is read back by its offset.
    assert.equal(fifth.signedText, original[4]);
    assert.equal(fifth.record.id, 'r4');
    // Another record of the same length put in place of the sixth, as a writer racing the verify could.
    await writeFile(path, original.map((line, i) => (i === 5 ? line.replace('src/f5.ts', 'src/f9.ts') : line)).join('\n'));
    assert.equal(sixth.signedText, '');
  });
});
