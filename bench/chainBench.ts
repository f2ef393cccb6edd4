import { spawn } from 'node:child_process';
import { Governor } from '../src/core/governor';
import { createNodeServices, denyingApprover } from '../src/core/nodeServices';
import { withBenchWorkspace } from './benchWorkspace';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const WRITES = 2000;
const WARMUP = 200;
const SPAWNS = 60;

function spawnOnce(file: string, args: string[]): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(elapsedMs(start)));
  });
}

async function spawnSamples(file: string, args: string[]): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < SPAWNS; i++) samples.push(await spawnOnce(file, args));
  return samples.slice(5);
}

/** Governed 4 KB writes; the chain's cost is the call's total minus the tool's own write, timed apart by marker hooks. */
function chainSamples(): Promise<{ chain: number[]; write: number[] }> {
  return withBenchWorkspace({}, async (root) => {
    const services = await createNodeServices({ root, approver: denyingApprover });
    const governor = new Governor(services);
    let toolStart = 0n;
    let toolEnd = 0n;
    governor.engine.registerPre({ name: 'bench-mark-start', guard: true, run: () => { toolStart = process.hrtime.bigint(); return { decision: { kind: 'allow' } }; } }, { after: 'approval-gate' });
    // first among post-hooks, so the ledger and the trace count as chain
    governor.engine.registerPost({ name: 'bench-mark-end', run: () => { toolEnd = process.hrtime.bigint(); } }, { first: true });
    const agent = { name: 'bench' };
    await governor.run({ tool: 'select_active_intent', input: { intent_id: 'bench' }, session_id: 'b', agent }, { mode: 'execute' });
    const chain: number[] = [];
    const write: number[] = [];
    for (let i = 0; i < WARMUP + WRITES; i++) {
      const content = `// revision ${i}\n${'x'.repeat(4096 - 20)}\n`;
      const start = process.hrtime.bigint();
      const result = await governor.run({ tool: 'write_file', input: { path: 'src/file.ts', content }, session_id: 'b', agent }, { mode: 'execute' });
      const total = elapsedMs(start);
      if (!result.ok) throw new Error(`bench write refused: ${result.error.message}`);
      const tool = Number(toolEnd - toolStart) / 1e6;
      if (i >= WARMUP) {
        chain.push(total - tool);
        write.push(tool);
      }
    }
    return { chain, write };
  });
}

export const chainBench: BenchSuite = {
  name: 'chain',
  async run(): Promise<BenchTable[]> {
    const { chain, write } = await chainSamples();
    const sh = await spawnSamples('/bin/sh', ['-c', 'true']);
    const node = await spawnSamples(process.execPath, ['-e', '0']);
    const chainP50 = percentile(chain, 50);
    const row = (name: string, samples: number[]) => [name, samples.length, percentile(samples, 50), percentile(samples, 99), percentile(samples, 50) / chainP50];
    return [
      {
        title: 'Pre+post hook chain for a governed 4 KB write vs. one external hook process',
        columns: ['measure', 'samples', 'p50 ms', 'p99 ms', 'p50 / chain p50'],
        rows: [row('governed chain (pre+post, write excluded)', chain), row('the write itself (lock, temp, fsync, rename)', write), row('spawn `sh -c true`', sh), row('spawn `node -e 0`', node)],
        notes: [
          `Targets: chain p50 < sh spawn p50 (${chainP50 < percentile(sh, 50) ? 'met' : 'MISSED'}), chain p99 < 2 ms (${percentile(chain, 99) < 2 ? 'met' : 'MISSED'}), node hook ≥ 20× chain (${percentile(node, 50) / chainP50 >= 20 ? 'met' : 'MISSED'}: ${(percentile(node, 50) / chainP50).toFixed(1)}×).`,
        ],
      },
    ];
  },
};
