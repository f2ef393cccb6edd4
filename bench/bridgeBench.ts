import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryBeforeStash } from '../src/core/bridge/beforeStash';
import { hookRoute } from '../src/core/bridge/hookRoute';
import { NativeToolBridge } from '../src/core/bridge/nativeToolBridge';
import { Governor } from '../src/core/governor';
import { writeDiscoveryFile } from '../src/core/mcp/discoveryFile';
import { startHttpMcpServer } from '../src/core/mcp/httpMcpServer';
import { createNodeServices, denyingApprover } from '../src/core/nodeServices';
import { withBenchWorkspace } from './benchWorkspace';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const RUNS = 40;
const WARMUP = 3;
/** What Install Agent Hooks points agents at: the small hook bundle (it loads dist/cli.js only headless). */
const CLI = join(__dirname, '..', 'dist', 'hook.js');

/** Process start to answer: spawn, write stdin, wait for exit. Fails on an unexpected answer. */
async function roundTrip(args: string[], stdin: string, env: NodeJS.ProcessEnv, expectOut: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = elapsedMs(start);
  if (code !== 0 || out !== expectOut) throw new Error(`bench hook answered ${code} ${JSON.stringify(out)}`);
  return ms;
}

async function sample(run: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await run());
  return samples;
}

/** One bridged PreToolUse (Claude Code's Write, in scope, allowed) from process start to answer. */
export const bridgeBench: BenchSuite = {
  name: 'bridge',
  run(): Promise<BenchTable[]> {
    // An in-scope write that lands without a person (the default asks on every change, and the bench times an allow).
    const settings = JSON.stringify({ 'intentGovernor.approval': 'destructive-only' });
    return withBenchWorkspace({ 'src/file.ts': 'export {};\n', '.vscode/settings.json': settings }, async (root) => {
      const home = await mkdtemp(join(tmpdir(), 'ig-bench-home-'));
      const env = { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors') };
      const payload = JSON.stringify({ session_id: 'bench', transcript_path: '/tmp/t.jsonl', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 'toolu_bench', tool_input: { file_path: join(root, 'src/new.ts'), content: 'x\n' } });
      const services = await createNodeServices({ root, approver: denyingApprover });
      services.sessions.setDefaultIntent('bench');
      const governor = new Governor(services);
      const server = await startHttpMcpServer({ governor, name: 'bench', version: 'bench', logger: services.logger, routes: [hookRoute(new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: true }))] });
      try {
        const baseline = await sample(() => roundTrip(['-e', '0'], '', env, ''));
        const headlessArgs = [CLI, 'hook', 'claude', '--headless', '--intent', 'bench'];
        const headless = await sample(() => roundTrip(headlessArgs, payload, env, ''));
        // The first call after an install or upgrade: no code cache yet (it is written by that call).
        const uncached = await sample(async () => {
          await rm(join(home, 'code-cache'), { recursive: true, force: true });
          return roundTrip(headlessArgs, payload, env, '');
        });
        await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [root], url: server.url }, join(home, 'servers'));
        const withExtension = await sample(() => roundTrip([CLI, 'hook', 'claude'], payload, env, ''));
        const base = percentile(baseline, 50);
        const row = (name: string, s: number[]) => [name, s.length, percentile(s, 50), percentile(s, 99), percentile(s, 50) / base];
        return [
          {
            title: `One bridged PreToolUse (Claude Code Write, in scope), process start to answer, ${RUNS} runs each`,
            columns: ['path', 'runs', 'p50 ms', 'p99 ms', 'p50 vs node -e 0'],
            rows: [
              row('node -e 0 (baseline)', baseline),
              row('dist/hook.js hook claude, headless (loads dist/hook-headless.js through its code cache)', headless),
              row('  the same, first call after an install or upgrade (no code cache yet)', uncached),
              row('dist/hook.js hook claude → running extension (POST /hook)', withExtension),
            ],
            notes: [
              'Target p50 < 80 ms. Headless loads the governor (a V8 code cache under the governor home makes that a deserialisation, not a compile) and judges the call in the hook process; with the extension the process only parses, maps and asks over loopback.',
            ],
          },
        ];
      } finally {
        await server.close();
        await rm(home, { recursive: true, force: true });
      }
    });
  },
};
