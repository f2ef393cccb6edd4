import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Governor } from '../src/core/governor';
import { startHttpMcpServer } from '../src/core/mcp/httpMcpServer';
import { createNodeServices, denyingApprover } from '../src/core/nodeServices';
import { withBenchWorkspace } from './benchWorkspace';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const CALLS = 300;
const WARMUP = 30;


async function sample(call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(elapsedMs(start));
  }
  return samples;
}

/** The same governed read_file of a 4 KB file, called in process and through a real MCP client over loopback HTTP. */
export const mcpBench: BenchSuite = {
  name: 'mcp',
  run(): Promise<BenchTable[]> {
    return withBenchWorkspace({ 'src/file.ts': `${'x'.repeat(4095)}\n` }, async (root) => {
      const services = await createNodeServices({ root, approver: denyingApprover });
      const governor = new Governor(services);
      const input = { path: 'src/file.ts' };

      const inProcess = await sample(async () => {
        const result = await governor.run({ tool: 'read_file', input, session_id: 'bench', agent: { name: 'bench' } }, { mode: 'execute' });
        if (!result.ok) throw new Error(`bench read refused: ${result.error.message}`);
      });

      const server = await startHttpMcpServer({ governor, name: 'intent-governor', version: 'bench', logger: services.logger });
      const client = new Client({ name: 'bench', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
        const overHttp = await sample(async () => {
          const result = await client.callTool({ name: 'read_file', arguments: input });
          if (result.isError) throw new Error('bench read refused over MCP');
        });
        const baseline = percentile(inProcess, 50);
        const row = (name: string, samples: number[]) => [name, samples.length, percentile(samples, 50), percentile(samples, 99), percentile(samples, 50) / baseline];
        return [
          {
            title: `Governed read_file (4 KB), ${CALLS} sequential calls: in process vs. MCP Streamable HTTP on loopback`,
            columns: ['door', 'calls', 'p50 ms', 'p99 ms', 'p50 vs in process'],
            rows: [row('Governor.run (execute) in process (baseline)', inProcess), row('SDK Client → HTTP /mcp (token, Host, SSE response)', overHttp)],
            notes: ['The HTTP row adds the request guard, JSON-RPC framing, one SSE response per call and the SDK client on both ends.'],
          },
        ];
      } finally {
        await client.close();
        await server.close();
      }
    });
  },
};
