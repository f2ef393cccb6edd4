import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { ensureBuilt, provisionedClaude, runClaude, type ClaudeRun } from './claudeCodeDriver';

interface Played {
  run: ClaudeRun;
  model: ScriptedAnthropic;
}

/**
 * The real Claude Code binary, offline, with a scripted model, governed through the hook config
 * `governor hooks install --agent claude` writes: what a user of Claude Code gets.
 */
describe('agents: the real Claude Code governed through command hooks (the hook bridge)', function () {
  let claude: string;
  let temp: string;
  let ws: string;

  before(function () {
    this.timeout(600_000);
    claude = provisionedClaude();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('claude', { login: 'export function login() {}\n', folders: ['src/other'] }));
    // The command-hook path (Claude Code before 2.1.118, or --claude-hooks command); the resident path has its own suite.
    const install = builtGovernor(['hooks', 'install', '--agent', 'claude', '--claude-hooks', 'command', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], cwd = ws, env: NodeJS.ProcessEnv = {}): Promise<Played> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runClaude({
        binary: claude,
        cwd,
        modelUrl: model.url,
        home: join(temp, 'home'),
        env: {
          INTENT_GOVERNOR_INTENT: 'auth-refactor',
          ...governorHomes(temp),
          ...env,
        },
      });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `claude stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  it('an in-scope Write lands and is traced as claude-code under the intent', async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model } = await play([{ tool: 'Write', input: { file_path: file, content: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.equal(readFileSync(file, 'utf8'), 'export const token = 1;\n');
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    const record = jsonl('agent_trace.jsonl').at(-1) as { files: { path: string }[]; metadata: Record<string, unknown> } | undefined;
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'claude-code');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an in-scope Edit (after Claude reads the file) lands and is traced as a change to that file', async () => {
    const file = join(ws, 'src/auth/login.ts');
    const { model } = await play([
      { tool: 'Read', input: { file_path: file } },
      { tool: 'Edit', input: { file_path: file, old_string: 'login() {}', new_string: 'login() { return true; }' } },
      { text: 'edited' },
    ]);
    assert.deepEqual(model.toolResults().map((result) => result.is_error), [false, false], JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(file, 'utf8'), 'export function login() { return true; }\n');
    const record = jsonl('agent_trace.jsonl').at(-1) as { files: { path: string }[]; metadata: Record<string, unknown> } | undefined;
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/login.ts');
    assert.equal(record.metadata.agent, 'claude-code');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an out-of-scope Write is refused: no file, the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    const file = join(ws, 'src/billing/x.ts');
    const { model } = await play([{ tool: 'Write', input: { file_path: file, content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(existsSync(file), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.ok(refusal, 'no refusal in the governance log');
    assert.equal(refusal.decision, 'deny');
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
    assert.deepEqual(refusal.agent, { name: 'claude-code' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a node first on PATH that exits 1 with no output on PreToolUse: the out-of-scope Write and Bash redirect are blocked with the reason, nothing lands', async () => {
    const file = join(ws, 'src/billing/x.ts');
    const { model } = await play(
      [
        { tool: 'Write', input: { file_path: file, content: 'x\n' } },
        { tool: 'Bash', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } },
        { text: 'refused' },
      ],
      ws,
      { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' },
    );
    assert.equal(existsSync(file), false, 'the Write did not land');
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false, 'the redirect did not run');
    const results = model.toolResults();
    assert.equal(results.length, 2, JSON.stringify(results));
    for (const result of results) {
      assert.equal(result.is_error, true, JSON.stringify(results));
      assert.match(result.text, /Intent Governor blocked this call: its hook process ended without an answer\..*governor-hook exited with code 1/s);
    }
  });

  it('no hook launcher for this user (a teammate’s clone, Intent Governor not installed): Claude Code refuses the prompt, saying what to install', async () => {
    const model = await startScriptedAnthropic([{ tool: 'Write', input: { file_path: join(ws, 'src/auth/x.ts'), content: 'x\n' } }, { text: 'written' }]);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), INTENT_GOVERNOR_HOME: join(temp, 'elsewhere') } });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      assert.equal(existsSync(join(ws, 'src/auth/x.ts')), false);
      assert.equal(model.toolResults().length, 0, 'no tool ran');
      assert.match(run.stdout + run.stderr, /its hook launcher is not installed for this user\. Install Intent Governor/);
    } finally {
      await model.close();
    }
  });

  it('a relative path is judged where Claude resolves it (its cwd), not at the workspace root', async () => {
    const { model } = await play([{ tool: 'Write', input: { file_path: 'src/auth/x.ts', content: 'x\n' } }, { text: 'refused' }], join(ws, 'src', 'other'));
    assert.equal(existsSync(join(ws, 'src/auth/x.ts')), false);
    assert.equal(existsSync(join(ws, 'src/other/src/auth/x.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/other\/src\/auth\/x\.ts"/);
    assert.deepEqual(jsonl('governance_log.jsonl').map((entry) => entry.paths), [['src/other/src/auth/x.ts']]);
  });

  it('a Write to /dev/zero is refused with a reason the model sees, and nothing hangs', async () => {
    // Claude Code checks this one itself before any hook runs; the test holds the outcome whoever answers.
    const { model, run } = await play([{ tool: 'Write', input: { file_path: '/dev/zero', content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(run.code, 0, run.stderr);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\/dev\/zero/);
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a Read of a FIFO in the workspace is refused by the governor with a reason the model sees, and nothing hangs', async () => {
    // Claude's Write/Edit/Read turn away /dev/zero and a Write to a FIFO themselves; a Read of a FIFO reaches the hook.
    const fifo = join(ws, 'src/auth/pipe.ts');
    const made = spawnSync('mkfifo', [fifo]);
    assert.equal(made.status, 0, String(made.stderr));
    const { model, run } = await play([{ tool: 'Read', input: { file_path: fifo } }, { text: 'refused' }]);
    assert.equal(run.code, 0, run.stderr);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[INVALID_INPUT\] The path ".*src\/auth\/pipe\.ts" is not a regular file or directory/);
    assert.equal(jsonl('governance_log.jsonl').at(-1)?.code, 'INVALID_INPUT');
  });

  it('a Bash redirect out of scope is refused before the shell runs it', async () => {
    const { model } = await play([{ tool: 'Bash', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it('a native tool the bridge does not know (NotebookEdit) is refused, even in scope', async () => {
    const notebook = join(ws, 'src/auth/n.ipynb');
    const original = JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    writeFileSync(notebook, original);
    const { model } = await play([
      { tool: 'Read', input: { file_path: notebook } },
      { tool: 'NotebookEdit', input: { notebook_path: notebook, new_source: 'print(1)', cell_type: 'code', edit_mode: 'insert' } },
      { text: 'refused' },
    ]);
    assert.equal(readFileSync(notebook, 'utf8'), original);
    const [read, edit] = model.toolResults();
    assert.equal(read?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(edit?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(edit.text, /\[INVALID_INPUT\] .*does not know Claude Code's tool 'NotebookEdit', so it is refused/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'NotebookEdit');
    assert.equal(refusal?.code, 'INVALID_INPUT', 'the refusal is audited');
  });

  /** The project's hooks (.orchestration/hooks.json, Claude Code's shape), trusted the way a person does it: `governor hooks trust --yes`. */
  const projectHooks = (hooks: Record<string, unknown>) => {
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    const trust = builtGovernor(['hooks', 'trust', '--yes', '--workspace', ws], governorHomes(temp));
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
  };

  it("a project hook that rewrites a Write's path: Claude runs the rewrite (updatedInput), judged by scope, and it is traced", async () => {
    // Moves every write under src/billing/ to src/auth/, where the intent may write.
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.file_path=t.file_path.replace("/src/billing/","/src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    projectHooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: mover }] }] });
    const { model } = await play([{ tool: 'Write', input: { file_path: join(ws, 'src/billing/moved.ts'), content: 'export const moved = 1;\n' } }, { text: 'written' }]);
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/moved.ts'), 'utf8'), 'export const moved = 1;\n', 'Claude wrote the rewritten path');
    assert.equal(existsSync(join(ws, 'src/billing/moved.ts')), false, 'and never the original');
    const record = jsonl('agent_trace.jsonl').at(-1) as { files?: { path: string }[] } | undefined;
    assert.equal(record?.files?.[0]?.path, 'src/auth/moved.ts');
  });

  it('a project hook that rewrites an in-scope Write to an out-of-scope path is refused: the guards judge the rewrite', async () => {
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.file_path=t.file_path.replace("/src/auth/","/src/billing/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:t}}))})'`;
    projectHooks({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: mover }] }] });
    const { model } = await play([{ tool: 'Write', input: { file_path: join(ws, 'src/auth/stay.ts'), content: 'x\n' } }, { text: 'refused' }]);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/stay\.ts"/);
    assert.equal(existsSync(join(ws, 'src/billing/stay.ts')), false);
    assert.equal(existsSync(join(ws, 'src/auth/stay.ts')), false);
  });

  it("a project hook's Claude-format deny denies, and the model reads the hook's reason", async () => {
    projectHooks({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"frozen for the release"}}'` }] }] });
    const { model } = await play([{ tool: 'Write', input: { file_path: join(ws, 'src/auth/frozen.ts'), content: 'x\n' } }, { text: 'refused' }]);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /frozen for the release/);
    assert.equal(existsSync(join(ws, 'src/auth/frozen.ts')), false);
  });
});
