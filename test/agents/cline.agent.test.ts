import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedOpenAI, type ScriptStep, type ScriptedOpenAI } from '../support/scriptedOpenAI';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedCline, runCline, type ClineRun } from './clineDriver';

interface Played {
  run: ClineRun;
  model: ScriptedOpenAI;
}

/**
 * The real Cline CLI, offline, with a scripted OpenAI-compatible model, governed through the hook files
 * `governor hooks install --agent cline` writes into .clinerules/hooks/. A refusal is a `cancel`, which ends
 * Cline's task with the reason as its error (its hook files cannot skip just one tool): the task's output says
 * why, the model gets no further turn.
 */
describe('agents: the real Cline CLI governed through its hook files (the hook bridge)', function () {
  let cline: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(function () {
    this.timeout(600_000);
    cline = provisionedCline();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('cline'));
    mkdirSync(home, { recursive: true });
    const install = builtGovernor(['hooks', 'install', '--agent', 'cline', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stdout + install.stderr);
    assert.match(install.stdout, /\.clinerules\/hooks\/PreToolUse\.sh/);
  });

  // Cline's hub daemon may still be closing its databases under HOME when the run returns.
  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], options: { expectAllPlayed?: boolean; cwd?: string; model?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Played> => {
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runCline({
        binary: cline,
        cwd: options.cwd ?? ws,
        model: options.model,
        modelUrl: model.url,
        home,
        env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), ...options.env },
      });
      assert.equal(run.signal, null, `cline was killed: ${run.stderr}`);
      if (options.expectAllPlayed !== false) assert.equal(model.remaining(), 0, `cline stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  it("offers the tools the dialect maps (its built-in tool list in the first request)", async () => {
    const { model } = await play([{ text: 'nothing to do' }]);
    const names = model.toolNames();
    for (const tool of ['read_files', 'search_codebase', 'run_commands', 'fetch_web_content', 'editor', 'ask_question', 'spawn_agent']) assert.ok(names.includes(tool), `${tool} in ${names.join(', ')}`);
  });

  it('an in-scope editor create lands and is traced as cline under the intent, by the resident with no PostToolUse file (the first call waits for the resident it starts)', async () => {
    assert.equal(existsSync(join(ws, '.clinerules/hooks/PostToolUse.sh')), false, 'a post hook file would be a process per tool call');
    assert.match(readFileSync(join(ws, '.clinerules/hooks/PreToolUse.sh'), 'utf8'), /export INTENT_GOVERNOR_UNPOSTED='\*';/u);
    const { model } = await play([{ tool: 'editor', input: { path: join(ws, 'src/auth/token.ts'), new_text: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n', JSON.stringify(model.toolResults()));
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'cline');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal((record.metadata as { reconciled?: string }).reconciled, undefined, 'recorded as its post would have been');
  });

  it('an in-scope editor replace (old_text → new_text) lands and is traced', async () => {
    const { model } = await play([{ tool: 'editor', input: { path: 'src/auth/login.ts', old_text: 'return false;', new_text: 'return true;' } }, { text: 'edited' }]);
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() {\n  return true;\n}\n', JSON.stringify(model.toolResults()));
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.equal(record?.files[0].path, 'src/auth/login.ts');
    assert.equal(record?.metadata.agent, 'cline');
  });

  /** Cline 3.0.65 prints a cancelled task as aborted, without the hook's errorMessage (its log has it): the governance log has the reason. */
  const aborted = (run: ClineRun) => assert.ok(run.events.some((e) => e.type === 'run_result' && e.finishReason === 'aborted'), run.stdout);
  const logged = (code: string) => jsonl('governance_log.jsonl').filter((entry) => entry.code === code);

  it('an out-of-scope editor write is refused before it lands: the task stops, the governance log has SCOPE_VIOLATION', async () => {
    const { run } = await play([{ tool: 'editor', input: { path: join(ws, 'src/billing/x.ts'), new_text: 'x' } }, { text: 'never' }], { expectAllPlayed: false });
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the refused file was not created');
    aborted(run);
    const refusals = logged('SCOPE_VIOLATION');
    assert.deepEqual(refusals.map((entry) => entry.paths), [['src/billing/x.ts']]);
    assert.match(String(refusals[0].message), /"src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/, JSON.stringify(refusals));
    assert.deepEqual(refusals[0].agent, { name: 'cline' });
    // Cline records the hook's errorMessage as the reason its task stopped (ControlledStopError) in its log.
    assert.match(readFileSync(join(home, '.cline', 'data', 'logs', 'cline.log'), 'utf8'), /"errorName":"ControlledStopError","errorMessage":"\[SCOPE_VIOLATION\] \\"src\/billing\/x\.ts\\" is outside the owned scope/);
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a command redirecting out of scope is refused before the shell runs it', async () => {
    const { run } = await play([{ tool: 'run_commands', input: { commands: ['echo x > src/billing/y.ts'] } }, { text: 'never' }], { expectAllPlayed: false });
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    aborted(run);
    const refusals = logged('SCOPE_VIOLATION');
    assert.equal(refusals.length, 1, JSON.stringify(jsonl('governance_log.jsonl')));
    assert.match(String(refusals[0].message), /src\/billing\/y\.ts/);
  });

  it('a node first on PATH that exits 1 with no output on the tool call: the out-of-scope write is cancelled with the reason, nothing lands', async () => {
    // Cline runs the tool when a hook prints no JSON; the installed script prints Cline's cancel on every failure.
    const { run } = await play([{ tool: 'editor', input: { path: join(ws, 'src/billing/x.ts'), new_text: 'x' } }, { text: 'never' }], { expectAllPlayed: false, env: { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' } });
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the write did not land');
    aborted(run);
    assert.match(readFileSync(join(home, '.cline', 'data', 'logs', 'cline.log'), 'utf8'), /"errorName":"ControlledStopError","errorMessage":"Intent Governor blocked this call: its hook process ended without an answer\./);
  });

  it('with a GPT model Cline offers apply_patch instead of editor: an in-scope patch lands and is traced, an out-of-scope one is refused', async () => {
    const patch = (...lines: string[]) => ({ input: ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n') });
    const { model } = await play([{ tool: 'apply_patch', input: patch('*** Update File: src/auth/login.ts', '@@', ' export function login() {', '-  return false;', '+  return true;', ' }') }, { text: 'patched' }], { model: 'gpt-4o' });
    assert.ok(model.toolNames().includes('apply_patch') && !model.toolNames().includes('editor'), model.toolNames().join(', '));
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() {\n  return true;\n}\n', JSON.stringify(model.toolResults()));
    assert.equal((jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined)?.metadata.agent, 'cline');
    const { run } = await play([{ tool: 'apply_patch', input: patch('*** Add File: src/billing/x.ts', '+x') }, { text: 'never' }], { model: 'gpt-4o', expectAllPlayed: false });
    aborted(run);
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false);
    assert.deepEqual(logged('SCOPE_VIOLATION').map((entry) => entry.paths), [['src/billing/x.ts']]);
  });

  it('started in a subfolder, a relative path is judged where Cline resolves it (its working directory, not workspaceRoots)', async () => {
    const cwd = join(ws, 'src', 'auth');
    await play([{ tool: 'editor', input: { path: 'token.ts', new_text: 'export const token = 1;\n' } }, { text: 'written' }], { cwd });
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    assert.equal((jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined)?.files[0].path, 'src/auth/token.ts');
    const { run } = await play([{ tool: 'run_commands', input: { commands: ['echo x > ../billing/y.ts'] } }, { text: 'never' }], { expectAllPlayed: false, cwd });
    aborted(run);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    assert.match(String(logged('SCOPE_VIOLATION')[0]?.message), /src\/billing\/y\.ts/, JSON.stringify(jsonl('governance_log.jsonl')));
  });

  it("a protected path is refused: the intents file and Cline's own hook files", async () => {
    const intents = readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8');
    const first = await play([{ tool: 'editor', input: { path: '.orchestration/active_intents.yaml', old_text: 'auth-refactor', new_text: 'x' } }, { text: 'never' }], { expectAllPlayed: false });
    assert.equal(readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8'), intents);
    aborted(first.run);
    assert.equal(logged('PROTECTED_PATH').length, 1, JSON.stringify(jsonl('governance_log.jsonl')));
    const hook = readFileSync(join(ws, '.clinerules/hooks/PreToolUse.sh'), 'utf8');
    const second = await play([{ tool: 'run_commands', input: { commands: ['echo exit 0 > .clinerules/hooks/PreToolUse.sh'] } }, { text: 'never' }], { expectAllPlayed: false });
    assert.equal(readFileSync(join(ws, '.clinerules/hooks/PreToolUse.sh'), 'utf8'), hook);
    aborted(second.run);
    assert.equal(logged('PROTECTED_PATH').length, 2, JSON.stringify(jsonl('governance_log.jsonl')));
  });

  it('a tool the bridge does not let through (spawn_agent) is refused, and the refusal is audited', async () => {
    const { run } = await play([{ tool: 'spawn_agent', input: { systemPrompt: 'you write', task: 'write src/billing/z.ts' } }, { text: 'never' }], { expectAllPlayed: false });
    aborted(run);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'spawn_agent');
    assert.match(String(refusal?.message), /spawn_agent starts another agent/, JSON.stringify(jsonl('governance_log.jsonl')));
  });

  it('uninstall removes only its own hook files', () => {
    writeFileSync(join(ws, '.clinerules/hooks/PreToolUse'), '#!/bin/sh\necho {}\n');
    const un = builtGovernor(['hooks', 'uninstall', '--agent', 'cline', '--workspace', ws], { HOME: home });
    assert.equal(un.status, 0, un.stdout + un.stderr);
    assert.equal(existsSync(join(ws, '.clinerules/hooks/PreToolUse.sh')), false);
    assert.equal(existsSync(join(ws, '.clinerules/hooks/PostToolUse.sh')), false);
    assert.equal(readFileSync(join(ws, '.clinerules/hooks/PreToolUse'), 'utf8'), '#!/bin/sh\necho {}\n');
  });
});
