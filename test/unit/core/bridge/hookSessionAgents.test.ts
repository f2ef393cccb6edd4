import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHookLauncher, hookLauncherPath } from '../../../../src/core/agents/common/hookLauncher';
import { agentHookRoute } from '../../../../src/core/bridge/agentHookRoute';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { hookRoute } from '../../../../src/core/bridge/hookRoute';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import { writeResidentEndpoint } from '../../../../src/core/bridge/residentEndpoint';
import { agentProcessOf, currentProcess } from '../../../../src/core/io/processIdentity';
import { writeDiscoveryFile } from '../../../../src/core/mcp/discoveryFile';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { sameFolder } from '../../../../src/core/paths/sameFolder';
import { bundledScript } from '../../../support/bundledScript';
import { waitForOutput } from '../../../support/childProcesses';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';
import { hookFixture } from '../../../support/runHook';

const linux = process.platform === 'linux';
const SUPPORT = join(__dirname, '..', '..', '..', 'support');
const CLI = join(__dirname, '..', '..', '..', '..', 'src', 'cli');
/** Short so the tests wait little; installed governors look every 30 s. */
const SWEEP_MS = 200;
const WITHIN_A_MINUTE = 60_000;

async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_A_MINUTE;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('agent ancestry (the process above a hook call)', () => {
  before(function () {
    if (!linux) this.skip();
  });

  it('skips the shells between the caller and the agent, and names the agent with its start time', async () => {
    const child = spawn('/bin/sh', ['-c', 'bash -c "sleep 30; true"; true'], { stdio: 'ignore' });
    try {
      const sleeper = await descendantNamed(child, 'sleep');
      assert.deepEqual(agentProcessOf(sleeper), { pid: process.pid, start: currentProcess().start });
      assert.equal(agentProcessOf({ pid: sleeper.pid, start: sleeper.start + 1 }), undefined, 'another process under a reused pid is nobody');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('hook sessions end with their agent (the extension’s /hook and /agent-hook)', function () {
  this.timeout(WITHIN_A_MINUTE + 30_000);
  let h: Harness;
  let home: string;
  let server: HttpMcpServer;
  let bridge: NativeToolBridge;
  let watching: { dispose(): void };
  let env: NodeJS.ProcessEnv;
  const agents: ChildProcess[] = [];

  before(function () {
    if (!linux) this.skip(); // no /proc: hook sessions keep the idle sweep
  });

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export const login = 1;\n' } });
    h.governor.services.sessions.setDefaultIntent('auth-refactor');
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    // As extension.ts wires them: a bridge that outlives the calls, its two routes, and the sweep.
    bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true, resident: true, routes: { requestIntents: false } });
    watching = bridge.watchAgents(SWEEP_MS);
    const launcherRoute = agentHookRoute({ decide: (request, signal) => bridge.handle(request, signal), governs: (root) => sameFolder(root, h.root), env: process.env, intentFromEnv: false });
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: [hookRoute(bridge), launcherRoute] });
    await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: [h.root], url: server.url }, join(home, 'servers'));
    writeResidentEndpoint(home, h.root, { port: server.port, token: server.token, pid: process.pid });
    env = { ...process.env, INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '', INTENT_GOVERNOR_RESIDENT: 'on' };
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.kill('SIGKILL');
    watching.dispose();
    await server.close();
    await bridge.close();
    await h.dispose();
    await removeTree(home);
  });

  const listed = () => h.governor.services.sessions.activity.list().map((s) => s.id);

  /** A stand-in agent that ran SessionStart and a Read through `command` (under `sh -c`), still running. */
  async function agentThatHooked(command: string): Promise<ChildProcess> {
    const payloads = ['session-start', 'pre-read'].map((name) => hookFixture('claude', name, h.root));
    const agent = spawn(process.execPath, [bundledScript(join(SUPPORT, 'standInAgent.ts')), command, ...payloads], { cwd: h.root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    agents.push(agent);
    let out = '';
    agent.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await waitForOutput(agent, 'ready');
    assert.equal(out, 'hooked 0\nhooked 0\nready\n');
    return agent;
  }

  function nodeHookCommand(): string {
    bundledScript(join(CLI, 'headlessDecider.ts'), 'hook-headless.js');
    return `'${process.execPath}' '${bundledScript(join(CLI, 'hookMain.ts'), 'hook.js')}' hook claude --timeout-ms 20000`;
  }

  /** The launcher, with a `node` first on PATH that fails: an answer proves the launcher's bash asked /agent-hook itself. */
  async function launcherCommand(wrapper = ''): Promise<string> {
    await ensureHookLauncher(env, bundledScript(join(CLI, 'hookMain.ts'), 'hook.js'));
    const noNode = join(home, 'no-node');
    await mkdir(noNode);
    await writeFile(join(noNode, 'node'), '#!/bin/sh\necho "node was started" >&2\nexit 1\n', { mode: 0o755 });
    return `PATH='${noNode}':"$PATH" ${wrapper}'${hookLauncherPath(env)}' hook claude --timeout-ms 20000`;
  }

  it('an agent killed without SessionEnd (the Node hook, through sh -c, to /hook) leaves the session list', async () => {
    const agent = await agentThatHooked(nodeHookCommand());
    assert.deepEqual(listed(), ['claude:abc123']);
    agent.kill('SIGKILL');
    await eventually(() => listed().length === 0, 'the killed agent’s session to end');
  });

  it('an agent killed without SessionEnd (the launcher’s bash, through sh -c, to /agent-hook) leaves the session list', async () => {
    const agent = await agentThatHooked(await launcherCommand());
    assert.deepEqual(listed(), ['claude:abc123']);
    agent.kill('SIGKILL');
    await eventually(() => listed().length === 0, 'the killed agent’s session to end');
  });

  it('a running agent’s session stays, its intent with it, however many sweeps pass', async () => {
    await agentThatHooked(await launcherCommand());
    h.governor.services.sessions.bindIntent('claude:abc123', 'auth-refactor');
    await new Promise((resolve) => setTimeout(resolve, SWEEP_MS * 10));
    assert.deepEqual(listed(), ['claude:abc123']);
    assert.equal(h.governor.services.sessions.boundIntentId('claude:abc123'), 'auth-refactor');
  });

  it('a process that ran one call only (a per-call wrapper, gone since) is never taken for the agent', async () => {
    // `timeout` is no shell: it is what is found above each call, a new one each time, and each exits with its call.
    const agent = await agentThatHooked(await launcherCommand('timeout 30 '));
    await new Promise((resolve) => setTimeout(resolve, SWEEP_MS * 10));
    assert.deepEqual(listed(), ['claude:abc123'], 'the agent still runs');
    agent.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, SWEEP_MS * 10));
    assert.deepEqual(listed(), ['claude:abc123'], 'its agent was never known: the idle sweep ends it');
  });
});

/** The pid and start time of `root`'s descendant named `name`, once it exists (/proc's children lists). */
async function descendantNamed(root: ChildProcess, name: string): Promise<{ pid: number; start: number }> {
  const { readFileSync } = await import('node:fs');
  const stat = (pid: number) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), start: Number(fields[19]) };
  };
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/u).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const queue = [root.pid as number];
    while (queue.length) {
      const pid = queue.shift() as number;
      try {
        const found = stat(pid);
        if (found.name === name) return { pid, start: found.start };
      } catch {
        // gone meanwhile
      }
      queue.push(...children(pid));
    }
    if (Date.now() > deadline) assert.fail(`no ${name} under ${root.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
