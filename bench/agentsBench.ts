import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { provisionedClaude, repoRoot, runClaude } from '../test/agents/claudeCodeDriver';
import { startScriptedAnthropic, type ScriptStep } from '../test/support/scriptedAnthropic';
import { BENCH_INTENTS } from './benchWorkspace';
import { percentile, type BenchSuite, type BenchTable } from './table';

const WRITES = 30;
const ROUNDS = 3;

interface Setup {
  name: string;
  /** Prepares the workspace (and Claude's HOME); returns the env the session runs with and the script's first steps. */
  prepare(ws: string, home: string): { env: NodeJS.ProcessEnv; first: ScriptStep[] };
}

/** The hook launcher goes where the session's hooks look for it: the governor home `session` gives them (beside `home`). */
function install(ws: string, home: string, kind: 'mcp_tool' | 'command'): void {
  const run = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'hooks', 'install', '--agent', 'claude', '--claude-hooks', kind, '--workspace', ws], { encoding: 'utf8', env: { ...process.env, HOME: home, INTENT_GOVERNOR_HOME: join(dirname(home), 'gh') } });
  if (run.status !== 0) throw new Error(`install failed: ${run.stderr}`);
}

const SETUPS: Setup[] = [
  { name: 'no hooks (baseline)', prepare: () => ({ env: {}, first: [] }) },
  {
    name: 'a `command: true` hook on every tool (the cost of a process)',
    prepare(ws) {
      const hook = { matcher: '*', hooks: [{ type: 'command', command: 'true' }] };
      mkdirSync(join(ws, '.claude'), { recursive: true });
      writeFileSync(join(ws, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [hook], PostToolUse: [hook] } }));
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
    name: 'governor, resident (mcp_tool hooks)',
    prepare(ws, home) {
      install(ws, home, 'mcp_tool');
      return { env: {}, first: [{ tool: 'mcp__intent-governor__select_active_intent', input: { intent_id: 'bench' } }] };
    },
  },
];

/** Milliseconds per Write: from the request that asked for it to the next request (the tool, its hooks, Claude's own work). */
async function session(claude: string, setup: Setup): Promise<number[]> {
  const temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-bench-agents-')));
  try {
    const ws = join(temp, 'ws');
    const home = join(temp, 'home');
    mkdirSync(join(ws, '.orchestration'), { recursive: true });
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), BENCH_INTENTS);
    spawnSync('git', ['init', '-q'], { cwd: ws });
    const { env, first } = setup.prepare(ws, home);
    const writes: ScriptStep[] = Array.from({ length: WRITES }, (_, i) => ({ tool: 'Write', input: { file_path: join(ws, 'src', `f${i}.ts`), content: `export const f${i} = ${i};\n` } }));
    const model = await startScriptedAnthropic([...first, ...writes, { text: 'done' }]);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home, env: { ...env, INTENT_GOVERNOR_HOME: join(temp, 'gh'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') } });
      const failed = model.toolResults().filter((r) => r.is_error);
      if (model.remaining() !== 0 || failed.length) throw new Error(`${setup.name}: the session did not run as scripted: ${JSON.stringify(failed[0] ?? run.stderr.slice(0, 500))}`);
      const turns = model.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0).map((r) => r.at);
      // Turn k asked for step k; the Writes are steps first.length .. first.length+WRITES-1.
      return Array.from({ length: WRITES }, (_, i) => turns[first.length + i + 1] - turns[first.length + i]);
    } finally {
      await model.close();
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The real Claude Code, a scripted model, 30 Writes per session: what governance adds to each tool call. */
export const agentsBench: BenchSuite = {
  name: 'agents',
  async run(): Promise<BenchTable[]> {
    const claude = provisionedClaude();
    const samples = new Map<string, number[]>(SETUPS.map((s) => [s.name, []]));
    // Rounds interleave the setups, so a slow moment of the machine does not land on one of them.
    for (let round = 0; round < ROUNDS; round++) for (const setup of SETUPS) samples.get(setup.name)?.push(...(await session(claude, setup)));
    const base = percentile(samples.get(SETUPS[0].name) ?? [], 50);
    const rows = SETUPS.map((setup) => {
      const s = samples.get(setup.name) ?? [];
      const p50 = percentile(s, 50);
      return [setup.name, p50, percentile(s, 90), p50 - base, p50 / base];
    });
    return [
      {
        title: `Claude Code ${'2.1.330'}: wall time per Write tool call (${WRITES} per session, ${ROUNDS} sessions each)`,
        columns: ['setup', 'p50 ms', 'p90 ms', 'overhead p50 ms', 'ratio vs none'],
        rows,
        notes: ['Target: the resident governor within 15 ms of the no-hooks session at p50.'],
      },
    ];
  },
};
