import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentEndpointPid } from '../../src/core/bridge/residentEndpoint';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace, traceRecordsFor } from './agentWorkspace';
import { ensureBuilt } from './claudeCodeDriver';
import { pathWithCodex, provisionedCodex, runCodex, writeCodexConfig, codexPatch } from './codexDriver';
import { provisionedCopilot, runCopilot } from './copilotDriver';
import { provisionedGemini, runGemini } from './geminiDriver';
import { provisionedCline, runCline } from './clineDriver';
import { provisionedOpencode, runOpencode } from './opencodeDriver';
import { provisionedQwen, runQwen } from './qwenDriver';
import { startScriptedAnthropic } from '../support/scriptedAnthropic';
import { startScriptedGemini, type ScriptStep } from '../support/scriptedGemini';
import { startScriptedOpenAI } from '../support/scriptedOpenAI';

/**
 * The real Gemini CLI, Codex CLI and Copilot CLI with the workspace's resident governor on (as users get it): the
 * first hook call is decided by the Node hook, which starts the resident; the hook launcher sends every later call
 * there with curl. A `node` first on PATH counts the Node hook processes the agents start.
 */
describe('agents: one resident governor for every command-hook agent', function () {
  this.timeout(300_000);
  let gemini: string;
  let codex: string;
  let copilot: string;
  let cline: string;
  let opencode: string;
  let qwen: string;
  let temp: string;
  let ws: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let nodeStarts: string;

  before(function () {
    this.timeout(600_000);
    gemini = provisionedGemini();
    codex = provisionedCodex();
    copilot = provisionedCopilot();
    cline = provisionedCline();
    opencode = provisionedOpencode();
    qwen = provisionedQwen();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('resident', { login: 'export function login() {}\n' }));
    // In-scope changes land without a person (headless agents cannot hold a call for one): the workspace says so.
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }));
    const bin = join(temp, 'counting-node-bin');
    mkdirSync(bin, { recursive: true });
    nodeStarts = join(temp, 'node-hook-starts');
    writeFileSync(join(bin, 'node'), `#!/bin/sh\ncase " $* " in *" hook "*) echo "$*" >> ${JSON.stringify(nodeStarts)} ;; esac\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    chmodSync(join(bin, 'node'), 0o755);
    env = { ...governorHomes(temp), INTENT_GOVERNOR_INTENT: 'auth-refactor', INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_RESIDENT_IDLE_MS: '60000', PATH: `${bin}:${pathWithCodex(codex)}` };
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const install = (...agents: string[]) => {
    writeCodexConfig(home, [ws]);
    const run = builtGovernor(['hooks', 'install', ...agents.flatMap((a) => ['--agent', a]), '--workspace', ws], { HOME: home, CODEX_HOME: join(home, '.codex'), ...env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  };
  const startedNodeHooks = () => (existsSync(nodeStarts) ? readFileSync(nodeStarts, 'utf8').split('\n').filter(Boolean).length : 0);
  const residentPid = () => residentEndpointPid(governorHomes(temp).INTENT_GOVERNOR_HOME, ws);
  const residentUp = async () => {
    for (let i = 0; i < 100 && residentPid() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return residentPid();
  };
  const trace = () => orchestrationJsonl(ws, 'agent_trace.jsonl');
  const recordsFor = (path: string) => traceRecordsFor(ws, path);

  /** After a session writing src/auth/a.ts, src/auth/b.ts and src/billing/x.ts: what the resident let land, once. */
  const assertResidentDecided = async () => {
    assert.equal(readFileSync(join(ws, 'src/auth/b.ts'), 'utf8'), 'export const b = 1;\n');
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false);
    assert.equal(recordsFor('src/auth/b.ts').length, 1);
    assert.ok(await residentUp());
    assert.ok(startedNodeHooks() <= 3, `${startedNodeHooks()} Node hook processes`);
  };

  const playGemini = async (script: ScriptStep[]) => {
    const model = await startScriptedGemini(script);
    try {
      const run = await runGemini({ binary: gemini, cwd: ws, modelUrl: model.url, home, env });
      assert.equal(model.remaining(), 0, `gemini stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return model;
    } finally {
      await model.close();
    }
  };

  it('Gemini CLI: after the first call the resident decides (in scope lands, out of scope refused), with one Node hook process for the whole session', async () => {
    install('gemini');
    const model = await playGemini([
      { tool: 'write_file', input: { file_path: 'src/auth/a.ts', content: 'export const a = 1;\n' } },
      { tool: 'write_file', input: { file_path: 'src/auth/b.ts', content: 'export const b = 1;\n' } },
      { tool: 'write_file', input: { file_path: 'src/billing/x.ts', content: 'x\n' } },
      { tool: 'write_file', input: { file_path: 'src/auth/c.ts', content: 'export const c = 1;\n' } },
      { text: 'done' },
    ]);
    assert.equal(readFileSync(join(ws, 'src/auth/c.ts'), 'utf8'), 'export const c = 1;\n');
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the out-of-scope write did not land');
    assert.match(JSON.stringify(model.toolResults()), /SCOPE_VIOLATION/u);
    for (const file of ['src/auth/a.ts', 'src/auth/b.ts', 'src/auth/c.ts']) assert.equal(recordsFor(file).length, 1, `${file}: ${JSON.stringify(trace())}`);
    assert.ok(await residentUp(), 'a resident governs the workspace');
    // Session start, prompt, 4 × (before + after), end: 11 hook calls; the Node hook started only while the resident came up.
    assert.ok(startedNodeHooks() <= 3, `${startedNodeHooks()} Node hook processes for 11 hook calls`);
  });

  it("Gemini CLI: a human's save between the agent's read and its write is STALE_FILE; a resident killed mid-session: the next calls are decided again without restarting the agent", async () => {
    install('gemini');
    // A first session brings the resident up.
    await playGemini([{ text: 'warm' }]);
    const first = await residentUp();
    assert.ok(first);
    const login = join(ws, 'src/auth/login.ts');
    const model = await playGemini([
      { tool: 'read_file', input: { file_path: 'src/auth/login.ts' } },
      { tool: 'write_file', input: { file_path: 'src/auth/login.ts', content: 'export const login = 2;\n' }, before: () => writeFileSync(login, 'export function login() { /* a human saved */ }\n') },
      { tool: 'write_file', input: { file_path: 'src/auth/after-kill.ts', content: 'export const k = 1;\n' }, before: () => process.kill(first, 'SIGKILL') },
      { tool: 'write_file', input: { file_path: 'src/billing/after-kill.ts', content: 'x\n' } },
      { text: 'done' },
    ]);
    const results = JSON.stringify(model.toolResults());
    assert.match(results, /STALE_FILE/u);
    assert.equal(readFileSync(login, 'utf8'), 'export function login() { /* a human saved */ }\n', "the human's save survived");
    assert.equal(readFileSync(join(ws, 'src/auth/after-kill.ts'), 'utf8'), 'export const k = 1;\n', 'the call after the kill was decided and landed');
    assert.equal(existsSync(join(ws, 'src/billing/after-kill.ts')), false, 'out of scope is still refused after the kill');
    assert.equal(recordsFor('src/auth/after-kill.ts').length, 1);
  });

  it("Gemini CLI sends no AfterTool for write_file and replace: the resident records each change itself, once and not as reconciled, judges the next edit of that file against it, and records nothing for a replace refused at BeforeTool", async () => {
    install('gemini');
    const timings = join(temp, 'hook-timings.tsv');
    env.INTENT_GOVERNOR_HOOK_TIMINGS = timings;
    await playGemini([{ text: 'warm' }]); // brings the resident up, with the timings file in its environment
    assert.ok(await residentUp());
    const login = join(ws, 'src/auth/login.ts');
    const fresh = join(ws, 'src/auth/fresh.ts');
    const replace = (file: string, old_string: string, new_string: string) => ({ tool: 'replace', input: { file_path: file, instruction: 'Change it.', old_string, new_string } });
    const model = await playGemini([
      { tool: 'read_file', input: { file_path: login } },
      replace(login, 'login() {}', 'login(user: string) {}'),
      // The file the agent has just changed itself: judged against that change, which the resident recorded first.
      replace(login, 'user: string', 'user: User'),
      { tool: 'write_file', input: { file_path: fresh, content: 'export const fresh = 1;\n' } },
      replace(fresh, 'no such text', 'anything'), // refused: its text is not in the file
      { text: 'done' },
    ]);
    const results = model.toolResults();
    assert.deepEqual(results.map((r) => r.is_error), [false, false, false, false, true], JSON.stringify(results));
    assert.doesNotMatch(JSON.stringify(results), /STALE_FILE/u);
    assert.equal(readFileSync(login, 'utf8'), 'export function login(user: User) {}\n');
    assert.equal(readFileSync(fresh, 'utf8'), 'export const fresh = 1;\n');
    assert.match(results[4].text, /INVALID_INPUT/u);
    const login2 = recordsFor('src/auth/login.ts');
    assert.equal(login2.length, 2, JSON.stringify(trace()));
    assert.equal(recordsFor('src/auth/fresh.ts').length, 1, 'one record for the write, none for the refused replace');
    for (const record of [...login2, ...recordsFor('src/auth/fresh.ts')]) {
      const metadata = record.metadata as Record<string, unknown>;
      assert.equal(metadata.reconciled, undefined, `recorded as its post would have been: ${JSON.stringify(metadata)}`);
      assert.equal(metadata.agent, 'gemini-cli');
    }
    // What reached the resident: a BeforeTool per tool call, an AfterTool for read_file alone.
    const events = readFileSync(timings, 'utf8').split('\n').filter((line) => line.startsWith('gemini\t')).map((line) => line.split('\t')[1]);
    assert.equal(events.filter((event) => event === 'PreToolUse').length, 5, events.join(', '));
    assert.equal(events.filter((event) => event === 'PostToolUse' || event === 'PostToolUseFailure').length, 1, events.join(', '));
  });

  it('Codex CLI: the resident decides apply_patch (in scope lands, out of scope refused)', async () => {
    install('codex');
    const model = await startScriptedOpenAI([
      { tool: 'apply_patch', input: codexPatch('*** Add File: src/auth/a.ts', '+export const a = 1;') },
      { tool: 'apply_patch', input: codexPatch('*** Add File: src/auth/b.ts', '+export const b = 1;') },
      { tool: 'apply_patch', input: codexPatch('*** Add File: src/billing/x.ts', '+x') },
      { text: 'done' },
    ]);
    try {
      const run = await runCodex({ binary: codex, cwd: ws, modelUrl: model.url, home, env });
      assert.equal(model.remaining(), 0, `codex stopped: ${run.stdout}\n${run.stderr}`);
    } finally {
      await model.close();
    }
    await assertResidentDecided();
  });

  it('Copilot CLI: the resident decides create (in scope lands, out of scope refused)', async () => {
    install('copilot');
    const model = await startScriptedAnthropic([
      { tool: 'create', input: { path: join(ws, 'src/auth/a.ts'), file_text: 'export const a = 1;\n' } },
      { tool: 'create', input: { path: join(ws, 'src/auth/b.ts'), file_text: 'export const b = 1;\n' } },
      { tool: 'create', input: { path: join(ws, 'src/billing/x.ts'), file_text: 'x\n' } },
      { text: 'done' },
    ]);
    try {
      const run = await runCopilot({ binary: copilot, cwd: ws, trusted: ws, modelUrl: model.url, home, env });
      assert.equal(model.remaining(), 0, `copilot stopped: ${run.stdout}\n${run.stderr}`);
    } finally {
      await model.close();
    }
    await assertResidentDecided();
  });

  it('Qwen Code: the resident decides write_file (in scope lands, out of scope refused)', async () => {
    install('qwen');
    const model = await startScriptedOpenAI([
      { tool: 'write_file', input: { file_path: join(ws, 'src/auth/a.ts'), content: 'export const a = 1;\n' } },
      { tool: 'write_file', input: { file_path: join(ws, 'src/auth/b.ts'), content: 'export const b = 1;\n' } },
      { tool: 'write_file', input: { file_path: join(ws, 'src/billing/x.ts'), content: 'x\n' } },
      { text: 'done' },
    ]);
    try {
      const run = await runQwen({ binary: qwen, cwd: ws, modelUrl: model.url, home, env });
      assert.equal(model.remaining(), 0, `qwen stopped: ${run.stdout}\n${run.stderr}`);
      assert.match(JSON.stringify(model.toolResults()), /SCOPE_VIOLATION/u);
    } finally {
      await model.close();
    }
    await assertResidentDecided();
  });

  it('Cline and OpenCode: the resident decides their edits too (in scope lands, out of scope refused)', async () => {
    install('cline', 'opencode');
    const clineModel = await startScriptedOpenAI([{ tool: 'editor', input: { path: join(ws, 'src/auth/cl.ts'), new_text: 'export const cl = 1;\n' } }, { text: 'done' }]);
    try {
      await runCline({ binary: cline, cwd: ws, modelUrl: clineModel.url, home, env });
    } finally {
      await clineModel.close();
    }
    assert.equal(readFileSync(join(ws, 'src/auth/cl.ts'), 'utf8'), 'export const cl = 1;\n');
    // OpenCode's plugin asks the resident from inside OpenCode: with one up, no launcher process runs for its calls.
    assert.ok(await residentUp());
    const launcher = join(governorHomes(temp).INTENT_GOVERNOR_HOME, 'bin', 'governor-hook');
    const launcherRuns = join(temp, 'launcher-runs');
    writeFileSync(launcher, readFileSync(launcher, 'utf8').replace('\nhook=', `\necho "$*" >> ${JSON.stringify(launcherRuns)}\nhook=`));
    const ocModel = await startScriptedOpenAI([
      { tool: 'write', input: { filePath: 'src/auth/oc.ts', content: 'export const oc = 1;\n' } },
      { tool: 'write', input: { filePath: 'src/billing/oc.ts', content: 'x\n' } },
      { text: 'done' },
    ]);
    try {
      await runOpencode({ binary: opencode, cwd: ws, modelUrl: ocModel.url, home, env });
    } finally {
      await ocModel.close();
    }
    assert.equal(readFileSync(join(ws, 'src/auth/oc.ts'), 'utf8'), 'export const oc = 1;\n');
    assert.equal(existsSync(join(ws, 'src/billing/oc.ts')), false, 'out of scope refused');
    assert.equal(existsSync(launcherRuns), false, `OpenCode's calls ran the launcher: ${existsSync(launcherRuns) ? readFileSync(launcherRuns, 'utf8') : ''}`);
    for (const file of ['src/auth/cl.ts', 'src/auth/oc.ts']) assert.equal(recordsFor(file).length, 1, `${file}: ${JSON.stringify(trace())}`);
    assert.ok(await residentUp());
    assert.ok(startedNodeHooks() <= 4, `${startedNodeHooks()} Node hook processes`);
  });

  it('Gemini CLI and Codex CLI in one workspace share one resident and one trace: every change recorded once', async () => {
    install('gemini', 'codex');
    await playGemini([{ tool: 'write_file', input: { file_path: 'src/auth/g1.ts', content: 'export const g = 1;\n' } }, { text: 'done' }]);
    const pid = await residentUp();
    assert.ok(pid);
    const model = await startScriptedOpenAI([{ tool: 'apply_patch', input: codexPatch('*** Add File: src/auth/c1.ts', '+export const c = 1;') }, { text: 'done' }]);
    try {
      await runCodex({ binary: codex, cwd: ws, modelUrl: model.url, home, env });
    } finally {
      await model.close();
    }
    await playGemini([{ tool: 'write_file', input: { file_path: 'src/auth/g2.ts', content: 'export const g = 2;\n' } }, { text: 'done' }]);
    assert.equal(residentPid(), pid, 'the same resident served both agents');
    for (const file of ['src/auth/g1.ts', 'src/auth/c1.ts', 'src/auth/g2.ts']) assert.equal(recordsFor(file).length, 1, `${file}: ${JSON.stringify(trace())}`);
    const agents = new Set(trace().map((record) => JSON.stringify((record.metadata as Record<string, unknown> | undefined)?.agent ?? record.agent)));
    assert.ok(agents.size >= 1);
    const verify = builtGovernor(['trace', 'verify', '--workspace', ws], env);
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  });
});
