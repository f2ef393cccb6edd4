import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { droidDialect } from '../../src/core/agents/droid/droidDialect';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptedAnthropic, type ScriptStep } from '../support/scriptedAnthropic';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedDroid, runDroid, type DroidRun } from './droidDriver';

interface Played {
  run: DroidRun;
  model: ScriptedAnthropic;
}

/**
 * The real Factory Droid, offline (airgap mode, no Factory account), with a scripted Anthropic Messages model as its
 * custom model, governed through the hooks `governor hooks install --agent droid` writes into .factory/hooks.json:
 * what a user of Droid gets.
 */
describe('agents: the real Factory Droid governed through its hooks (the hook bridge)', function () {
  let droid: string;
  let temp: string;
  let ws: string;

  before(function () {
    this.timeout(600_000);
    droid = provisionedDroid();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('droid', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'droid', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], env: NodeJS.ProcessEnv = {}): Promise<Played> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runDroid({ binary: droid, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), ...env } });
      assert.equal(run.signal, null, `droid was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `droid stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const at = (rel: string) => join(ws, rel);
  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);
  const lastRecord = () => jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
  const execute = (command: string): ScriptStep => ({ tool: 'Execute', input: { command, summary: 'run it', riskLevel: 'low', riskLevelReason: 'the scripted task' } });

  it('knows every tool the binary offers the model: none would be refused as unknown; the intent handshake reaches the model', async () => {
    const { model } = await play([{ text: 'hello' }]);
    const sent = JSON.stringify(model.requests.find((r) => (r.body.tools?.length ?? 0) > 0) ?? {});
    assert.match(sent, /Active intent: `auth-refactor`/, 'SessionStart adds the intent to the prompt');
    const offered = (model.requests.find((r) => (r.body.tools?.length ?? 0) > 0)?.body.tools ?? []).map((tool) => (tool as { name: string }).name);
    assert.ok(offered.includes('Create') && offered.includes('Edit') && offered.includes('Execute'), offered.join(', '));
    const unknown = offered.filter((tool) => {
      const mapping = droidDialect.mapTool(tool, {}, { cwd: ws, workspace: ws });
      return mapping.kind === 'refused' && /does not know/.test(mapping.reason);
    });
    assert.deepEqual(unknown, [], `tools of Droid the dialect does not know: ${unknown.join(', ')}`);
  });

  it('an in-scope Create lands and is traced as factory-droid under the intent', async () => {
    const { model } = await play([{ tool: 'Create', input: { file_path: at('src/auth/token.ts'), content: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(at('src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'factory-droid');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an in-scope Edit (after Droid reads the file) lands and is traced as a change to that file', async () => {
    const { model } = await play([
      { tool: 'Read', input: { file_path: at('src/auth/login.ts') } },
      { tool: 'Edit', input: { file_path: at('src/auth/login.ts'), old_str: 'login() {}', new_str: 'login() { return true; }' } },
      { text: 'edited' },
    ]);
    assert.deepEqual(model.toolResults().map((result) => result.is_error), [false, false], JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(at('src/auth/login.ts'), 'utf8'), 'export function login() { return true; }\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/login.ts');
    assert.equal(record.metadata.agent, 'factory-droid');
  });

  it('an out-of-scope Create is refused: no file, the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    const { model } = await play([{ tool: 'Create', input: { file_path: at('src/billing/x.ts'), content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(existsSync(at('src/billing/x.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.ok(refusal, 'no refusal in the governance log');
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
    assert.deepEqual(refusal.agent, { name: 'factory-droid' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a shell redirect out of scope is refused before Execute runs it', async () => {
    const { model } = await play([execute('echo x > src/billing/y.ts'), { text: 'refused' }]);
    assert.equal(existsSync(at('src/billing/y.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it('a destructive command that needs a person is refused with who can approve it (Droid would let --auto run a hook "ask")', async () => {
    const { model } = await play([execute('rm -rf src/auth'), { text: 'not run' }]);
    assert.equal(existsSync(at('src/auth/login.ts')), true);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /Destructive command: rm -rf src\/auth.*approve it in VS Code/s);
  });

  it("a write to Droid's own hooks file is refused as a protected path", async () => {
    const before = readFileSync(at('.factory/hooks.json'), 'utf8');
    const { model } = await play([{ tool: 'Create', input: { file_path: at('.factory/hooks.json'), content: '{}\n' } }, { text: 'refused' }]);
    assert.equal(readFileSync(at('.factory/hooks.json'), 'utf8'), before);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[PROTECTED_PATH\] "\.factory\/hooks\.json" is protected/);
  });

  it("a subagent's out-of-scope Create is refused and its in-scope Create is traced: Droid runs the hooks inside its subagents", async () => {
    mkdirSync(at('.factory/droids'), { recursive: true });
    writeFileSync(at('.factory/droids/helper.md'), '---\nname: helper\ndescription: Writes files for the main agent\nmodel: inherit\n---\nYou write the files you are asked to write.\n');
    const { model } = await play([
      { tool: 'Task', input: { subagent_type: 'helper', description: 'Write two files', prompt: 'Write the files.', await: true } },
      { tool: 'Create', input: { file_path: at('src/billing/sub.ts'), content: 's\n' } },
      { tool: 'Create', input: { file_path: at('src/auth/sub.ts'), content: 'export const sub = 1;\n' } },
      { text: 'sub done' },
      { text: 'done' },
    ]);
    assert.equal(existsSync(at('src/billing/sub.ts')), false, 'the subagent did not write out of scope');
    assert.equal(readFileSync(at('src/auth/sub.ts'), 'utf8'), 'export const sub = 1;\n');
    const results = model.toolResults();
    assert.match(results.map((r) => r.text).join('\n'), /\[SCOPE_VIOLATION\] "src\/billing\/sub\.ts"/);
    assert.equal(results.find((r) => /SCOPE_VIOLATION/.test(r.text))?.is_error, true, JSON.stringify(results));
    assert.deepEqual(jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION')?.agent, { name: 'factory-droid' });
    const record = lastRecord();
    assert.equal(record?.files[0].path, 'src/auth/sub.ts');
    assert.equal(record?.metadata.agent, 'factory-droid');
    assert.equal(record?.metadata.intent_id, 'auth-refactor');
  });

  it('a node first on PATH that exits 1 with no output on PreToolUse: the out-of-scope Create and shell redirect are blocked with the reason, nothing lands', async () => {
    // Droid 0.225.2 runs the tool when a hook exits 1; the installed command blocks with exit 2 and a reason.
    const { model } = await play(
      [{ tool: 'Create', input: { file_path: at('src/billing/x.ts'), content: 'x\n' } }, execute('echo x > src/billing/y.ts'), { text: 'blocked' }],
      { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' },
    );
    assert.equal(existsSync(at('src/billing/x.ts')), false, 'the write did not land');
    assert.equal(existsSync(at('src/billing/y.ts')), false, 'the redirect did not run');
    const results = model.toolResults();
    assert.equal(results.length, 2, JSON.stringify(results));
    for (const result of results) {
      assert.equal(result.is_error, true, JSON.stringify(results));
      assert.match(result.text, /its hook process ended without an answer\. Check that node is on the PATH.*governor-hook exited with code 1/s);
    }
  });

  it('no hook launcher for this user (a teammate’s clone, Intent Governor not installed): an in-scope Create is blocked, saying what to install', async () => {
    const { model } = await play([{ tool: 'Create', input: { file_path: at('src/auth/blocked.ts'), content: 'x\n' } }, { text: 'blocked' }], { INTENT_GOVERNOR_HOME: join(temp, 'elsewhere') });
    assert.equal(existsSync(at('src/auth/blocked.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /its hook launcher is not installed for this user\. Install Intent Governor/);
  });

  it("governor doctor's canary finds Droid's installed door enforced", () => {
    const run = builtGovernor(['doctor', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.match(run.stdout, /^Factory Droid: enforced$/m, run.stdout + run.stderr);
    assert.match(run.stdout, /door: {4}command hook, \.factory\/hooks\.json/);
  });
});
