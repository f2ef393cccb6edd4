import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { provisionedClaude, repoRoot, runClaude } from '../test/agents/claudeCodeDriver';
import { readHookTimings } from '../src/core/bridge/hookTimings';
import { removeTree } from '../test/support/removeTree';
import { startScriptedAnthropic, type ScriptStep } from '../test/support/scriptedAnthropic';
import { seedAgentBenchWorkspace } from './benchWorkspace';
import { hookAgentTables } from './hookAgentsBench';
import { vscodeAgentTables } from './vscodeAgentBench';
import { percentile, type BenchSuite, type BenchTable } from './table';

const WRITES = 30;
const ROUNDS = Number(process.env.BENCH_AGENTS_ROUNDS ?? 3);

interface Setup {
  name: string;
  /** Prepares the workspace (and Claude's HOME); returns the env the session runs with and the script's first steps. */
  prepare(ws: string, home: string, temp: string): { env: NodeJS.ProcessEnv; first: ScriptStep[] };
}

/** The hook launcher goes where the session's hooks look for it: the governor home `session` gives them (beside `home`). */
function install(ws: string, home: string, kind: 'mcp_tool' | 'command'): void {
  const run = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'hooks', 'install', '--agent', 'claude', '--claude-hooks', kind, '--workspace', ws], { encoding: 'utf8', env: { ...process.env, HOME: home, INTENT_GOVERNOR_HOME: join(dirname(home), 'gh') } });
  if (run.status !== 0) throw new Error(`install failed: ${run.stderr}`);
}

/** Edits the hooks of the session's `.claude/settings.local.json`. */
function editHooks(ws: string, edit: (hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>) => void): void {
  const file = join(ws, '.claude', 'settings.local.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> };
  edit(settings.hooks);
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** An MCP server over stdio whose one tool answers `{}` at once: what an `mcp_tool` hook costs Claude Code itself. */
const NOOP_SERVER = `const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'noop', version: '1' } } });
  if (msg.method === 'tools/list') return send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'hook', description: 'answers {}', inputSchema: { type: 'object' } }] } });
  if (msg.method === 'tools/call') return send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: '{}' }] } });
  send({ jsonrpc: '2.0', id: msg.id, result: {} });
});
`;

/** No-op `mcp_tool` hooks (matcher *) on `events`, answered by NOOP_SERVER registered for the project. */
function noopHooks(ws: string, home: string, temp: string, events: string[]): void {
  const server = join(temp, 'noop-mcp.cjs');
  writeFileSync(server, NOOP_SERVER);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ projects: { [ws]: { mcpServers: { noop: { type: 'stdio', command: 'node', args: [server], env: {} } } } } }));
  const hook = { matcher: '*', hooks: [{ type: 'mcp_tool', server: 'noop', tool: 'hook', input: { tool_name: '${tool_name}', tool_input: '${tool_input}' }, onFailure: 'block', timeout: 120 }] };
  mkdirSync(join(ws, '.claude'), { recursive: true });
  writeFileSync(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ hooks: Object.fromEntries(events.map((event) => [event, [hook]])) }));
}

const SELECT: ScriptStep = { tool: 'mcp__intent-governor__select_active_intent', input: { intent_id: 'bench' } };

const NO_HOOKS = 'no hooks (baseline)';
const SETUPS: Setup[] = [
  { name: NO_HOOKS, prepare: () => ({ env: {}, first: [] }) },
  {
    name: 'a `command: true` hook on every tool, pre and post (the cost of a process)',
    prepare(ws) {
      const hook = { matcher: '*', hooks: [{ type: 'command', command: 'true' }] };
      mkdirSync(join(ws, '.claude'), { recursive: true });
      writeFileSync(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [hook], PostToolUse: [hook] } }));
      return { env: {}, first: [] };
    },
  },
  {
    name: 'one no-op `mcp_tool` hook (PreToolUse): one round trip of Claude Code',
    prepare(ws, home, temp) {
      noopHooks(ws, home, temp, ['PreToolUse']);
      return { env: {}, first: [] };
    },
  },
  {
    name: 'two no-op `mcp_tool` hooks (PreToolUse, PostToolUse)',
    prepare(ws, home, temp) {
      noopHooks(ws, home, temp, ['PreToolUse', 'PostToolUse']);
      return { env: {}, first: [] };
    },
  },
  {
    name: 'governor, command hooks (headless, --claude-hooks command)',
    prepare(ws, home) {
      install(ws, home, 'command');
      return { env: { INTENT_GOVERNOR_INTENT: 'bench' }, first: [] };
    },
  },
  {
    name: 'governor, resident, every tool pre and post (matcher *: as installed before, or when a hook of yours needs every post)',
    prepare(ws, home) {
      install(ws, home, 'mcp_tool');
      // The install of a workspace whose hooks need every tool event: matcher * both ways, and the hooks say so.
      editHooks(ws, (hooks) => {
        for (const event of ['PreToolUse', 'PostToolUse']) for (const entry of hooks[event]) entry.matcher = '*';
        for (const entries of Object.values(hooks)) for (const entry of entries) for (const hook of entry.hooks) if (typeof hook.input === 'object' && hook.input !== null) delete (hook.input as Record<string, unknown>).routing;
      });
      return { env: {}, first: [SELECT] };
    },
  },
  {
    name: 'governor, resident (mcp_tool hooks as installed: PreToolUse, the Write completed by the governor)',
    prepare(ws, home) {
      install(ws, home, 'mcp_tool');
      return { env: {}, first: [SELECT] };
    },
  },
];

