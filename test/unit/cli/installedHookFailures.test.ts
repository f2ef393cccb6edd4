import { strict as assert } from 'node:assert';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isOurCommand } from '../../../src/core/userHooks/ourHookCommand';
import type { AgentAdapter } from '../../../src/core/agents/common/agentAdapter';
import { AGENTS as REGISTERED } from '../../../src/core/agents/registry';

const AGENTS: readonly AgentAdapter[] = REGISTERED;
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { removeTree } from '../../support/removeTree';
import { runGovernor } from '../../support/runGovernor';

type Json = Record<string, unknown>;

/** Every command of ours in an agent's installed JSON config, as written. */
function commandsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) commandsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value as Json)) {
      if (key === 'command' && isOurCommand(inner)) found.add(inner as string);
      else commandsIn(inner, found);
    }
  }
  return found;
}

/** What "blocked" is in each agent's own terms, and the reason it shows; an agent missing here fails the suite. */
const BLOCKS: Partial<Record<string, (run: SpawnSyncReturns<string>) => string>> = {
  // Exit 2 with the reason on stderr: Claude Code, VS Code's agent, Gemini CLI and Qwen Code (which run the tool when stderr is empty) and Codex CLI.
  claude: exit2WithReason,
  vscode: exit2WithReason,
  gemini: exit2WithReason,
  codex: exit2WithReason,
  qwen: exit2WithReason,
  droid: exit2WithReason,
  cursor(run) {
    assert.equal(run.status, 2, run.stderr);
    const answer = lastJson(run.stdout);
    assert.equal(answer.permission, 'deny', run.stdout);
    assert.ok(run.stderr.trim(), 'and the reason on stderr');
    return String(answer.reason);
  },
  copilot(run) {
    // Copilot CLI reads the deny from stdout; its reference calls a failing hook a warning that runs the tool.
    assert.equal(run.status, 0, run.stderr);
    const answer = lastJson(run.stdout);
    assert.equal(answer.permissionDecision, 'deny', run.stdout);
    return String(answer.permissionDecisionReason);
  },
  cline(run) {
    // Cline runs the tool when a hook prints no JSON: the cancel is the block.
    assert.equal(run.status, 0, run.stderr);
    const answer = lastJson(run.stdout);
    assert.equal(answer.cancel, true, run.stdout);
    return String(answer.errorMessage);
  },
};

function exit2WithReason(run: SpawnSyncReturns<string>): string {
  assert.equal(run.status, 2, `exit ${run.status}: ${run.stdout}${run.stderr}`);
  assert.ok(run.stderr.trim() !== '', 'exit 2 with an empty stderr is no block for Gemini CLI or Codex CLI');
  return run.stderr;
}

function lastJson(stdout: string): Json {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Json;
  } catch {
    assert.fail(`no JSON answer on stdout: ${JSON.stringify(stdout)}`);
  }
}

/**
 * Each agent's installed hook, run with sh exactly as written in the installed file, when it cannot answer: no
 * launcher for this user (a teammate's clone), or a `node` first on PATH that dies silently (exit 1, or exit 2 with
 * nothing on stderr). Every one must be that agent's block, saying why: an agent that reads the failure as a
 * warning runs the tool (Gemini CLI 0.61 and Codex CLI 0.169 did).
 */
