import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiDialect } from '../../src/core/agents/gemini/geminiDialect';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedGemini, type ScriptedGemini, type ScriptStep } from '../support/scriptedGemini';
import { ensureBuilt, repoRoot } from './claudeCodeDriver';
import { provisionedGemini, runGemini, type GeminiRun } from './geminiDriver';

interface Played {
  run: GeminiRun;
  model: ScriptedGemini;
}

/**
 * The real Gemini CLI, offline, with a scripted Gemini API, governed through the hooks
 * `governor hooks install --agent gemini` writes into .gemini/settings.json: what a user of Gemini CLI gets.
 */
describe('agents: the real Gemini CLI governed through its hooks (the hook bridge)', function () {
  let gemini: string;
  let temp: string;
  let ws: string;

  before(function () {
    this.timeout(600_000);
    gemini = provisionedGemini();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('gemini', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'gemini', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], settings?: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Played> => {
    const model = await startScriptedGemini(script);
    try {
      const run = await runGemini({
        binary: gemini,
        cwd: ws,
        modelUrl: model.url,
        home: join(temp, 'home'),
        settings,
        env: {
          INTENT_GOVERNOR_INTENT: 'auth-refactor',
          ...governorHomes(temp),
          ...env,
        },
      });
      assert.equal(run.signal, null, `gemini was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `gemini stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);
  const lastRecord = () => jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;

  it('knows every tool the binary offers the model: none would be refused as unknown; the intent handshake reaches the model', async () => {
    const { model } = await play([{ text: 'hello' }]);
    const sent = JSON.stringify(model.requests.find((r) => r.path.endsWith(':streamGenerateContent'))?.body.contents ?? []);
    assert.match(sent, /# Active intent: `auth-refactor`/, 'SessionStart and BeforeAgent add the intent to the prompt');
    const offered = model.toolNames();
    assert.ok(offered.includes('write_file') && offered.includes('run_shell_command'), offered.join(', '));
    const unknown = offered.filter((tool) => {
      const mapping = geminiDialect.mapTool(tool, {}, { cwd: ws, workspace: ws });
      return mapping.kind === 'refused' && /does not know/.test(mapping.reason);
    });
    assert.deepEqual(unknown, [], `tools of Gemini CLI the dialect does not know: ${unknown.join(', ')}`);
  });

  it('an in-scope write_file lands and is traced as gemini-cli under the intent', async () => {
    const { model } = await play([{ tool: 'write_file', input: { file_path: 'src/auth/token.ts', content: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'gemini-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an in-scope replace (after Gemini reads the file) lands and is traced as a change to that file', async () => {
    const { model } = await play([
      { tool: 'read_file', input: { file_path: 'src/auth/login.ts' } },
      { tool: 'replace', input: { file_path: join(ws, 'src/auth/login.ts'), instruction: 'Make login return true.', old_string: 'login() {}', new_string: 'login() { return true; }' } },
      { text: 'edited' },
    ]);
    assert.deepEqual(model.toolResults().map((result) => result.is_error), [false, false], JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() { return true; }\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/login.ts');
    assert.equal(record.metadata.agent, 'gemini-cli');
  });

  it('an "@"-prefixed path is judged and traced where Gemini CLI writes it (the "@" dropped)', async () => {
    const { model } = await play([{ tool: 'write_file', input: { file_path: '@src/auth/at.ts', content: 'export const at = 1;\n' } }, { text: 'written' }]);
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/at.ts'), 'utf8'), 'export const at = 1;\n');
    assert.equal(lastRecord()?.files[0].path, 'src/auth/at.ts');
  });

  it('an out-of-scope write_file is refused: no file, the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    const { model } = await play([{ tool: 'write_file', input: { file_path: 'src/billing/x.ts', content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.ok(refusal, 'no refusal in the governance log');
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
    assert.deepEqual(refusal.agent, { name: 'gemini-cli' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a shell redirect out of scope is refused before the shell runs it', async () => {
    const { model } = await play([{ tool: 'run_shell_command', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it('a destructive command that needs a person is refused with who can approve it, and Gemini CLI goes on (a hook "ask" would hang it)', async () => {
    const { model } = await play([{ tool: 'run_shell_command', input: { command: 'rm -rf src/auth', description: 'remove' } }, { text: 'not run' }]);
    assert.equal(existsSync(join(ws, 'src/auth/login.ts')), true);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /Intent Governor asks a human: Destructive command: rm -rf src\/auth.*approve it in VS Code/);
  });

  it("a write to Gemini CLI's own settings (its hooks) is refused as a protected path", async () => {
    const before = readFileSync(join(ws, '.gemini/settings.json'), 'utf8');
    const { model } = await play([{ tool: 'write_file', input: { file_path: '.gemini/settings.json', content: '{}\n' } }, { text: 'refused' }]);
    assert.equal(readFileSync(join(ws, '.gemini/settings.json'), 'utf8'), before);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /\[PROTECTED_PATH\] "\.gemini\/settings\.json" is protected/);
  });

  it("a tool the bridge cannot judge (another MCP server's) is refused and audited", async () => {
    // A second MCP server for Gemini CLI (a plain governed server, under another name): its tools are not ours.
    const other = { command: process.execPath, args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws] };
    const { model } = await play([{ tool: 'mcp_other_list_intents', input: {} }, { text: 'refused' }], { mcpServers: { other } });
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /'mcp_other_list_intents' is a tool of another MCP server/);
    assert.ok(jsonl('governance_log.jsonl').some((g) => g.tool_name === 'mcp_other_list_intents'), 'the refusal is audited');
  });

  it('a node first on PATH that exits 1 with no output on BeforeTool: the out-of-scope write_file and shell redirect are blocked with the reason, nothing lands', async () => {
    // Gemini CLI 0.61 runs the tool when a hook exits 1, or 2 with nothing on stderr; the installed command blocks with exit 2 and a reason.
    const { model } = await play(
      [
        { tool: 'write_file', input: { file_path: 'src/billing/x.ts', content: 'x\n' } },
        { tool: 'run_shell_command', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } },
        { text: 'blocked' },
      ],
      undefined,
      { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' },
    );
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the write did not land');
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false, 'the redirect did not run');
    const results = model.toolResults();
    assert.equal(results.length, 2, JSON.stringify(results));
    for (const result of results) {
      assert.equal(result.is_error, true, JSON.stringify(results));
      assert.match(result.text, /its hook process ended without an answer\. Check that node is on the PATH.*governor-hook exited with code 1/s);
    }
  });

  it('no hook launcher for this user (a teammate’s clone, Intent Governor not installed): Gemini CLI stops before the model runs, saying what to install', async () => {
    const model = await startScriptedGemini([{ tool: 'write_file', input: { file_path: 'src/auth/blocked.ts', content: 'x\n' } }, { text: 'blocked' }]);
    try {
      const run = await runGemini({ binary: gemini, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), INTENT_GOVERNOR_HOME: join(temp, 'elsewhere') } });
      assert.equal(run.signal, null, `gemini was killed: ${run.stderr}`);
      // BeforeAgent is refused (exit 2 with the reason): the prompt never reaches the model, no tool runs.
      assert.equal(model.toolResults().length, 0);
      assert.equal(existsSync(join(ws, 'src/auth/blocked.ts')), false);
      assert.match(JSON.stringify(run.result?.warnings ?? run.stderr), /Agent execution blocked: Intent Governor blocked this call: its hook launcher is not installed for this user\. Install Intent Governor/);
    } finally {
      await model.close();
    }
  });

  /** The project's hooks (.orchestration/hooks.json, Claude Code's shape), trusted the way a person does it: `governor hooks trust --yes`. */
  const projectHooks = (hooks: Record<string, unknown>) => {
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    const trust = builtGovernor(['hooks', 'trust', '--yes', '--workspace', ws], governorHomes(temp));
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
  };

  it("a project hook that rewrites write_file's path: Gemini CLI runs the rewrite (tool_input), judged by scope, and it is traced", async () => {
    // Moves every write under src/billing/ to src/auth/, where the intent may write.
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.file_path=t.file_path.replace("src/billing/","src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    projectHooks({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: mover }] }] });
    const { model } = await play([{ tool: 'write_file', input: { file_path: 'src/billing/moved.ts', content: 'export const moved = 1;\n' } }, { text: 'written' }]);
    assert.equal(model.toolResults()[0]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/moved.ts'), 'utf8'), 'export const moved = 1;\n', 'Gemini CLI wrote the rewritten path');
    assert.equal(existsSync(join(ws, 'src/billing/moved.ts')), false, 'and never the original');
    assert.equal(lastRecord()?.files[0].path, 'src/auth/moved.ts');
  });
});
