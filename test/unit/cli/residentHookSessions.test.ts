import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHookLauncher, hookLauncherPath } from '../../../src/core/agents/common/hookLauncher';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { bundledScript } from '../../support/bundledScript';
import { finished, waitForOutput } from '../../support/childProcesses';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { residentBundles, stopResident } from '../../support/residentDoors';
import { hookFixture } from '../../support/runHook';

const WITHIN_A_MINUTE = 60_000;
/** Short so the tests wait little; a resident looks every 30 s unless told otherwise. */
const SWEEP_MS = 200;

/**
 * The resident governor's hook sessions end with their agent: a stand-in agent runs the installed launcher through
 * `sh -c` (SessionStart, then a Read), the launcher's bash asks the resident over /dev/tcp, and a kill -9 of the agent
 * (no SessionEnd) ends its session at the resident's next sweep. Linux only: elsewhere there is no /proc to find the
 * agent by, and sessions keep the idle sweep.
 */
describe('resident governor: a hook session ends with its agent', function () {
  this.timeout(WITHIN_A_MINUTE + 60_000);
  let w: HeadlessHookWorkspace;
  let env: NodeJS.ProcessEnv;
  let command: string;
  const agents: ChildProcess[] = [];

  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  beforeEach(async () => {
    w = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN } });
    env = { ...process.env, ...w.env, INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '120000', INTENT_GOVERNOR_SESSION_SWEEP_MS: String(SWEEP_MS) };
    await ensureHookLauncher(env, residentBundles().hook);
    // A `node` first on PATH that fails: an answer proves the resident, not a Node hook, decided the agent's calls.
    const noNode = join(w.home, 'no-node');
    mkdirSync(noNode);
    writeFileSync(join(noNode, 'node'), '#!/bin/sh\necho "node was started" >&2\nexit 1\n');
    chmodSync(join(noNode, 'node'), 0o755);
    command = `PATH='${noNode}':"$PATH" '${hookLauncherPath(env)}' hook claude --timeout-ms 20000`;
    // The first call is the Node hook's, which starts the resident the agent's calls then reach.
    const first = spawn(hookLauncherPath(env), ['hook', 'gemini', '--timeout-ms', '20000'], { cwd: w.h.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    first.stdin.end(hookFixture('gemini', 'before-read-file', w.h.root));
    assert.equal((await finished(first)).code, 0);
    const deadline = Date.now() + 15_000;
    while (residentEndpointPid(w.home, w.h.root) === undefined) {
      if (Date.now() > deadline) assert.fail(`no resident came up; log:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.kill('SIGKILL');
    stopResident(w.home, w.h.root);
    await w.dispose();
  });

  const log = () => (existsSync(join(w.home, 'run', 'resident.log')) ? readFileSync(join(w.home, 'run', 'resident.log'), 'utf8') : '');
  const ended = () => /session claude:abc123 ended: its agent process is gone/u.test(log());

  async function agentThatHooked(): Promise<ChildProcess> {
    const payloads = ['session-start', 'pre-read'].map((name) => hookFixture('claude', name, w.h.root));
    const agent = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', 'support', 'standInAgent.ts')), command, ...payloads], { cwd: w.h.root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    agents.push(agent);
    let out = '';
    agent.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await waitForOutput(agent, 'ready');
    assert.equal(out, 'hooked 0\nhooked 0\nready\n', log());
    return agent;
  }

  it('an agent killed with kill -9 (no SessionEnd) has its session ended by the resident within a minute', async () => {
    const agent = await agentThatHooked();
    assert.equal(ended(), false);
    agent.kill('SIGKILL');
    const deadline = Date.now() + WITHIN_A_MINUTE;
    while (!ended()) {
      if (Date.now() > deadline) assert.fail(`the killed agent's session was not ended; log:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.doesNotMatch(log(), /ending session \S+ failed/u);
  });

  it('a running agent keeps its session across the sweeps', async () => {
    await agentThatHooked();
    await new Promise((resolve) => setTimeout(resolve, SWEEP_MS * 10));
    assert.equal(ended(), false, log());
  });
});