/** A session's script after the setup's first steps: the tool calls that are timed. */
type Workload = (ws: string) => ScriptStep[];

/** 30 Writes of new files. */
const WRITES_ONLY: Workload = (ws) => Array.from({ length: WRITES }, (_, i) => ({ tool: 'Write', input: { file_path: join(ws, 'src', `f${i}.ts`), content: `export const f${i} = ${i};\n` } }));

/** What a coding session does with a file, six times: create it, read it, edit it, list the folder, load a deferred tool. */
const MIXED_TOOLS = ['Write', 'Read', 'Edit', 'Bash', 'ToolSearch'];
const MIXED: Workload = (ws) =>
  Array.from({ length: 6 }, (_, i): ScriptStep[] => {
    const file = join(ws, 'src', `m${i}.ts`);
    return [
      { tool: 'Write', input: { file_path: file, content: `export const m${i} = ${i};\n` } },
      { tool: 'Read', input: { file_path: file } },
      { tool: 'Edit', input: { file_path: file, old_string: `m${i} = ${i}`, new_string: `m${i} = ${i + 1}` } },
      { tool: 'Bash', input: { command: 'ls src', description: 'list' } },
      { tool: 'ToolSearch', input: { query: 'select:NotebookEdit' } },
    ];
  }).flat();

interface Sample {
  /** Milliseconds per timed tool call, by tool: from the request that asked for it to the next request (the tool, its hooks, Claude's own work). */
  calls: Map<string, number[]>;
  /** The resident governor's own time in each hook Claude Code waited for on a Write (empty without it). */
  hooks: number[];
  /** The resident governor's own completions of a Write, which nobody waits for. */
  completions: number[];
  /** CPU milliseconds per timed call of Claude Code and everything it started (hook processes, MCP servers): whatever the machine's load. */
  cpu: number[];
}

