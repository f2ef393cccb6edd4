import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { qwenDialect } from '../../src/core/agents/qwen/qwenDialect';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedOpenAI, type ScriptedOpenAI, type ScriptStep } from '../support/scriptedOpenAI';
import { ensureBuilt, repoRoot } from './claudeCodeDriver';
import { provisionedQwen, runQwen, type QwenRun } from './qwenDriver';

interface Played {
  run: QwenRun;
  model: ScriptedOpenAI;
}

/**
 * The real Qwen Code, offline, with a scripted OpenAI-compatible model (Chat Completions), governed through the
 * hooks `governor hooks install --agent qwen` writes into .qwen/settings.json: what a user of Qwen Code gets.
 */
describe('agents: the real Qwen Code governed through its hooks (the hook bridge)', function () {
  let qwen: string;
  let temp: string;
  let ws: string;

  before(function () {
    this.timeout(600_000);
    qwen = provisionedQwen();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('qwen', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'qwen', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], settings?: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Played> => {
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runQwen({ binary: qwen, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), settings, env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), ...env } });
      assert.equal(run.signal, null, `qwen was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `qwen stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const at = (rel: string) => join(ws, rel);
  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);
  const lastRecord = () => jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;

  it('knows every tool the binary offers the model: none would be refused as unknown; the intent handshake reaches the model', async () => {
    const { model } = await play([{ text: 'hello' }]);
    const sent = JSON.stringify(model.requests.find((r) => (r.body.tools?.length ?? 0) > 0)?.body.messages ?? []);
    assert.match(sent, /# Active intent: `auth-refactor`/, 'SessionStart and UserPromptSubmit add the intent to the prompt');
    const offered = model.toolNames();
    assert.ok(offered.includes('write_file') && offered.includes('edit') && offered.includes('run_shell_command'), offered.join(', '));
    const unknown = offered.filter((tool) => {
      const mapping = qwenDialect.mapTool(tool, {}, { cwd: ws, workspace: ws });
      return mapping.kind === 'refused' && /does not know/.test(mapping.reason);
    });
    assert.deepEqual(unknown, [], `tools of Qwen Code the dialect does not know: ${unknown.join(', ')}`);
  });

  it('an in-scope write_file lands and is traced as qwen-code under the intent', async () => {
    const { run } = await play([{ tool: 'write_file', input: { file_path: at('src/auth/token.ts'), content: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.equal(run.toolResults[0]?.is_error, false, JSON.stringify(run.toolResults));
    assert.equal(readFileSync(at('src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'qwen-code');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an in-scope edit (after Qwen reads the file) lands and is traced as a change to that file', async () => {
    const { run } = await play([
      { tool: 'read_file', input: { file_path: at('src/auth/login.ts') } },
      { tool: 'edit', input: { file_path: at('src/auth/login.ts'), old_string: 'login() {}', new_string: 'login() { return true; }' } },
      { text: 'edited' },
    ]);
    assert.deepEqual(run.toolResults.map((result) => result.is_error), [false, false], JSON.stringify(run.toolResults));
    assert.equal(readFileSync(at('src/auth/login.ts'), 'utf8'), 'export function login() { return true; }\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/login.ts');
    assert.equal(record.metadata.agent, 'qwen-code');
  });

  it('an out-of-scope write_file is refused: no file, the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    const { run, model } = await play([{ tool: 'write_file', input: { file_path: at('src/billing/x.ts'), content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(existsSync(at('src/billing/x.ts')), false);
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.ok(refusal, 'no refusal in the governance log');
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
    assert.deepEqual(refusal.agent, { name: 'qwen-code' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a shell redirect out of scope is refused before the shell runs it (its text judged: Qwen Code runs no rewritten command)', async () => {
    const { run, model } = await play([{ tool: 'run_shell_command', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } }, { text: 'refused' }]);
    assert.equal(existsSync(at('src/billing/y.ts')), false);
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it('a destructive command that needs a person is refused headless, saying why, and Qwen Code goes on', async () => {
    const { run, model } = await play([{ tool: 'run_shell_command', input: { command: 'rm -rf src/auth', description: 'remove' } }, { text: 'not run' }]);
    assert.equal(existsSync(at('src/auth/login.ts')), true);
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /Destructive command: rm -rf src\/auth/);
  });

  it("a write to Qwen Code's own settings (its hooks) is refused as a protected path", async () => {
    const hooks = () => (JSON.parse(readFileSync(at('.qwen/settings.json'), 'utf8')) as { hooks?: unknown }).hooks;
    const before = hooks();
    const { run, model } = await play([{ tool: 'write_file', input: { file_path: at('.qwen/settings.json'), content: '{}\n' } }, { text: 'refused' }]);
    // Qwen Code itself adds "$version" to the file when it starts; our hooks stay as installed.
    assert.deepEqual(hooks(), before);
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /\[PROTECTED_PATH\] "\.qwen\/settings\.json" is protected/);
  });

  it("a tool the bridge cannot judge (another MCP server's) is refused and audited", async () => {
    const other = { command: process.execPath, args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws] };
    const { run, model } = await play([{ tool: 'mcp__other__list_intents', input: {} }, { text: 'refused' }], { mcpServers: { other } });
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /'mcp__other__list_intents' is a tool of another MCP server/);
    assert.ok(jsonl('governance_log.jsonl').some((g) => g.tool_name === 'mcp__other__list_intents'), 'the refusal is audited');
  });

  it("a subagent's out-of-scope write is refused too: Qwen Code runs the hooks inside its subagents", async () => {
    const { run, model } = await play([
      { tool: 'agent', input: { description: 'write a file', prompt: 'Write the file.', subagent_type: 'general-purpose', run_in_background: false } },
      { tool: 'write_file', input: { file_path: at('src/billing/sub.ts'), content: 's\n' } },
      { text: 'sub done' },
      { text: 'done' },
    ]);
    assert.equal(existsSync(at('src/billing/sub.ts')), false, 'the subagent did not write');
    const inner = run.toolResults.find((result) => result.parent_tool_use_id !== null) ?? run.toolResults.find((result) => /SCOPE_VIOLATION/.test(result.content));
    assert.equal(inner?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults().map((r) => r.text).join('\n'), /\[SCOPE_VIOLATION\] "src\/billing\/sub\.ts"/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.deepEqual(refusal?.agent, { name: 'qwen-code' });
  });

  it('a node first on PATH that exits 1 with no output on PreToolUse: the out-of-scope write_file and shell redirect are blocked with the reason, nothing lands', async () => {
    // Qwen Code 0.24.4 runs the tool when a hook exits 1, or 2 with nothing on stderr; the installed command blocks with exit 2 and a reason.
    const { run, model } = await play(
      [
        { tool: 'write_file', input: { file_path: at('src/billing/x.ts'), content: 'x\n' } },
        { tool: 'run_shell_command', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } },
        { text: 'blocked' },
      ],
      undefined,
      { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' },
    );
    assert.equal(existsSync(at('src/billing/x.ts')), false, 'the write did not land');
    assert.equal(existsSync(at('src/billing/y.ts')), false, 'the redirect did not run');
    assert.deepEqual(run.toolResults.map((r) => r.is_error), [true, true], JSON.stringify(run.toolResults));
    for (const result of model.toolResults()) assert.match(result.text, /its hook process ended without an answer\. Check that node is on the PATH.*governor-hook exited with code 1/s);
  });

  it('no hook launcher for this user (a teammate’s clone, Intent Governor not installed): the prompt never reaches the model, nothing runs', async () => {
    const model = await startScriptedOpenAI([{ tool: 'write_file', input: { file_path: at('src/auth/blocked.ts'), content: 'x\n' } }, { text: 'blocked' }]);
    try {
      const run = await runQwen({ binary: qwen, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp), INTENT_GOVERNOR_HOME: join(temp, 'elsewhere') } });
      assert.equal(run.signal, null, `qwen was killed: ${run.stderr}`);
      // UserPromptSubmit is refused (exit 2 with the reason): Qwen Code 0.24.4 ends the turn before any model request, and headless it prints no reason.
      assert.equal(model.requests.length, 0, 'the prompt reached the model');
      assert.equal(existsSync(at('src/auth/blocked.ts')), false);
      assert.deepEqual(run.toolResults, []);
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

  it("a project hook that rewrites write_file's path is refused: Qwen Code would run the original path, which was not judged", async () => {
    // Moves every write under src/billing/ to src/auth/, where the intent may write.
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.file_path=t.file_path.replace("src/billing/","src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    projectHooks({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: mover }] }] });
    const { run, model } = await play([{ tool: 'write_file', input: { file_path: at('src/billing/moved.ts'), content: 'export const moved = 1;\n' } }, { text: 'refused' }]);
    assert.equal(run.toolResults[0]?.is_error, true, JSON.stringify(run.toolResults));
    assert.match(model.toolResults()[0]?.text ?? '', /Qwen Code runs a call as the model sent it whatever a hook returns/);
    assert.equal(existsSync(at('src/billing/moved.ts')), false, 'the original did not land');
    assert.equal(existsSync(at('src/auth/moved.ts')), false, 'nor the rewrite');
  });

  it("governor doctor's canary finds Qwen Code's installed door enforced", () => {
    const run = builtGovernor(['doctor', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.match(run.stdout, /^Qwen Code: enforced$/m, run.stdout + run.stderr);
    assert.match(run.stdout, /door: {4}command hook, \.qwen\/settings\.json/);
  });
});
