import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentEndpointPid } from '../../src/core/bridge/residentEndpoint';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace, traceRecordsFor } from './agentWorkspace';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedCline, runCline } from './clineDriver';
import { codexPatch, pathWithCodex, provisionedCodex, runCodex, writeCodexConfig } from './codexDriver';
import { provisionedCopilot, runCopilot } from './copilotDriver';
import { provisionedOpencode, runOpencode } from './opencodeDriver';
import { startScriptedAnthropic, type ScriptStep } from '../support/scriptedAnthropic';
import { startScriptedOpenAI, type ScriptedOpenAI } from '../support/scriptedOpenAI';
import { localProcessGone } from '../../src/core/io/processIdentity';

/** What one agent session left: the model's tool results (JSON), how many script steps were not played, the agent's output. */
/** What a session against a scripted model needs of it (the OpenAI and Anthropic stand-ins alike). */
type ScriptedModel = Pick<ScriptedOpenAI, 'url' | 'remaining' | 'toolResults' | 'close'>;

interface Played {
  results: string;
  remaining: number;
  output: string;
}

/** One agent as these tests drive it: its `--agent` name, its own file-writing tool call, one session against a script. */
interface AgentUnderTest {
  name: string;
  agent: string;
  /** The agent's tool call that creates `rel` holding `line` and a newline. */
  write(rel: string, line: string): ScriptStep;
  play(script: ScriptStep[]): Promise<Played>;
  /** A hook file's refusal cancels Cline's whole task: the script's closing text is never asked for. */
  refusalEndsTask?: boolean;
}

const HUMAN_SAVE = 'export function login() {}\n// a human saved this line\n';

/**
 * Issue 26, for each command-hook agent besides Gemini CLI (resident.agent.test.ts has it): the real Codex CLI,
 * Copilot CLI, Cline and OpenCode, offline against scripted models, with the workspace's resident governor on. A
 * resident SIGKILLed mid-session: the agent's later hook calls fall back to the Node hook, which decides them and
 * starts a new resident. And a human's save between the agent's read and its edit is STALE_FILE, for the agents
 * whose hooks show the governor the read.
 */
