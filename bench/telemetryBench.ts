import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../src/core/governor';
import { createNodeServices, denyingApprover } from '../src/core/nodeServices';
import { createTraceStack } from '../src/core/trace/traceStack';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const CALLS = 300;
const INTENTS = 'active_intents:\n  - id: bench\n    name: Bench\n    status: IN_PROGRESS\n    owned_scope:\n      - src/**\n';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** In-scope writes through the governor with the real trace stack; per call ms. `endpoint` undefined: no export. */
async function tracedCalls(endpoint: string | undefined): Promise<{ samples: number[]; stats?: string }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ig-bench-otlp-')));
  try {
    mkdirSync(join(root, '.orchestration'));
    writeFileSync(join(root, '.orchestration', 'active_intents.yaml'), INTENTS);
    const env: NodeJS.ProcessEnv = { INTENT_GOVERNOR_MANAGED_FILE: join(root, 'no-managed.json'), ...(endpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } : {}) };
    const stack = createTraceStack({ workspaceRoot: root, toolVersion: 'bench', anchorDir: join(root, 'anchors'), governorHome: join(root, 'home'), fsync: 'never', env });
    const services = await createNodeServices({ root, approver: denyingApprover, trace: stack.sink, policy: { approval: 'destructive-only' } });
    services.sessions.bindIntent('s', 'bench');
    const governor = new Governor(services);
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = process.hrtime.bigint();
      const result = await governor.run({ tool: 'write_file', input: { path: `src/f${i % 50}.ts`, content: `export const v = ${i};\n` }, session_id: 's', agent: { name: 'bench' } }, { mode: 'execute' });
      samples.push(elapsedMs(start));
      if (!result.ok) throw new Error(`bench call refused: ${result.error.message}`);
    }
    await stack.exporter?.flush(3000);
    const stats = stack.exporter?.stats();
    await stack.sink.close();
    return { samples: samples.slice(CALLS / 10), stats: stats && `exported ${stats.exported}, failed ${stats.failed}, dropped ${stats.dropped}` };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export const telemetryBench: BenchSuite = {
  name: 'telemetry',
  async run(): Promise<BenchTable[]> {
    const dead = `http://127.0.0.1:${await freePort()}`;
    // Alternated, so the machine's drift (other work on it) lands on both rows alike.
    const base: number[] = [];
    const downSamples: number[] = [];
    let downStats = '';
    for (let round = 0; round < 3; round++) {
      base.push(...(await tracedCalls(undefined)).samples);
      const down = await tracedCalls(dead);
      downSamples.push(...down.samples);
      downStats = down.stats ?? '';
    }
    const load = spawnSync(process.execPath, ['-e', "const t=process.hrtime.bigint(); require('./dist/vendor/otel.js'); process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))"], { encoding: 'utf8' });
    const row = (name: string, samples: number[], note = '') => [name, percentile(samples, 50), percentile(samples, 95), percentile(samples, 50) / percentile(base, 50), note];
    return [
      {
        title: `OpenTelemetry export: cost per traced call (3 alternated rounds of ${CALLS} in-scope write_file through the governor, trace stack with fsync never)`,
        columns: ['export', 'p50 ms', 'p95 ms', 'ratio p50', 'exporter'],
        rows: [
          row('off (no endpoint)', base),
          row(`to a dead endpoint (${dead}, connection refused)`, downSamples, `last round: ${downStats}`),
          ['first load of dist/vendor/otel.js in a fresh process (once, on the first send)', load.stdout ? Number(load.stdout) : 'npm run build first', '', '', ''],
        ],
        notes: ['The call only queues the record; sending (and the failed sends with their retries) happen in the background, so a dead collector costs the call nothing it waits for.'],
      },
    ];
  },
};
