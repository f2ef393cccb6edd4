import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_HOOK_PATH, forwardedEnvHeader, RESIDENT_HEADERS, residentEndpointPath } from '../src/core/agents/common/residentProtocol';
import { HOOK_TIMINGS_ENV, readHookTimings } from '../src/core/bridge/hookTimings';
import { RESIDENT_V8_FLAGS } from '../src/cli/residentWarmStart';
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

/** What one resident answered: the client's wall times and the resident's own timings (INTENT_GOVERNOR_HOOK_TIMINGS), warm-up left out. */
interface Served {
  floor: number[];
  pre: number[];
  postWall: number[];
  /** The resident's own time by event. */
  own: Map<string, number[]>;
  preWrites: number[];
  preCpu: number[];
}

/**
 * Starts a `governor resident` (node given `nodeArgs` first) on a fresh workspace and POSTs `warmup + writes` of
 * Gemini CLI's in-scope write_file to it, each with a 421 for another folder before it; a SessionStart first when
 * `sessionStart`. Returns the samples past the warm-up.
 */
async function serveWrites(nodeArgs: string[], warmup: number, writes: number, sessionStart: boolean): Promise<Served> {
  const temp = mkdtempSync(join(tmpdir(), 'ig-bench-resident-'));
  const ws = join(temp, 'ws');
  const elsewhere = join(temp, 'elsewhere');
  mkdirSync(ws);
  mkdirSync(join(elsewhere, '.orchestration'), { recursive: true }); // governed, but by no resident here
  seedAgentBenchWorkspace(ws);
  const home = join(temp, 'gh');
  const timings = join(temp, 'hook-timings.tsv');
  const env = { ...process.env, HOME: temp, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'), [HOOK_TIMINGS_ENV]: timings };
  const resident = spawn(process.execPath, [...nodeArgs, CLI, 'resident', '--workspace', ws], { env, stdio: 'ignore' });
  try {
    const endpoint = await endpointOf(home, ws);
    const served: Served = { floor: [], pre: [], postWall: [], own: new Map(), preWrites: [], preCpu: [] };
    const base = { session_id: 'bench', transcript_path: join(temp, 't.jsonl'), cwd: ws };
    if (sessionStart) {
      const started = await post(endpoint, ws, { ...base, hook_event_name: 'SessionStart', timestamp: new Date().toISOString(), source: 'startup' });
      if (started.status !== 200) throw new Error(`resident bench: SessionStart answered ${started.status} ${JSON.stringify(started.text)}`);
    }
    for (let i = 0; i < warmup + writes; i++) {
      const file = join(ws, 'src', `f${i}.ts`);
      const input = { file_path: file, content: `export const f${i} = ${i};\n` };
      const event = { ...base, timestamp: new Date().toISOString(), tool_name: 'write_file', tool_input: input };
      const notMine = await post(endpoint, elsewhere, { ...event, cwd: elsewhere, hook_event_name: 'BeforeTool' });
      const before = await post(endpoint, ws, { ...event, hook_event_name: 'BeforeTool' });
      if (notMine.status !== 421 || before.status !== 200 || !before.text.startsWith('0\n')) throw new Error(`resident bench: unexpected answers ${notMine.status} / ${before.status} ${JSON.stringify(before.text)}`);
      writeFileSync(file, input.content);
      const after = await post(endpoint, ws, { ...event, hook_event_name: 'AfterTool', tool_response: { llmContent: 'ok' } });
      // An agent's next call comes after its model's turn: the recording after the answer is not raced here.
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (i < warmup) continue;
      served.floor.push(notMine.ms);
      served.pre.push(before.ms);
      served.postWall.push(after.ms);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const tool = new Map<string, number>();
    for (const { which: event, ms, writeMs, cpuMs } of readHookTimings(timings)) {
      // SessionStart (once) is kept; each tool event's first `warmup` are left out.
      const seen = (tool.get(event) ?? 0) + 1;
      tool.set(event, seen);
      if (event !== 'SessionStart' && seen <= warmup) continue;
      if (!served.own.has(event)) served.own.set(event, []);
      served.own.get(event)?.push(ms);
      if (event === 'PreToolUse' && writeMs !== undefined) served.preWrites.push(writeMs);
      if (event === 'PreToolUse' && cpuMs !== undefined) served.preCpu.push(cpuMs);
    }
    return served;
  } finally {
    resident.kill('SIGTERM');
    await new Promise((resolve) => resident.once('exit', resolve));
    await removeTree(temp);
  }
}

/** Fresh residents per setup, setups interleaved: each meets one agent session's first writes. */
const FRESH_ROUNDS = 6;
const FRESH_WRITES = 19;

/** A resident with node's defaults: the flags residentWarmStart.ts sets at run time, each turned off on the command line (which wins). */
const NODE_DEFAULTS = RESIDENT_V8_FLAGS.map((flag) => (flag.startsWith('--no-') ? `--${flag.slice(5)}` : `--no-${flag.slice(2)}`));

/**
 * The resident governor's own cost per hook event, without an agent beside it: Gemini CLI's in-scope write_file
 * (BeforeTool, the file written, AfterTool) POSTed to a real `governor resident` over loopback, as the hook launcher
 * does. The baseline is the same request for another governed folder, which this resident does not govern (its 421:
 * the HTTP round trip and the door's reading of the call, nothing judged). Then fresh residents, as an agent's
 * session meets one, as installed and with node's default tiering.
 */
export const residentBench: BenchSuite = {
  name: 'resident',
  async run(): Promise<BenchTable[]> {
    const warm = await serveWrites([], WARMUP, WRITES, false);
    const floorP50 = percentile(warm.floor, 50);
    const row = (name: string, samples: number[] | undefined, wall: boolean) => {
      const values = samples ?? [];
      return [name, values.length, percentile(values, 50), percentile(values, 90), wall ? percentile(values, 50) / floorP50 : ''];
    };
    const installed: Served[] = [];
    const defaults: Served[] = [];
    for (let round = 0; round < FRESH_ROUNDS; round++) {
      installed.push(await serveWrites([], 1, FRESH_WRITES, true));
      defaults.push(await serveWrites(NODE_DEFAULTS, 1, FRESH_WRITES, true));
    }
    const freshRow = (name: string, pick: (served: Served) => number[] | undefined) => {
      const asInstalled = installed.flatMap((served) => pick(served) ?? []);
      const p50 = percentile(asInstalled, 50);
      const defaultsP50 = percentile(defaults.flatMap((served) => pick(served) ?? []), 50);
      return [name, asInstalled.length, p50, defaultsP50, p50 / defaultsP50];
    };
    return [
      {
        title: `Resident governor, Gemini CLI's in-scope write_file over loopback (${WRITES} writes, no agent beside it), ms`,
        columns: ['what', 'n', 'p50', 'p90', 'ratio vs the 421 round trip'],
        rows: [
          row('a folder the resident does not govern: its 421 (the round trip, the baseline)', warm.floor, true),
          row('BeforeTool, wall time at the client', warm.pre, true),
          row('AfterTool, wall time at the client (answered before it is recorded)', warm.postWall, true),
          row("the governor's own time: PreToolUse", warm.own.get('PreToolUse'), false),
          row("the governor's CPU time in a PreToolUse (every thread of the process)", warm.preCpu, false),
          row("the PreToolUse answer's write, until it returned (not in the governor's own time)", warm.preWrites, false),
          row("the governor's own time: PostToolUse", warm.own.get('PostToolUse'), false),
          row("the governor's own time: recording the write after the answer", warm.own.get('PostToolUse(recorded after the answer)'), false),
        ],
        notes: [
          "The governor's own time is what the resident writes to INTENT_GOVERNOR_HOOK_TIMINGS: from the parsed hook input to the answer handed to the socket. Target: ≤ 2 ms per hook at p50. The write's return is shown apart: the client it wakes may run on the same core before it returns.",
          'The 421 is answered as JSON with the usual headers, an answered hook with the fewest header bytes (the launcher reads them one at a time), so an AfterTool can come back sooner than the baseline.',
        ],
      },
      {
        title: `A fresh resident, as an agent's session meets one: a SessionStart, then ${FRESH_WRITES} writes after the first (${FRESH_ROUNDS} residents each, interleaved), the governor's own time p50, ms`,
        columns: ['what', 'n', 'as installed', `node's defaults (${NODE_DEFAULTS.join(' ')})`, 'ratio'],
        rows: [
          freshRow('PreToolUse', (served) => served.own.get('PreToolUse')),
          freshRow('PreToolUse, CPU time', (served) => served.preCpu),
          freshRow('PostToolUse', (served) => served.own.get('PostToolUse')),
          freshRow('recording the write after the answer', (served) => served.own.get('PostToolUse(recorded after the answer)')),
          freshRow('SessionStart (once per resident)', (served) => served.own.get('SessionStart')),
        ],
        notes: [
          `As installed, the resident sets ${RESIDENT_V8_FLAGS.join(' ')} when it starts (src/cli/residentWarmStart.ts): each of its paths runs a few times per session, too few for V8's optimiser, so baseline code from the first call is what those calls run. Its price is the compiling of code that runs once, as at SessionStart.`,
        ],
      },
    ];
  },
};
