import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../src/core/governor';
import { rebuildFiles, requestRebuild } from '../src/core/intentMap/backgroundRebuild';
import { IntentMapKeeper } from '../src/core/intentMap/intentMapKeeper';
import { createNodeServices } from '../src/core/nodeServices';
import { acquireLock } from '../src/core/io/crossProcessLock';
import { traceFilePath } from '../src/core/trace/traceFiles';
import { createTraceStack } from '../src/core/trace/traceStack';
import { writeSyntheticTrace } from '../test/support/syntheticTrace';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const RECORDS = 100_000;
const FILES = 50;
const INCREMENTS = 200;
const WRITES = 500;
const ASKS = 500;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return elapsedMs(start);
}

/** A keeper on a 100k-record trace: its first (full) rebuild, then one rebuild per appended record. */
async function rebuilds(base: string): Promise<{ full: number[]; incremental: number[]; mapBytes: number }> {
  const root = join(base, 'trace-ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  // The synthetic record i writes "a\nb<i>\nc" to src/m<i % 50>.ts; the files hold their last record's content.
  for (let f = 0; f < FILES; f += 1) writeFileSync(join(root, `src/m${f}.ts`), `a\nb${RECORDS - FILES + f}\nc\n`);
  await writeSyntheticTrace(traceFilePath(root), RECORDS);
  const full: number[] = [];
  for (let i = 0; i < 3; i += 1) full.push(await timed(() => new IntentMapKeeper({ workspaceRoot: root }).refresh()));
  const keeper = new IntentMapKeeper({ workspaceRoot: root });
  await keeper.refresh();
  const lines = readFileSync(traceFilePath(root), 'utf8').trimEnd().split('\n');
  const incremental: number[] = [];
  for (let i = 0; i < INCREMENTS; i += 1) {
    // One more change to one file, as a governed edit appends it: a record, and the file it describes.
    const line = lines[lines.length - FILES + (i % FILES)].replace(/"id":"[^"]+"/, `"id":"bench-${i}"`);
    appendFileSync(traceFilePath(root), `${line}\n`);
    incremental.push(await timed(() => keeper.refresh()));
  }
  const built = await keeper.refresh();
  return { full, incremental, mapBytes: built.ok ? Buffer.byteLength(built.value.text) : 0 };
}

/** Governed writes, one at a time, with and without a keeper told by the post-hook (its rebuilds share the event loop). */
async function governedWrites(base: string, keep: boolean): Promise<number[]> {
  const root = join(base, keep ? 'writes-kept' : 'writes-plain');
  mkdirSync(join(root, '.orchestration'), { recursive: true });
  writeFileSync(join(root, '.orchestration/active_intents.yaml'), 'active_intents:\n  - id: bench\n    name: Bench\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    constraints: []\n    acceptance_criteria: []\n');
  const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: 'bench', anchorDir: join(base, `anchors-${keep}`), fsync: 'never' });
  const keeper = new IntentMapKeeper({ workspaceRoot: root });
  const services = await createNodeServices({ root, approver: { async approve() { return { approved: true, approver: 'bench' }; } }, trace: sink });
  const governor = new Governor(keep ? { ...services, intentMap: keeper } : services);
  const agent = { name: 'bench' };
  await governor.run({ tool: 'select_active_intent', input: { intent_id: 'bench' }, session_id: 'b', agent }, { mode: 'execute' });
  const samples: number[] = [];
  for (let i = 0; i < WRITES; i += 1) {
    const start = process.hrtime.bigint();
    const result = await governor.run({ tool: 'write_file', input: { path: `src/f${i % 20}.ts`, content: `export const v = ${i};\n` }, session_id: 'b', agent }, { mode: 'execute' });
    samples.push(elapsedMs(start));
    if (!result.ok) throw new Error(`bench write refused: ${result.error.message}`);
  }
  await keeper.flush();
  await sink.close();
  return samples.slice(50);
}

/** What a one-shot hook process pays to ask for a rebuild: a token written and a lock probed (the spawn is not counted). */
async function asks(base: string): Promise<{ idle: number[]; busy: number[] }> {
  const files = rebuildFiles(join(base, 'home'), join(base, 'ask-ws'));
  const idle: number[] = [];
  for (let i = 0; i < ASKS; i += 1) idle.push(await timed(() => requestRebuild(files, () => undefined)));
  const worker = await acquireLock(files.worker);
  const busy: number[] = [];
  for (let i = 0; i < ASKS; i += 1) busy.push(await timed(() => requestRebuild(files, () => undefined)));
  await worker.release();
  return { idle, busy };
}

export const intentMapBench: BenchSuite = {
  name: 'intent-map',
  async run(): Promise<BenchTable[]> {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'ig-bench-intent-map-')));
    try {
      const { full, incremental, mapBytes } = await rebuilds(base);
      const plain = await governedWrites(base, false);
      const kept = await governedWrites(base, true);
      const ask = await asks(base);
      const fullP50 = percentile(full, 50);
      const plainP50 = percentile(plain, 50);
      return [
        {
          title: `Intent map rebuild: ${RECORDS} trace records, ${FILES} files (map ${(mapBytes / 1024).toFixed(1)} KiB)`,
          columns: ['rebuild', 'runs', 'p50 ms', 'p99 ms', 'p50 vs full'],
          rows: [
            ['full: a new keeper reads both logs and every file (baseline)', full.length, fullP50, percentile(full, 99), 1],
            ['incremental: one appended record, one changed file', incremental.length, percentile(incremental, 50), percentile(incremental, 99), percentile(incremental, 50) / fullP50],
          ],
          notes: ['A keeper reads only the lines appended since its last rebuild and rereads a file only when its stat or its records changed; the full rebuild is what `governor intent-map` and the first rebuild of a process cost.'],
        },
        {
          title: `Governed write_file, ${WRITES} one at a time (trace fsync 'never')`,
          columns: ['door', 'p50 ms', 'p99 ms', 'p50 vs no map'],
          rows: [
            ['no intent map (baseline)', plainP50, percentile(plain, 99), 1],
            ['intent map kept (post-hook + background rebuilds, 250 ms debounce)', percentile(kept, 50), percentile(kept, 99), percentile(kept, 50) / plainP50],
          ],
        },
        {
          title: `One-shot hook process asking for a rebuild (${ASKS} asks)`,
          columns: ['state', 'p50 ms', 'p99 ms'],
          rows: [
            ['no worker running (token + lock probe; then it starts one)', percentile(ask.idle, 50), percentile(ask.idle, 99)],
            ['a worker running (token + failed probe)', percentile(ask.busy, 50), percentile(ask.busy, 99)],
          ],
        },
      ];
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
};
