import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESIDENT_CLIENT_SUFFIX } from '../src/core/agents/common/hookLauncher';
import { readHookTimings } from '../src/core/bridge/hookTimings';
import { residentEndpointPid } from '../src/core/bridge/residentEndpoint';
import { removeAgentTemp } from '../test/agents/agentWorkspace';
import { repoRoot } from '../test/agents/claudeCodeDriver';
import { pathWithCodex, provisionedCodex, runCodex, writeCodexConfig } from '../test/agents/codexDriver';
import { provisionedCline, runCline } from '../test/agents/clineDriver';
import { provisionedCopilot, runCopilot } from '../test/agents/copilotDriver';
import { provisionedGemini, runGemini } from '../test/agents/geminiDriver';
import { provisionedOpencode, runOpencode } from '../test/agents/opencodeDriver';
import { startScriptedAnthropic } from '../test/support/scriptedAnthropic';
import { startScriptedGemini, type ScriptStep } from '../test/support/scriptedGemini';
import { startScriptedOpenAI } from '../test/support/scriptedOpenAI';
import { seedAgentBenchWorkspace } from './benchWorkspace';
import { percentile, type BenchTable } from './table';

const WRITES = 20;
const ROUNDS = Number(process.env.BENCH_AGENTS_ROUNDS ?? 3);

/** One command-hook agent: its hook install name, a write of file `i`, and how a session runs against a scripted model. */
interface HookAgent {
  label: string;
  install: string;
  write(ws: string, i: number): ScriptStep;
  /** The floor's launcher when exit 0 with nothing said is not an allow for this agent (OpenCode's plugin wants its answer). */
  floorLauncher?: string;
  /** What `governor hooks install` needs to see (Codex: its binary on PATH, to trust the hooks it writes). */
  installEnv?: NodeJS.ProcessEnv;
  /** What the agent needs in its HOME whatever the setup (Codex: its model provider, the project trusted). */
  prepareHome?(ws: string, home: string): void;
  /** Runs one session of `steps`; returns when it ended, with the model's request times. */
  session(ws: string, home: string, steps: ScriptStep[], env: NodeJS.ProcessEnv): Promise<number[]>;
}

/** The times the model was asked for its next step: the requests offering tools (not titles, token counts or summaries). */
async function played<T extends { requests: { at: number; body: Record<string, unknown> }[]; remaining(): number; close(): Promise<void> }>(model: T, run: () => Promise<{ stdout: string; stderr: string }>): Promise<number[]> {
  try {
    const result = await run();
    if (model.remaining() !== 0) throw new Error(`the session stopped before its script ended: ${result.stderr.slice(0, 400)}`);
    return model.requests.filter((request) => Array.isArray(request.body.tools) && request.body.tools.length > 0).map((request) => request.at);
  } finally {
    await model.close();
  }
}

