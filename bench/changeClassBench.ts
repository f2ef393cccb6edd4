import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { classifyChange } from '../src/core/changeClass/classifyChange';
import { changedRanges } from '../src/core/trace/ranges';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const RUNS = 30;
const LOADS = 5;

/** Real files of this repository, small to large, each reprinted by TypeScript's printer (a pure reformat). */
const FILES = ['src/core/trace/traceTable.ts', 'src/core/tools/runCommand.ts', 'src/core/trace/chainedLog.ts', 'src/core/changeClass/canonicalTree.ts'];

/**
 * What classifying a change costs, against what every trace record already pays for the same change: the
 * line diff that gives its ranges. Then what loading the parser costs a fresh process (a hook call), with and
 * without the V8 code cache the headless hook uses.
 */
export const changeClassBench: BenchSuite = {
  name: 'changeclass',
  async run(): Promise<BenchTable[]> {
    const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
    classifyChange({ path: 'warm.ts', before: 'export const a = 1;', after: 'export const a = 2;' });
    const rows: (string | number)[][] = [];
    for (const path of FILES) {
      const before = readFileSync(join(__dirname, '..', path), 'utf8');
      const after = printer.printFile(ts.createSourceFile(path, before, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
      const sample = (work: () => unknown) => {
        const samples: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const start = process.hrtime.bigint();
          work();
          samples.push(elapsedMs(start));
        }
        return percentile(samples, 50);
      };
      const ranges = sample(() => changedRanges(before, after));
      let verdict = '';
      const classify = sample(() => (verdict = classifyChange({ path, before, after }).class));
      rows.push([path, Math.round(before.length / 1024), verdict, ranges, classify, classify / ranges]);
    }
    return [
      {
        title: 'Classifying a change (syntax-tree rule) vs. the line diff every trace record already computes',
        columns: ['file (reformatted)', 'KiB', 'class', 'ranges p50 ms (baseline)', 'classify p50 ms', 'ratio'],
        rows,
        notes: ['Classification runs before the write lock (write_file, edit_file, delete_file) or when a native change is recorded.'],
      },
      parserLoads(),
    ];
  },
};

/** Fresh processes (bundled as the CLI is, typescript left outside) classifying once: plain `require` vs. the code cache. */
function parserLoads(): BenchTable {
  const dir = mkdtempSync(join(tmpdir(), 'ig-bench-ts-'));
  const vendor = join(__dirname, '..', 'dist', 'vendor');
  const child = join(dir, 'child.js');
  const typescript = require.resolve('typescript');
  buildSync({ entryPoints: [join(__dirname, 'parserLoadChild.ts')], outfile: child, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error', alias: { typescript }, external: [typescript] });
  const load = (mode: string) => {
    const samples: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const run = spawnSync(process.execPath, [child, mode, join(dir, 'home'), vendor], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(run.stderr);
      samples.push(Number(run.stdout));
    }
    return percentile(samples, 50);
  };
  try {
    const plain = load('plain');
    load('cache'); // the first one writes the cache
    const cached = load('cache');
    return {
      title: 'The first classification in a fresh process (a hook call): loading the TypeScript parser',
      columns: ['load', 'p50 ms', 'vs plain require'],
      rows: [
        ['plain require (baseline)', plain, 1],
        ['through the V8 code cache (headless hook)', cached, cached / plain],
      ],
      notes: ['A process that changes no TS/JS file never loads it.'],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