describe('agents: each agent through a killed resident governor, and STALE_FILE where its hooks show the read', function () {
  this.timeout(300_000);
  let codex: string;
  let copilot: string;
  let cline: string;
  let opencode: string;
  let temp: string;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;

  before(function () {
    this.timeout(600_000);
    codex = provisionedCodex();
    copilot = provisionedCopilot();
    cline = provisionedCline();
    opencode = provisionedOpencode();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('resident-each', { login: 'export function login() {}\n' }));
    env = { ...governorHomes(temp), INTENT_GOVERNOR_INTENT: 'auth-refactor', INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '60000', PATH: pathWithCodex(codex) };
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const install = (agent: string) => {
    writeCodexConfig(home, [ws]);
    const run = builtGovernor(['hooks', 'install', '--agent', agent, '--workspace', ws], { HOME: home, CODEX_HOME: join(home, '.codex'), ...env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  };

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Running and not a zombie (a SIGKILLed resident nobody has reaped yet still answers kill 0). */
  const alive = (pid: number) => !localProcessGone(pid, 0);
  const residentPid = () => residentEndpointPid(governorHomes(temp).INTENT_GOVERNOR_HOME, ws);
  /** The pid of a live resident serving the workspace other than `not`, waited for up to 15 s; undefined if none came. */
  const liveResident = async (not?: number) => {
    for (let i = 0; i < 150; i++) {
      const pid = residentPid();
      if (pid !== undefined && pid !== not && alive(pid)) return pid;
      await wait(100);
    }
    return undefined;
  };
  /**
   * SIGKILLs the workspace's resident (no shutdown, no endpoint removal) and waits until it is gone; undefined when
   * none was up. It runs in a script step's `before`, where a throw would only cut the model's answer: the test asserts.
   */
  const killResident = async () => {
    const pid = await liveResident();
    if (pid === undefined) return undefined;
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && alive(pid); i++) await wait(100);
    return pid;
  };

  const recordsFor = (rel: string) => traceRecordsFor(ws, rel);
  /** The trace records of `rel` once there is one (a change whose post died with the resident is recorded by the next one's reconciliation). */
  const settledRecordsFor = async (rel: string) => {
    for (let i = 0; i < 100 && recordsFor(rel).length === 0; i++) await wait(100);
    return recordsFor(rel);
  };
  const refusalsOf = (code: string) => orchestrationJsonl(ws, 'governance_log.jsonl').filter((entry) => entry.code === code);

  /** One session of the agent (`run`, given the model's URL) against a scripted model, which is closed after it. */
  const playOn = async (model: ScriptedModel, run: (modelUrl: string) => Promise<{ stdout: string; stderr: string }>): Promise<Played> => {
    try {
      const ran = await run(model.url);
      return { results: JSON.stringify(model.toolResults()), remaining: model.remaining(), output: ran.stdout + ran.stderr };
    } finally {
      await model.close();
    }
  };

  const AGENTS: AgentUnderTest[] = [
    {
      name: 'Codex CLI',
      agent: 'codex',
      write: (rel, line) => ({ tool: 'apply_patch', input: codexPatch(`*** Add File: ${rel}`, `+${line}`) }),
      play: async (script) => playOn(await startScriptedOpenAI(script), (modelUrl) => runCodex({ binary: codex, cwd: ws, modelUrl, home, env })),
    },
    {
      name: 'Copilot CLI',
      agent: 'copilot',
      write: (rel, line) => ({ tool: 'create', input: { path: join(ws, rel), file_text: `${line}\n` } }),
      play: async (script) => playOn(await startScriptedAnthropic(script), (modelUrl) => runCopilot({ binary: copilot, cwd: ws, trusted: ws, modelUrl, home, env })),
    },
    {
      name: 'Cline',
      agent: 'cline',
      write: (rel, line) => ({ tool: 'editor', input: { path: join(ws, rel), new_text: `${line}\n` } }),
      refusalEndsTask: true,
      play: async (script) => playOn(await startScriptedOpenAI(script), (modelUrl) => runCline({ binary: cline, cwd: ws, modelUrl, home, env })),
    },
    {
      name: 'OpenCode',
      agent: 'opencode',
      write: (rel, line) => ({ tool: 'write', input: { filePath: rel, content: `${line}\n` } }),
      play: async (script) => playOn(await startScriptedOpenAI(script), (modelUrl) => runOpencode({ binary: opencode, cwd: ws, modelUrl, home, env })),
    },
  ];

  const agentNamed = (name: string) => AGENTS.find((a) => a.agent === name) as AgentUnderTest;

  for (const agent of AGENTS) {
    it(`${agent.name}: a resident SIGKILLed between two writes: the later calls are still decided in the same session (in scope lands and is recorded once, out of scope refused), and a new resident serves the workspace`, async () => {
      install(agent.agent);
      let killed: number | undefined;
      const played = await agent.play([
        agent.write('src/auth/before-kill.ts', 'export const b = 1;'),
        { ...agent.write('src/auth/after-kill.ts', 'export const k = 1;'), before: async () => void (killed = await killResident()) },
        agent.write('src/billing/after-kill.ts', 'export const x = 1;'),
        { text: 'done' },
      ]);
      const context = `${played.results}\n${played.output}`;
      assert.equal(played.remaining, agent.refusalEndsTask ? 1 : 0, `${agent.name} stopped before playing the script: ${context}`);
      assert.ok(killed, 'the resident was killed mid-session');
      assert.equal(readFileSync(join(ws, 'src/auth/after-kill.ts'), 'utf8'), 'export const k = 1;\n', `the in-scope write after the kill landed: ${context}`);
      assert.equal(existsSync(join(ws, 'src/billing/after-kill.ts')), false, 'the out-of-scope write after the kill did not land');
      const refusals = refusalsOf('SCOPE_VIOLATION');
      assert.ok(refusals.length > 0, 'the governance log has the refusal');
      assert.deepEqual(new Set(refusals.map((entry) => JSON.stringify(entry.paths))), new Set([JSON.stringify(['src/billing/after-kill.ts'])]));
      if (!agent.refusalEndsTask) assert.match(played.results, /SCOPE_VIOLATION/u, 'the model read the refusal');
      for (const rel of ['src/auth/before-kill.ts', 'src/auth/after-kill.ts']) {
        const records = await settledRecordsFor(rel);
        assert.equal(records.length, 1, `${rel} recorded once: ${JSON.stringify(orchestrationJsonl(ws, 'agent_trace.jsonl'))}`);
      }
      assert.equal(recordsFor('src/billing/after-kill.ts').length, 0, 'the refused write is not in the trace');
      const next = await liveResident(killed);
      assert.ok(next, `a new resident serves the workspace (the endpoint names ${residentPid()}, the killed one was ${killed})`);
    });
  }

  /**
   * The read and the edit each agent sends its hooks. The resident holds the sessions' read ledgers, so the read
   * waits for it to be up (the session's first hook call, decided by the Node hook, starts it).
   * Codex CLI is not here: it reads through its shell, which its hooks show the governor as a command, not as a
   * read, so the governor has no basis to call a later edit stale. Cline is not here either: its read_files tool
   * is passed through unjudged (clineDialect.ts's PASSTHROUGH), so the governor never sees what it read.
   */
  const STALE_AGENTS: { agent: AgentUnderTest; read: (abs: string) => ScriptStep; edit: (abs: string) => ScriptStep }[] = [
    {
      agent: agentNamed('copilot'),
      read: (abs) => ({ tool: 'view', input: { path: abs } }),
      edit: (abs) => ({ tool: 'edit', input: { path: abs, old_str: 'login() {}', new_str: 'login() { return 2; }' } }),
    },
    {
      agent: agentNamed('opencode'),
      read: (abs) => ({ tool: 'read', input: { filePath: abs } }),
      edit: (abs) => ({ tool: 'edit', input: { filePath: abs, oldString: 'login() {}', newString: 'login() { return 2; }' } }),
    },
  ];

  for (const { agent, read, edit } of STALE_AGENTS) {
    it(`${agent.name}: a human's save between the agent's read and its edit is refused as STALE_FILE; the save survives`, async () => {
      install(agent.agent);
      const login = join(ws, 'src/auth/login.ts');
      // The human's save keeps the edit's search text, so only the staleness can refuse it.
      let served: number | undefined;
      const played = await agent.play([
        { ...read(login), before: async () => void (served = await liveResident()) },
        { ...edit(login), before: () => writeFileSync(login, HUMAN_SAVE) },
        { text: 'done' },
      ]);
      const context = `${played.results}\n${played.output}`;
      assert.ok(served, 'a resident served the session before the read');
      assert.equal(played.remaining, 0, `${agent.name} stopped before playing the script: ${context}`);
      assert.match(played.results, /STALE_FILE/u, 'the model read STALE_FILE');
      assert.equal(readFileSync(login, 'utf8'), HUMAN_SAVE, "the human's save survived");
      assert.equal(recordsFor('src/auth/login.ts').length, 0, 'no change of login.ts was recorded');
    });
  }
});