describe('installed hooks block in the agent’s own terms when the hook cannot answer', function () {
  this.timeout(60_000);
  let temp: string;
  let ws: string;
  let governorHome: string;
  /** Per agent: how its installed hook is run (`sh -c <command>`, or `sh <script>` for Cline). */
  const installed = new Map<string, string[]>();

  before(async () => {
    temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-hook-failures-')));
    ws = join(temp, 'ws');
    governorHome = join(temp, 'governor-home');
    mkdirSync(join(ws, '.orchestration'), { recursive: true });
    writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    const env = { INTENT_GOVERNOR_HOME: governorHome, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
    const run = await runGovernor(['hooks', 'install', ...AGENTS.flatMap((agent) => ['--agent', agent.id]), '--claude-hooks', 'command', '--workspace', ws], { anchorDir: join(temp, 'anchors'), home: join(temp, 'home'), env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const agent of AGENTS) {
      if (agent.jsonHooks) {
        const commands = [...commandsIn(JSON.parse(readFileSync(join(ws, agent.hookFiles), 'utf8')))];
        // The pre hook's may also say which tools send no post (unpostedTools.ts): the one run here, where it differs.
        const unposted = / export INTENT_GOVERNOR_UNPOSTED='[^']*';/u;
        assert.equal(new Set(commands.map((command) => command.replace(unposted, ''))).size, 1, `${agent.id}: one command for every event`);
        installed.set(agent.id, ['-c', commands.find((command) => unposted.test(command)) ?? commands[0]]);
      } else if (agent.id === 'cline') installed.set(agent.id, [join(ws, '.clinerules', 'hooks', 'PreToolUse.sh')]);
    }
    // A node that dies without a word, first on PATH: what the attacker's tests used.
    for (const code of [1, 2]) {
      const bin = join(temp, `node-exits-${code}`);
      mkdirSync(bin);
      writeFileSync(join(bin, 'node'), `#!/bin/sh\nexit ${code}\n`);
      chmodSync(join(bin, 'node'), 0o755);
    }
  });
  after(() => removeTree(temp));

  it('every agent whose hooks are shell commands is covered here (OpenCode’s plugin: opencodePlugin.test.ts)', () => {
    for (const agent of AGENTS) if (agent.id !== 'opencode') assert.ok(BLOCKS[agent.id] && installed.has(agent.id), `${agent.id}: add its blocking terms to BLOCKS`);
  });

  const payload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: '.', tool_name: 'Write', tool_input: { file_path: 'src/billing/x.ts', content: 'x' } });
  const runInstalled = (agent: string, env: NodeJS.ProcessEnv) => spawnSync('/bin/sh', installed.get(agent) ?? [], { cwd: ws, input: payload, encoding: 'utf8', env: { HOME: join(temp, 'home'), ...env } });

  for (const agent of AGENTS.filter((a) => a.id !== 'opencode')) {
    it(`${agent.label}: no launcher for this user (INTENT_GOVERNOR_HOME empty): blocked, saying what to install`, () => {
      const empty = join(temp, 'empty-home');
      mkdirSync(empty, { recursive: true });
      const run = runInstalled(agent.id, { INTENT_GOVERNOR_HOME: empty, PATH: process.env.PATH });
      const reason = (BLOCKS[agent.id] as (run: SpawnSyncReturns<string>) => string)(run);
      assert.match(reason, /its hook launcher is not installed for this user\. Install Intent Governor: the VS Code extension writes the launcher .* run governor hooks install/);
      assert.ok(run.stderr.includes(join(empty, 'bin', 'governor-hook')), `stderr names the launcher it looked for: ${run.stderr}`);
    });

    for (const code of [1, 2]) {
      it(`${agent.label}: a node first on PATH that exits ${code} with no output: blocked, saying why`, () => {
        const run = runInstalled(agent.id, { INTENT_GOVERNOR_HOME: governorHome, PATH: `${join(temp, `node-exits-${code}`)}:/usr/bin:/bin` });
        const reason = (BLOCKS[agent.id] as (run: SpawnSyncReturns<string>) => string)(run);
        assert.match(reason, /its hook process ended without an answer\. Check that node is on the PATH/);
        assert.match(run.stderr, new RegExp(`governor-hook exited with code ${code}\\)`));
      });
    }

    it(`${agent.label}: no node on PATH at all: blocked, saying so`, () => {
      const run = runInstalled(agent.id, { INTENT_GOVERNOR_HOME: governorHome, PATH: join(temp, 'no-such-bin') });
      (BLOCKS[agent.id] as (run: SpawnSyncReturns<string>) => string)(run);
      assert.match(run.stderr, /node is not on the PATH its hook runs with/);
    });
  }
});