function agents(): HookAgent[] {
  const gemini = provisionedGemini();
  const codex = provisionedCodex();
  const copilot = provisionedCopilot();
  const cline = provisionedCline();
  const opencode = provisionedOpencode();
  return [
    {
      label: 'Gemini CLI 0.61.0',
      install: 'gemini',
      write: (_ws, i) => ({ tool: 'write_file', input: { file_path: `src/f${i}.ts`, content: `export const f${i} = ${i};\n` } }),
      session: async (ws, home, steps, env) => {
        const model = await startScriptedGemini(steps);
        return played(model, () => runGemini({ binary: gemini, cwd: ws, modelUrl: model.url, home, env }));
      },
    },
    {
      label: 'Codex CLI 0.169.0',
      install: 'codex',
      prepareHome: (ws, home) => writeCodexConfig(home, [ws]),
      installEnv: { PATH: pathWithCodex(codex) },
      write: (_ws, i) => ({ tool: 'apply_patch', input: { input: `*** Begin Patch\n*** Add File: src/f${i}.ts\n+export const f${i} = ${i};\n*** End Patch\n` } }),
      session: async (ws, home, steps, env) => {
        const model = await startScriptedOpenAI(steps);
        return played(model, () => runCodex({ binary: codex, cwd: ws, modelUrl: model.url, home, env: { ...env, PATH: pathWithCodex(codex) } }));
      },
    },
    {
      label: 'Copilot CLI 1.0.102',
      install: 'copilot',
      write: (ws, i) => ({ tool: 'create', input: { path: join(ws, 'src', `f${i}.ts`), file_text: `export const f${i} = ${i};\n` } }),
      session: async (ws, home, steps, env) => {
        const model = await startScriptedAnthropic(steps);
        return played(model, () => runCopilot({ binary: copilot, cwd: ws, trusted: ws, modelUrl: model.url, home, env }));
      },
    },
    {
      label: 'Cline CLI 3.0.65',
      install: 'cline',
      write: (ws, i) => ({ tool: 'editor', input: { path: join(ws, 'src', `f${i}.ts`), new_text: `export const f${i} = ${i};\n` } }),
      session: async (ws, home, steps, env) => {
        const model = await startScriptedOpenAI(steps);
        return played(model, () => runCline({ binary: cline, cwd: ws, modelUrl: model.url, home, env }));
      },
    },
    {
      label: "OpenCode 1.18.33 (the governor's plugin)",
      install: 'opencode',
      floorLauncher: `#!/bin/sh\necho '{"decision":"allow"}'\n`,
      write: (_ws, i) => ({ tool: 'write', input: { filePath: `src/f${i}.ts`, content: `export const f${i} = ${i};\n` } }),
      session: async (ws, home, steps, env) => {
        const model = await startScriptedOpenAI(steps);
        return played(model, () => runOpencode({ binary: opencode, cwd: ws, modelUrl: model.url, home, env }));
      },
    },
  ];
}

interface Setup {
  name: string;
  /** The governor decides this setup's calls: every write must be on the record, or the row measured nothing. */
  governed?: boolean;
  /** Installs what the setup needs in `ws`; returns the env of the session. */
  prepare(agent: HookAgent, ws: string, home: string, temp: string): Promise<NodeJS.ProcessEnv>;
}

const NO_HOOKS = 'no hooks (baseline)';

function installHooks(agent: HookAgent, ws: string, home: string, env: NodeJS.ProcessEnv): void {
  const run = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'hooks', 'install', '--agent', agent.install, '--workspace', ws], { encoding: 'utf8', env: { ...process.env, HOME: home, CODEX_HOME: join(home, '.codex'), ...env, ...agent.installEnv } });
  if (run.status !== 0) throw new Error(`install failed: ${run.stdout}${run.stderr}`);
}

