import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_INTENTS } from '../support/governorHarness';
import { removeTreeSync } from '../support/removeTree';
import { repoRoot } from './claudeCodeDriver';

/** A test's private folders: `ws` the governed workspace, `home` the agent's HOME, both inside `temp`. */
export interface AgentWorkspace {
  temp: string;
  ws: string;
  home: string;
}

/**
 * The workspace every real-agent test starts from: the sample plan (auth-refactor owns src/auth/**), a
 * login.ts inside its scope, an invoice.ts outside it, approval mode destructive-only, a git repository. `folders` are created empty.
 */
export function seedAgentWorkspace(agent: string, options: { login?: string; folders?: string[] } = {}): AgentWorkspace {
  const temp = realpathSync(mkdtempSync(join(tmpdir(), `ig-agent-${agent}-`)));
  const ws = join(temp, 'ws');
  const put = (rel: string, content: string) => {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), content);
  };
  put('.orchestration/active_intents.yaml', SAMPLE_INTENTS);
  // These agents run with no person to ask: in-scope writes land, as the workspace's approval setting says.
  put('.vscode/settings.json', '{ "intentGovernor.approval": "destructive-only" }\n');
  put('src/auth/login.ts', options.login ?? 'export function login() {\n  return false;\n}\n');
  put('src/billing/invoice.ts', 'export const invoice = 1;\n');
  for (const folder of options.folders ?? []) mkdirSync(join(ws, folder), { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: ws });
  return { temp, ws, home: join(temp, 'home') };
}

/** The records of `.orchestration/<name>` (the trace or the governance log); none when it does not exist yet. */
export function orchestrationJsonl(ws: string, name: string): Record<string, unknown>[] {
  const path = join(ws, '.orchestration', name);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The trace records of `ws` that name the file `path` (workspace-relative). */
export function traceRecordsFor(ws: string, path: string): Record<string, unknown>[] {
  return orchestrationJsonl(ws, 'agent_trace.jsonl').filter((record) => JSON.stringify(record.files).includes(`"${path}"`));
}

/** Where the governor keeps its state in a test, never the real home: the env the agent's hook processes inherit. */
export function governorHomes(temp: string): { INTENT_GOVERNOR_HOME: string; INTENT_GOVERNOR_ANCHOR_DIR: string } {
  return { INTENT_GOVERNOR_HOME: join(temp, 'governor-home'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors') };
}

/** `node dist/cli.js ...args`: the build the installed hooks run, as a person runs it, `env` over this process's. */
export function builtGovernor(args: string[], env: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/**
 * A PATH whose first `node` dies without a word (exit 1, nothing on stdout or stderr) when it runs an agent's
 * pre-tool hook, and is the real node for everything else (the session's handshake, post-tool tracing): the
 * attacker's setup that let Gemini CLI and Codex CLI run out-of-scope writes when hooks named node directly. The
 * agent itself must be started with the real node's absolute path when it is a Node script (see agentCommand).
 */
// Tests that use it turn the resident governor off (INTENT_GOVERNOR_RESIDENT=off): it would answer without node.
export function pathWithSilentPreToolNode(temp: string): string {
  const bin = join(temp, 'silent-node-bin');
  mkdirSync(bin, { recursive: true });
  const real = JSON.stringify(process.execPath);
  // Pre-tool payloads: Gemini's BeforeTool, Claude's and Codex's PreToolUse, Cline's tool_call, Copilot's toolArgs without a toolResult.
  writeFileSync(
    join(bin, 'node'),
    `#!/bin/sh
case " $* " in
  *" hook "*)
    payload=$(cat)
    case "$payload" in *toolResult*) ;; *BeforeTool*|*PreToolUse*|*tool_call*|*toolArgs*) exit 1 ;; esac
    printf '%s' "$payload" | ${real} "$@"
    exit $? ;;
esac
exec ${real} "$@"
`,
  );
  chmodSync(join(bin, 'node'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

/**
 * Removes a test's folder once the workspace's resident governor (which the agents' hooks start) has stopped: a
 * resident still writing its log or the trace while the tree is removed makes the removal fail (ENOTEMPTY).
 */
export function removeAgentTemp(temp: string, governorHome = join(temp, 'governor-home'), test?: Mocha.Test): void {
  const run = join(governorHome, 'run');
  const pids = (existsSync(run) ? readdirSync(run) : [])
    .filter((name) => name.endsWith('.endpoint'))
    .map((name) => Number(readFileSync(join(run, name), 'utf8').split(' ')[2]))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
  if (test?.state === 'failed') describeResidents(run, pids);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (pids.some((pid) => signal(pid, 0)) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  // A detached intent-map worker may still be writing under the governor home for a few seconds.
  removeTreeSync(temp);
}

/**
 * After a failed test, what its residents were doing, on stderr: their log, and for each one still running its state
 * and CPU time a moment apart (a resident that spins shows its time growing; one that waits does not).
 */
function describeResidents(run: string, pids: number[]): void {
  const log = join(run, 'resident.log');
  const lines = [`resident log (${log}):`, existsSync(log) ? readFileSync(log, 'utf8') : '(none)'];
  const cpu = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return { state: fields[0], ticks: Number(fields[11]) + Number(fields[12]) };
    } catch {
      return undefined;
    }
  };
  for (const pid of pids) {
    const before = cpu(pid);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    const after = cpu(pid);
    lines.push(before && after ? `resident ${pid}: state ${after.state}, ${after.ticks - before.ticks} CPU ticks in 0.5 s (${after.ticks} in all)` : `resident ${pid}: not running`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** Sends `sig` to `pid`; false when there is no such process. */
function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
