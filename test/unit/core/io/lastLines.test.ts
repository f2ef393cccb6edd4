import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLastLines } from '../../../../src/core/io/lastLines';
import { readLines } from '../../../../src/core/io/lineStream';

const MB = 1024 * 1024;

describe('readLastLines: the newest lines of a log, read from its end', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ig-last-lines-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function all(path: string): Promise<{ text: string; offset: number; bytes: number }[]> {
    const lines: { text: string; offset: number; bytes: number }[] = [];
    for await (const { text, offset, bytes, complete } of readLines(path)) if (complete) lines.push({ text, offset, bytes });
    return lines;
  }

  it('gives the same lines, offsets and lengths as reading the whole file, across read chunks', async () => {
    const path = join(dir, 'log.jsonl');
    // ~1.6 MB of lines of varied length (some multi-byte), so lines straddle the 256 KB chunks read back.
    const text = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, pad: 'é'.repeat(i % 7) + 'x'.repeat(200 + ((i * 37) % 700)) })).join('\n') + '\n';
    await writeFile(path, text);
    const expected = await all(path);
    for (const n of [1, 2, 499, 500, 2999, 3000, 5000]) {
      assert.deepEqual(readLastLines(path, n, 8 * MB), expected.slice(-n), `last ${n}`);
    }
  });

  it('reads no further back than maxBytes, so a log of huge lines cannot stall the caller', async () => {
    const path = join(dir, 'wide.jsonl');
    const line = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(100_000) });
    await writeFile(path, Array.from({ length: 30 }, (_, i) => line(i)).join('\n') + '\n');
    const lines = readLastLines(path, 500, 1 * MB);
    assert.deepEqual(lines.map((l) => (JSON.parse(l.text) as { i: number }).i), [20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('leaves out a torn last line (no newline yet), as the full reader does', async () => {
    const path = join(dir, 'torn.jsonl');
    await writeFile(path, '{"a":1}\n{"b":2}\n{"c":');
    assert.deepEqual(readLastLines(path, 5, MB).map((l) => [l.offset, l.text]), [[0, '{"a":1}'], [8, '{"b":2}']]);
    await writeFile(path, '{"only":"torn"}');
    assert.deepEqual(readLastLines(path, 5, MB), []);
  });

  it('has no lines for an empty or missing file', async () => {
    const path = join(dir, 'empty.jsonl');
    await writeFile(path, '');
    assert.deepEqual(readLastLines(path, 10, MB), []);
    assert.deepEqual(readLastLines(join(dir, 'missing.jsonl'), 10, MB), []);
  });
});
