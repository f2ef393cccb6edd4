import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HOOK_TIMINGS_ENV, readHookTimings } from '../src/core/bridge/hookTimings';
import { RESIDENT_CLIENT_SUFFIX } from '../src/core/agents/common/hookLauncher';
import { launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode } from '../test/e2e/e2eSupport';
import { AGENT_SETTINGS, chatTurn, enableBuiltinChat, useScriptedModel } from '../test/e2e/vscodeChat';
import { startScriptedAnthropic, type ScriptStep } from '../test/support/scriptedAnthropic';
import { repoRoot } from '../test/vscode/provisioned';
import { percentile, type BenchTable } from './table';

const WRITES = 20;
const ROUNDS = Number(process.env.BENCH_VSCODE_AGENT_ROUNDS ?? 2);
/** Fresh windows per setup, the setups taking turns. */
const WINDOWS = Number(process.env.BENCH_VSCODE_AGENT_WINDOWS ?? 3);
const NO_HOOKS = 'no hooks (baseline)';

interface Setup {
  name: string;
  /** Whether `governor hooks install --agent vscode` runs in the workspace. */
  hooks: boolean;
  /** Once the extension is up (it writes the launcher as it starts): make the hooks do nothing but run. */
  floor?: boolean;
}

const SETUPS: Setup[] = [
  { name: NO_HOOKS, hooks: false },
  { name: 'the installed hooks with a launcher that exits 0 (the cost of running any hook: the floor)', hooks: true, floor: true },
  { name: 'governor, the extension (as installed: the launcher over /dev/tcp to the extension that runs on the folder)', hooks: true },
];

interface SetupSample {
  /** ms per timed call. */
  calls: number[];
  /** The extension's own time per hook answer (INTENT_GOVERNOR_HOOK_TIMINGS), pre and post. */
  hooks: number[];
}

/** One VS Code with the setup, ROUNDS conversations of a warm-up create_file then WRITES timed ones. */
async function setupCalls(setup: Setup): Promise<SetupSample> {
  const model = await startScriptedAnthropic([]);
  const timings = join(mkdtempSync(join(tmpdir(), 'ig-bench-vscode-timings-')), 'hook-timings.tsv');
  let vscode: GovernedVsCode | undefined;
  try {
    vscode = await launchGovernedVsCode({
      prefix: 'ig-bench-vscode-agent-',
      env: { [HOOK_TIMINGS_ENV]: timings },
      settings: { ...AGENT_SETTINGS, 'intentGovernor.approval': 'destructive-only' },
      prepare: async (ws, temp) => {
        useScriptedModel(join(temp, 'user-data'), model.url);
        if (!setup.hooks) return;
        const install = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'hooks', 'install', '--agent', 'vscode', '--workspace', ws], { encoding: 'utf8', env: { ...process.env, HOME: join(temp, 'home') } });
        if (install.status !== 0) throw new Error(`hooks install: ${install.stderr}`);
      },
      beforeWorkbench: enableBuiltinChat,
    });
    const { workspace, governorHome, workbench } = vscode;
    if (setup.floor) {
      writeFileSync(join(governorHome, 'bin', 'governor-hook'), '#!/bin/sh\nexit 0\n');
      rmSync(join(governorHome, 'bin', `governor-hook${RESIDENT_CLIENT_SUFFIX}`), { force: true });
    }
    if (setup.hooks && !setup.floor) await pickIntentInPalette(workbench.page, 'auth-refactor');
    const calls: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const file = (i: number) => join(workspace, 'src', 'auth', `bench${round}_${i}.ts`);
      const script: ScriptStep[] = [
        ...Array.from({ length: WRITES + 1 }, (_, i): ScriptStep => ({ tool: 'create_file', input: { filePath: file(i), content: `export const b${i} = ${i};\n` } })),
        { text: 'done' },
      ];
      const { requests } = await chatTurn(workbench.page, model, script);
      // Request k asked for step k: the time from it to the next request is step k's tool call, its hooks and the agent's own work.
      for (let i = 1; i <= WRITES; i++) calls.push(requests[i + 1].at - requests[i].at);
      const missing = Array.from({ length: WRITES + 1 }, (_, i) => file(i)).filter((path) => !existsSync(path));
      if (missing.length) throw new Error(`${setup.name}: ${missing.length} of ${WRITES + 1} files were not written`);
    }
    if (setup.hooks && !setup.floor) {
      // The governor decided this setup's calls: every write is on the record, or the row measured nothing. The
      // extension records a change when its PostToolUse comes, which may be after the agent moved on.
      const trace = join(workspace, '.orchestration', 'agent_trace.jsonl');
      const recorded = () => (existsSync(trace) ? readFileSync(trace, 'utf8') : '').split('\n').filter((line) => /"path":"src\/auth\/bench\d+_\d+\.ts"/u.test(line)).length;
      const expected = ROUNDS * (WRITES + 1);
      await waitFor('every write on the record', () => (recorded() >= expected ? true : undefined), 60_000).catch(() => {
        throw new Error(`${setup.name}: ${recorded()} of ${expected} writes on the record: the hooks did not govern the session`);
      });
    }
    const hooks = readHookTimings(timings).filter(({ which }) => which === 'PreToolUse' || which === 'PostToolUse').map(({ ms }) => ms);
    return { calls, hooks };
  } finally {
    await vscode?.stop();
    await model.close();
    rmSync(dirname(timings), { recursive: true, force: true });
  }
}