const emptySample = (): Sample => ({ calls: new Map(), hooks: [], completions: [], cpu: [] });

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU milliseconds of `pid` and its live descendants, with the children they reaped (Linux /proc; clock-tick resolution). */
function treeCpuMs(pid: number): number {
  let ticks = 0;
  try {
    // Fields after the command name: state is 3, utime 14, stime 15, cutime 16, cstime 17.
    const fields = readFileSync(join('/proc', String(pid), 'stat'), 'utf8').replace(/^.*\) /s, '').split(' ');
    ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    const tasks = join('/proc', String(pid), 'task');
    for (const tid of readdirSync(tasks)) {
      for (const child of readFileSync(join(tasks, tid, 'children'), 'utf8').split(' ').filter(Boolean)) ticks += (treeCpuMs(Number(child)) * CLOCK_TICKS) / 1000;
    }
  } catch {
    // gone meanwhile: its time is in its parent's once reaped
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

async function session(claude: string, setup: Setup, workload: Workload): Promise<Sample> {
  const temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-bench-agents-')));
  try {
    const ws = join(temp, 'ws');
    const home = join(temp, 'home');
    seedAgentBenchWorkspace(ws);
    const { env, first } = setup.prepare(ws, home, temp);
    const timings = join(temp, 'hook-timings.tsv');
    const steps = workload(ws);
    // CPU of the whole tree when the model is asked for the first timed call, and for the final answer.
    let pid: number | undefined;
    const cpu: number[] = [];
    const snapshot = () => void (pid !== undefined && cpu.push(treeCpuMs(pid)));
    const model = await startScriptedAnthropic([...first, { ...steps[0], before: snapshot }, ...steps.slice(1), { text: 'done', before: snapshot }]);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home, env: { ...env, INTENT_GOVERNOR_HOME: join(temp, 'gh'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'), INTENT_GOVERNOR_HOOK_TIMINGS: timings }, onSpawn: (child) => (pid = child.pid) });
      const failed = model.toolResults().filter((r) => r.is_error);
      if (model.remaining() !== 0 || failed.length) throw new Error(`${setup.name}: the session did not run as scripted: ${JSON.stringify(failed[0] ?? run.stderr.slice(0, 500))}`);
      const turns = model.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0).map((r) => r.at);
      // Turn k asked for step k; the timed steps are first.length .. first.length+steps.length-1.
      const calls = new Map<string, number[]>();
      steps.forEach((step, i) => {
        const tool = 'tool' in step ? step.tool : 'text';
        calls.set(tool, [...(calls.get(tool) ?? []), turns[first.length + i + 1] - turns[first.length + i]]);
      });
      // Claude Code's hook tool writes the event, then the tool.
      const writeHooks = readHookTimings(timings).filter((timing) => timing.which === 'Write');
      return {
        calls,
        hooks: writeHooks.filter(({ what }) => what === 'PreToolUse' || what === 'PostToolUse').map(({ ms }) => ms),
        completions: writeHooks.filter(({ what }) => what === 'PostToolUse(resident)').map(({ ms }) => ms),
        cpu: cpu.length === 2 ? [(cpu[1] - cpu[0]) / steps.length] : [],
      };
    } finally {
      await model.close();
    }
  } finally {
    // A governor the session started may still be finishing a write into the workspace (ENOTEMPTY).
    await removeTree(temp);
  }
}

/** Every setup's sessions of `workload`, the rounds interleaving the setups so a slow moment of the machine does not land on one of them. */
async function measure(claude: string, setups: Setup[], workload: Workload): Promise<Map<string, Sample>> {
  const samples = new Map<string, Sample>(setups.map((s) => [s.name, emptySample()]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const setup of setups) {
      const got = await session(claude, setup, workload);
      const into = samples.get(setup.name) as Sample;
      for (const [tool, ms] of got.calls) into.calls.set(tool, [...(into.calls.get(tool) ?? []), ...ms]);
      into.hooks.push(...got.hooks);
      into.completions.push(...got.completions);
      into.cpu.push(...got.cpu);
    }
  }
  return samples;
}

const cellOf = (samples: number[]) => (samples.length ? percentile(samples, 50) : '');

/** The real Claude Code, a scripted model: what governance adds to each tool call (30 Writes; then a mix of tools). */
export const agentsBench: BenchSuite = {
  name: 'agents',
  async run(): Promise<BenchTable[]> {
    const claude = provisionedClaude();
    const writes = await measure(claude, SETUPS, WRITES_ONLY);
    const base = percentile(writes.get(NO_HOOKS)?.calls.get('Write') ?? [], 50);
    const rows = SETUPS.map((setup) => {
      const s = writes.get(setup.name) as Sample;
      const calls = s.calls.get('Write') ?? [];
      const p50 = percentile(calls, 50);
      return [setup.name, p50, percentile(calls, 90), p50 - base, p50 / base, cellOf(s.cpu), cellOf(s.hooks), cellOf(s.completions)];
    });
    const mixedSetups = SETUPS.filter((setup) => setup.name === NO_HOOKS || setup.name.startsWith('governor, resident'));
    const mixed = await measure(claude, mixedSetups, MIXED);
    const mixedBase = mixed.get(NO_HOOKS) as Sample;
    const mixedRows = mixedSetups.map((setup) => {
      const s = mixed.get(setup.name) as Sample;
      return [setup.name, ...MIXED_TOOLS.map((tool) => `${percentile(s.calls.get(tool) ?? [], 50).toFixed(1)} (+${(percentile(s.calls.get(tool) ?? [], 50) - percentile(mixedBase.calls.get(tool) ?? [], 50)).toFixed(1)})`), cellOf(s.cpu)];
    });
    return [
      {
        title: `Claude Code ${'2.1.330'}: wall time per Write tool call (${WRITES} per session, ${ROUNDS} sessions each)`,
        columns: ['setup', 'p50 ms', 'p90 ms', 'overhead p50 ms', 'ratio vs none', 'CPU ms per call', 'governor ms per hook p50', 'governor completion ms p50'],
        rows,
        notes: [
          'Target: the resident governor within 15 ms of the no-hooks session at p50.',
          "CPU ms per call: Claude Code's and everything it started (hook processes, MCP servers, the governor), over the timed calls, median of the sessions: what the setup costs whatever else loads the machine.",
          "governor ms per hook: the resident governor's own time in each hook Claude Code waits for on a Write (INTENT_GOVERNOR_HOOK_TIMINGS); completion: its own recording of a Write whose PostToolUse is not sent, which no tool call waits for.",
        ],
      },
      {
        title: `Claude Code ${'2.1.330'}: wall time per tool call in a mixed session (Write, Read, Edit, Bash ls, ToolSearch; 6 of each per session, ${ROUNDS} sessions each), p50 ms (+ over no hooks)`,
        columns: ['setup', ...MIXED_TOOLS, 'CPU ms per call'],
        rows: mixedRows,
      },
      // BENCH_AGENTS_CLAUDE_ONLY=1: Claude Code's tables alone (the other agents have their own suites).
      ...(process.env.BENCH_AGENTS_CLAUDE_ONLY === '1' ? [] : [...(await hookAgentTables()), ...(await vscodeAgentTables())]),
    ];
  },
};