const homes = (temp: string) => ({ INTENT_GOVERNOR_HOME: join(temp, 'gh'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'), INTENT_GOVERNOR_INTENT: 'bench', INTENT_GOVERNOR_HOOK_TIMINGS: join(temp, 'hook-timings.tsv') });

const SETUPS: Setup[] = [
  { name: NO_HOOKS, prepare: async () => ({}) },
  {
    name: 'the installed hooks with a launcher that exits 0 (the cost of running any hook: the floor)',
    async prepare(agent, ws, home, temp) {
      const env = { ...homes(temp), INTENT_GOVERNOR_RESIDENT: 'off' };
      installHooks(agent, ws, home, env);
      writeFileSync(join(temp, 'gh', 'bin', 'governor-hook'), agent.floorLauncher ?? '#!/bin/sh\nexit 0\n');
      rmSync(join(temp, 'gh', 'bin', `governor-hook${RESIDENT_CLIENT_SUFFIX}`), { force: true }); // nothing sourced either
      return env;
    },
  },
  {
    name: 'governor, a Node process per hook call (INTENT_GOVERNOR_RESIDENT=off)',
    governed: true,
    async prepare(agent, ws, home, temp) {
      const env = { ...homes(temp), INTENT_GOVERNOR_RESIDENT: 'off' };
      installHooks(agent, ws, home, env);
      return env;
    },
  },
  {
    name: "governor, resident (as installed: the launcher over /dev/tcp, OpenCode's plugin over HTTP, to the workspace resident)",
    governed: true,
    async prepare(agent, ws, home, temp) {
      const env = { ...homes(temp), INTENT_GOVERNOR_RESIDENT: 'on' };
      installHooks(agent, ws, home, env);
      // The resident a first hook call starts, up before the timed session.
      const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'resident', '--workspace', ws], { env: { ...process.env, ...env }, detached: true, stdio: 'ignore' });
      child.unref();
      for (let i = 0; i < 100 && residentEndpointPid(env.INTENT_GOVERNOR_HOME, ws) === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (residentEndpointPid(env.INTENT_GOVERNOR_HOME, ws) === undefined) throw new Error('the resident did not come up');
      return env;
    },
  },
];

interface Sample {
  calls: number[];
  /** The governor's own time in each hook the agent waits for. */
  hooks: number[];
  /** Its recording of a file change after that change's post was answered, which no call waits for. */
  after: number[];
  /** `hooks` by the event each answered. */
  byEvent: Map<string, number[]>;
  /** How long each answer's write took to return (after the governor's own time: the agent it woke may run first). */
  writes: number[];
  /** The resident's CPU time in each hook, by event. */
  cpuByEvent: Map<string, number[]>;
}

async function session(agent: HookAgent, setup: Setup): Promise<Sample> {
  const temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-bench-hooks-')));
  const ws = join(temp, 'ws');
  const home = join(temp, 'home');
  try {
    seedAgentBenchWorkspace(ws);
    mkdirSync(home, { recursive: true });
    agent.prepareHome?.(ws, home);
    const env = await setup.prepare(agent, ws, home, temp);
    const steps: ScriptStep[] = [...Array.from({ length: WRITES }, (_, i) => agent.write(ws, i)), { text: 'done' }];
    const turns = await agent.session(ws, home, steps, env);
    // Turn k asked for step k: a write's time runs from the turn that asked for it to the next turn; the first is left out (warm-up).
    const calls = turns.slice(1, WRITES).map((at, i) => turns[i + 2] - at).filter((ms) => Number.isFinite(ms));
    for (let i = 0; i < WRITES; i++) if (!existsSync(join(ws, 'src', `f${i}.ts`))) throw new Error(`${agent.label}, ${setup.name}: src/f${i}.ts was not written`);
    if (setup.governed) {
      const trace = join(ws, '.orchestration', 'agent_trace.jsonl');
      const recordedNow = () => (existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter((line) => /"path":"src\/f\d+\.ts"/u.test(line)).length : 0);
      // A change whose post the agent does not send may be recorded a moment after the session (a one-shot hook's worker).
      for (let i = 0; i < 100 && recordedNow() < WRITES; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const recorded = recordedNow();
      if (recorded < WRITES) throw new Error(`${agent.label}, ${setup.name}: ${recorded} of ${WRITES} writes on the record: the hooks did not govern the session`);
    }
    const timings = join(temp, 'hook-timings.tsv');
    // The agent hook route writes the agent, then the event.
    const lines = readHookTimings(timings);
    const recordedAfter = (event: string) => event.endsWith('(recorded after the answer)');
    const answered = lines.filter(({ which }) => !recordedAfter(which));
    const byEvent = new Map<string, number[]>();
    const cpuByEvent = new Map<string, number[]>();
    const writes: number[] = [];
    for (const { which: event, ms, writeMs, cpuMs } of answered) {
      samplesOf(byEvent, event).push(ms);
      if (writeMs !== undefined) writes.push(writeMs);
      if (cpuMs !== undefined) samplesOf(cpuByEvent, event).push(cpuMs);
    }
    return { calls, hooks: answered.map(({ ms }) => ms), after: lines.filter(({ which }) => recordedAfter(which)).map(({ ms }) => ms), byEvent, writes, cpuByEvent };
  } finally {
    removeAgentTemp(temp, join(temp, 'gh'));
  }
}

/** Each command-hook agent (Gemini CLI, Codex CLI, Copilot CLI, Cline, OpenCode's plugin), governed through its hooks: what governance adds per tool call. */
export async function hookAgentTables(): Promise<BenchTable[]> {
  const rows: (string | number)[][] = [];
  // BENCH_HOOK_AGENTS=codex,opencode measures only those (their install names).
  const only = process.env.BENCH_HOOK_AGENTS?.split(',').filter(Boolean);
  for (const agent of agents().filter((candidate) => !only?.length || only.includes(candidate.install))) {
    const samples = new Map<string, Sample>(SETUPS.map((setup) => [setup.name, { calls: [], hooks: [], after: [], byEvent: new Map(), writes: [], cpuByEvent: new Map() }]));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const setup of SETUPS) {
          const got = await session(agent, setup);
          const into = samples.get(setup.name) as Sample;
          into.calls.push(...got.calls);
          into.hooks.push(...got.hooks);
          into.after.push(...got.after);
          into.writes.push(...got.writes);
          for (const [event, ms] of got.byEvent) samplesOf(into.byEvent, event).push(...ms);
          for (const [event, ms] of got.cpuByEvent) samplesOf(into.cpuByEvent, event).push(...ms);
        }
      }
    } catch (error) {
      // One agent that cannot run is its row's news, not the end of the other agents' measurements.
      rows.push([agent.label, `failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`, '', '', '', '', '', '', '', '']);
      continue;
    }
    const base = percentile(samples.get(NO_HOOKS)?.calls ?? [], 50);
    for (const setup of SETUPS) {
      const s = samples.get(setup.name) as Sample;
      const p50 = percentile(s.calls, 50);
      rows.push([agent.label, setup.name, p50, percentile(s.calls, 90), p50 - base, p50 / base, s.hooks.length ? percentile(s.hooks, 50) : '', byEventCell(s.byEvent, s.cpuByEvent), s.writes.length ? percentile(s.writes, 50) : '', s.after.length ? percentile(s.after, 50) : '']);
    }
  }
  return [
    {
      title: `Command-hook agents: wall time per in-scope write (${WRITES} per session, ${ROUNDS} sessions each, setups interleaved)`,
      columns: ['agent', 'setup', 'p50 ms', 'p90 ms', 'overhead p50 ms', 'ratio vs none', 'governor ms per hook p50', 'by event: n p50 (CPU p50)', "answer's write ms p50", 'recorded after the answer ms p50'],
      rows,
      notes: [
        'Target: the resident within 20 ms of the no-hooks session at p50; the governor\'s own work per hook ≤ 2 ms at p50.',
        "governor ms per hook: the resident's own time in each hook the agent waits for (INTENT_GOVERNOR_HOOK_TIMINGS), from the parsed hook input to the answer handed to the socket (as Claude Code's hook tool measures to its answer handed to the MCP server); pre and post. The answer's write: how long that write took to return, not counted in the governor's time; on a 2-core machine the agent it wakes often runs on the same core first, so it is mostly the agent's time. Recorded after the answer: its recording of a file change whose post it answered at once, which no call waits for (it shares the machine's cores with the agent).",
        "by event: how many hooks of each event the governor answered, their p50, and the p50 of the resident's CPU time in them (process.cpuUsage, every thread, to the hand-off): its own work, without the waits for a core the agent holds. A session answers about as many posts (answered before they are recorded) as pres, so the p50 over all hooks falls near the fastest pres: read PreToolUse for the judgement a tool call waits for.",
      ],
    },
  ];
}

/** The samples of `event`, made empty on first use. */
function samplesOf(byEvent: Map<string, number[]>, event: string): number[] {
  let samples = byEvent.get(event);
  if (!samples) byEvent.set(event, (samples = []));
  return samples;
}

/** Each event's count, p50 and CPU p50, most answered first: which hooks make up the per-hook figure. */
function byEventCell(byEvent: Map<string, number[]>, cpuByEvent: Map<string, number[]>): string {
  const cpu = (event: string) => {
    const samples = cpuByEvent.get(event);
    return samples?.length ? ` (${percentile(samples, 50).toFixed(2)})` : '';
  };
  return [...byEvent].sort((a, b) => b[1].length - a[1].length).map(([event, ms]) => `${event} ${ms.length} ${percentile(ms, 50).toFixed(2)}${cpu(event)}`).join('; ');
}

export const hookAgentsBench = { name: 'hook-agents', run: hookAgentTables };