/** VS Code's own agent (the built-in chat in Agent mode, a scripted model), governed through its command hooks by the extension. */
export async function vscodeAgentTables(): Promise<BenchTable[]> {
  if (!existsSync(join(repoRoot, '.vscode-test', 'ready.json'))) {
    process.stdout.write("\nVS Code agent bench skipped: VS Code is not provisioned (.vscode-test/ready.json missing; run `npm run provision`)\n");
    return [];
  }
  // Each window's p50 moves by more than the target from one window to the next: the setups take turns, a window
  // each per round, in an order that rotates, so a slow stretch of the machine falls on every setup alike.
  const samples = new Map<string, SetupSample & { windows: number[] }>();
  const failures = new Map<string, string>();
  for (let round = 0; round < WINDOWS; round++) {
    for (const setup of [...SETUPS.slice(round % SETUPS.length), ...SETUPS.slice(0, round % SETUPS.length)]) {
      if (failures.has(setup.name)) continue;
      try {
        const sample = await setupCalls(setup);
        const pooled = samples.get(setup.name) ?? { calls: [], hooks: [], windows: [] };
        pooled.calls.push(...sample.calls);
        pooled.hooks.push(...sample.hooks);
        pooled.windows.push(percentile(sample.calls, 50));
        samples.set(setup.name, pooled);
      } catch (error) {
        failures.set(setup.name, (error instanceof Error ? error.message : String(error)).slice(0, 200));
      }
    }
  }
  const rows: (string | number)[][] = [...failures].map(([name, why]) => [name, `failed: ${why}`, '', '', '', '', '']);
  const base = percentile(samples.get(NO_HOOKS)?.calls ?? [], 50);
  for (const setup of SETUPS) {
    const sample = samples.get(setup.name);
    if (!sample) continue;
    const p50 = percentile(sample.calls, 50);
    rows.push([setup.name, p50, percentile(sample.calls, 90), p50 - base, p50 / base, sample.windows.map((ms) => ms.toFixed(0)).join(' / '), sample.hooks.length ? percentile(sample.hooks, 50) : '']);
  }
  return [
    {
      title: `VS Code's agent (code-server 4.139.1, built-in chat in Agent mode): wall time per in-scope create_file (${WRITES} per conversation, ${ROUNDS} conversations per window, ${WINDOWS} windows per setup in turns)`,
      columns: ['setup', 'p50 ms', 'p90 ms', 'overhead p50 ms', 'ratio vs none', 'p50 of each window, in turn', 'governor ms per hook p50'],
      rows,
      notes: [
        `Target: the governed row within 20 ms of the no-hooks row at p50. Each window is a fresh VS Code with one setup; the setups take turns, ${WINDOWS} windows each, in an order that rotates each round. A window's p50 moves by far more than the target from one window to the next (the column before the last), so the pooled p50 is the one to compare, and only within one run.`,
        "governor ms per hook: the extension's own time in each PreToolUse and PostToolUse it answers (INTENT_GOVERNOR_HOOK_TIMINGS), from the parsed input to the answer handed to the socket.",
      ],
    },
  ];
}

export const vscodeAgentBench = { name: 'vscode-agent', run: vscodeAgentTables };
