import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_HOOK_PATH, forwardedEnvHeader, RESIDENT_HEADERS, residentEndpointPath } from '../src/core/agents/common/residentProtocol';
import { HOOK_TIMINGS_ENV, readHookTimings } from '../src/core/bridge/hookTimings';
import { removeTree } from '../test/support/removeTree';
import { seedAgentBenchWorkspace } from './benchWorkspace';
import { percentile, type BenchSuite, type BenchTable } from './table';

const WRITES = 300;
const WARMUP = 20;
const CLI = join(__dirname, '..', 'dist', 'cli.js');

interface Endpoint {
  port: number;
  token: string;
}

/** One hook event POSTed as the launcher sends it (a fresh connection each time); resolves to the wall time and the answer. */
function post(endpoint: Endpoint, cwd: string, body: unknown): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json', [RESIDENT_HEADERS.agent]: 'gemini', [RESIDENT_HEADERS.cwd]: cwd, [RESIDENT_HEADERS.timeoutMs]: '60000', [forwardedEnvHeader('INTENT_GOVERNOR_INTENT')]: 'bench' };
    const req = request({ host: '127.0.0.1', port: endpoint.port, path: AGENT_HOOK_PATH, method: 'POST', agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function endpointOf(home: string, ws: string): Promise<Endpoint> {
  const file = residentEndpointPath(home, ws);
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const [port, token] = readFileSync(file, 'utf8').trim().split(/\s+/);
  return { port: Number(port), token };
}

/**
 * The resident governor's own cost per hook event, without an agent beside it: Gemini CLI's in-scope write_file
 * (BeforeTool, the file written, AfterTool) POSTed to a real `governor resident` over loopback, as the hook launcher
 * does. The baseline is the same request for another governed folder, which this resident does not govern (its 421:
 * the HTTP round trip and the door's reading of the call, nothing judged).
 */
export const residentBench: BenchSuite = {
  name: 'resident',
  async run(): Promise<BenchTable[]> {
    const temp = mkdtempSync(join(tmpdir(), 'ig-bench-resident-'));
    const ws = join(temp, 'ws');
    const elsewhere = join(temp, 'elsewhere');
    mkdirSync(ws);
    mkdirSync(join(elsewhere, '.orchestration'), { recursive: true }); // governed, but by no resident here
    seedAgentBenchWorkspace(ws);
    const home = join(temp, 'gh');
    const timings = join(temp, 'hook-timings.tsv');
    const env = { ...process.env, HOME: temp, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'), [HOOK_TIMINGS_ENV]: timings };
    const resident = spawn(process.execPath, [CLI, 'resident', '--workspace', ws], { env, stdio: 'ignore' });
    try {
      const endpoint = await endpointOf(home, ws);
      const floor: number[] = [];
      const pre: number[] = [];
      const postWall: number[] = [];
      for (let i = 0; i < WARMUP + WRITES; i++) {
        const file = join(ws, 'src', `f${i}.ts`);
        const input = { file_path: file, content: `export const f${i} = ${i};\n` };
        const event = { session_id: 'bench', transcript_path: join(temp, 't.jsonl'), cwd: ws, timestamp: new Date().toISOString(), tool_name: 'write_file', tool_input: input };
        const notMine = await post(endpoint, elsewhere, { ...event, cwd: elsewhere, hook_event_name: 'BeforeTool' });
        const before = await post(endpoint, ws, { ...event, hook_event_name: 'BeforeTool' });
        if (notMine.status !== 421 || before.status !== 200 || !before.text.startsWith('0\n')) throw new Error(`resident bench: unexpected answers ${notMine.status} / ${before.status} ${JSON.stringify(before.text)}`);
        writeFileSync(file, input.content);
        const after = await post(endpoint, ws, { ...event, hook_event_name: 'AfterTool', tool_response: { llmContent: 'ok' } });
        // An agent's next call comes after its model's turn: the recording after the answer is not raced here.
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (i < WARMUP) continue;
        floor.push(notMine.ms);
        pre.push(before.ms);
        postWall.push(after.ms);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const own = new Map<string, number[]>();
      const preWrites: number[] = [];
      const preCpu: number[] = [];
      for (const { which: event, ms, writeMs, cpuMs } of readHookTimings(timings)) {
        if (!own.has(event)) own.set(event, []);
        own.get(event)?.push(ms);
        if (event === 'PreToolUse' && writeMs !== undefined) preWrites.push(writeMs);
        if (event === 'PreToolUse' && cpuMs !== undefined) preCpu.push(cpuMs);
      }
      preWrites.splice(0, WARMUP);
      preCpu.splice(0, WARMUP);
      for (const [event, samples] of own) own.set(event, samples.slice(WARMUP));
      const floorP50 = percentile(floor, 50);
      const row = (name: string, samples: number[] | undefined, wall: boolean) => {
        const values = samples ?? [];
        return [name, values.length, percentile(values, 50), percentile(values, 90), wall ? percentile(values, 50) / floorP50 : ''];
      };
      return [
        {
          title: `Resident governor, Gemini CLI's in-scope write_file over loopback (${WRITES} writes, no agent beside it), ms`,
          columns: ['what', 'n', 'p50', 'p90', 'ratio vs the 421 round trip'],
          rows: [
            row('a folder the resident does not govern: its 421 (the round trip, the baseline)', floor, true),
            row('BeforeTool, wall time at the client', pre, true),
            row('AfterTool, wall time at the client (answered before it is recorded)', postWall, true),
            row("the governor's own time: PreToolUse", own.get('PreToolUse'), false),
            row("the governor's CPU time in a PreToolUse (every thread of the process)", preCpu, false),
            row("the PreToolUse answer's write, until it returned (not in the governor's own time)", preWrites, false),
            row("the governor's own time: PostToolUse", own.get('PostToolUse'), false),
            row("the governor's own time: recording the write after the answer", own.get('PostToolUse(recorded after the answer)'), false),
          ],
          notes: [
            "The governor's own time is what the resident writes to INTENT_GOVERNOR_HOOK_TIMINGS: from the parsed hook input to the answer handed to the socket. Target: ≤ 2 ms per hook at p50. The write's return is shown apart: the client it wakes may run on the same core before it returns.",
            'The 421 is answered as JSON with the usual headers, an answered hook with the fewest header bytes (the launcher reads them one at a time), so an AfterTool can come back sooner than the baseline.',
          ],
        },
      ];
    } finally {
      resident.kill('SIGTERM');
      await new Promise((resolve) => resident.once('exit', resolve));
      await removeTree(temp);
    }
  },
};
