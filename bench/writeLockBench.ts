import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHash } from '../src/core/contentHash';
import { createNodeWorkspace } from '../src/core/nodeWorkspace';
import { replaceIfUnchanged } from '../src/core/policy/optimisticLock';
import { PathLocks } from '../src/core/policy/pathLock';
import { WriteLocks } from '../src/core/policy/writeLocks';
import { MemoryAnchorStore } from '../src/core/trace/anchorStore';
import { nullTraceSink } from '../src/core/trace/traceSink';
import { JsonlTraceSink } from '../src/core/trace/traceWriter';
import { withBenchWorkspace } from './benchWorkspace';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const WRITES = 1000;
const WARMUP = 100;

/**
 * The guarded write of a 4 KB file, three ways in one run: the old path (an in-process lock, check, temp file,
 * fsync, rename, trace after), the same under the cross-process write lock, and the whole write path as it is
 * now (cross-process lock, re-checks, write-ahead record with its journal entry, fsync `never` for the trace so
 * the disk's fdatasync does not drown the locking cost).
 */
export const writeLockBench: BenchSuite = {
  name: 'writelock',
  run(): Promise<BenchTable[]> {
    return withBenchWorkspace({ 'src/file.ts': 'start\n' }, async (dir) => {
      const root = await realpath(dir);
      const ws = await createNodeWorkspace(root);
      const abs = join(root, 'src', 'file.ts');
      const target = { abs, rel: 'src/file.ts' };
      const content = (i: number) => new TextEncoder().encode(`// revision ${i}\n${'x'.repeat(4096 - 20)}\n`);
      const sample = async (write: (i: number) => Promise<void>) => {
        const samples: number[] = [];
        for (let i = 0; i < WARMUP + WRITES; i++) {
          const start = process.hrtime.bigint();
          await write(i);
          if (i >= WARMUP) samples.push(elapsedMs(start));
        }
        return samples;
      };
      const pathLocks = new PathLocks();
      const oldPath = await sample(async (i) => {
        const error = await pathLocks.run(abs, async () => {
          await ws.readFile(abs);
          return ws.replaceFile(abs, content(i), { beforeReplace: async () => void (await ws.readFile(abs)) });
        });
        if (error) throw new Error(error.message);
      });
      const locks = new WriteLocks(root, false);
      const guarded = (trace: typeof nullTraceSink) => async (i: number) => {
        const current = await ws.readFile(abs);
        const result = await replaceIfUnchanged(ws, locks, {
          target,
          basis: current && { hash: contentHash(current) },
          computedFrom: current,
          next: content(i),
          record: (outcome) =>
            trace.recordAhead(
              { timestamp: new Date().toISOString(), invocation_id: `b${i}`, session_id: 'b', agent: { name: 'bench' }, intent_id: 'bench', tool: 'write_file', mutation_class: 'write', files: [{ path: 'src/file.ts', after: 'x' }], decision: 'allow' },
              [{ path: 'src/file.ts', before_hash: outcome.beforeHash, after_hash: outcome.afterHash }],
            ),
        });
        if (!result.ok) throw new Error(result.error.message);
      };
      const lockedOnly = await sample(guarded(nullTraceSink));
      const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'bench', anchors: new MemoryAnchorStore(), fsync: 'never' });
      const writeAhead = await sample(guarded(sink));
      await sink.close();
      const baseline = percentile(oldPath, 50);
      const row = (name: string, samples: number[]) => [name, samples.length, percentile(samples, 50), percentile(samples, 99), percentile(samples, 50) / baseline];
      return [
        {
          title: 'The write of a governed 4 KB file: the old in-process lock vs. the cross-process write lock and the write-ahead record',
          columns: ['write path', 'writes', 'p50 ms', 'p99 ms', 'p50 vs old path'],
          rows: [
            row('old: in-process lock, check, temp + fsync + rename (baseline)', oldPath),
            row('cross-process write lock + re-checks (folders, content), no trace', lockedOnly),
            row('the same + write-ahead record and journal entry (trace fsync never)', writeAhead),
          ],
          notes: ['Every row includes the temp file fsync and rename; with the trace on fsync `always` each write adds one fdatasync of the log (see the trace suite).'],
        },
      ];
    });
  },
};
