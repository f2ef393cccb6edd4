import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finished } from '../support/childProcesses';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, pathWithSilentPreToolNode, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { ensureBuilt, repoRoot } from './claudeCodeDriver';
import { COPILOT_GPT_MODEL, provisionedCopilot, runCopilot } from './copilotDriver';

interface Played {
  run: Finished;
  model: ScriptedAnthropic;
}

/** The tools Copilot CLI 1.0.102 offers a Claude model in prompt mode (its first request), all in the dialect's table. */
const OFFERED_TO_CLAUDE = ['bash', 'create', 'edit', 'fetch_copilot_cli_documentation', 'glob', 'grep', 'list_agents', 'list_bash', 'read_agent', 'read_bash', 'session_store_sql', 'skill', 'sql', 'stop_bash', 'task', 'view', 'write_agent'];

/**
 * The real GitHub Copilot CLI binary, offline (BYOK against a scripted Anthropic server), governed through the hook
 * file `governor hooks install --agent copilot` writes: what a user of Copilot CLI gets.
 */
describe('agents: the real GitHub Copilot CLI governed through its hooks (the hook bridge)', function () {
  let copilot: string;
  let temp: string;
  let ws: string;

  before(function () {
    this.timeout(600_000);
    copilot = provisionedCopilot();
    ensureBuilt();
  });

  const governor = (args: string[]) =>
    builtGovernor(args, { HOME: join(temp, 'home'), ...governorHomes(temp) });

  const install = (agents: string[]) => {
    const run = governor(['hooks', 'install', ...agents.flatMap((a) => ['--agent', a]), '--claude-hooks', 'command', '--workspace', ws]);
    assert.equal(run.status, 0, run.stderr);
  };

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('copilot', { login: 'export function login() {}\n', folders: ['src/other'] }));
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], options: { cwd?: string; model?: string; args?: string[]; installed?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Played> => {
    install(options.installed ?? ['copilot']);
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runCopilot({
        binary: copilot,
        cwd: options.cwd ?? ws,
        trusted: ws,
        modelUrl: model.url,
        home: join(temp, 'home'),
        model: options.model,
        args: options.args,
        env: {
          INTENT_GOVERNOR_INTENT: 'auth-refactor',
          ...governorHomes(temp),
          ...options.env,
        },
      });
      assert.equal(run.signal, null, `copilot was killed: ${run.stderr}`);
      assert.equal(run.code, 0, `copilot failed: ${run.stdout}\n${run.stderr}`);
      assert.equal(model.remaining(), 0, `copilot stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);
  const lastRecord = () => jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
  /** What the model read back for each tool call, in order. Copilot CLI reports a hook's refusal as a plain result. */
  const results = (model: ScriptedAnthropic) => model.toolResults().map((result) => result.text);

  it('offers the model exactly the tools the dialect unit tests map (a new built-in tool fails this test)', async () => {
    const { model } = await play([{ text: 'nothing to do' }]);
    const offered = (model.requests[0]?.body.tools as { name: string }[]).map((tool) => tool.name).sort();
    assert.deepEqual(offered, OFFERED_TO_CLAUDE);
  });

  it('an in-scope create lands and is traced as copilot-cli under the intent', async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model } = await play([{ tool: 'create', input: { path: file, file_text: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.match(results(model)[0], /^Created file /, JSON.stringify(results(model)));
    assert.match(JSON.stringify(model.requests[0]?.body.messages), /# Active intent: `auth-refactor`/, 'sessionStart handed the model the intent handshake');
    assert.equal(readFileSync(file, 'utf8'), 'export const token = 1;\n');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'copilot-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('an in-scope edit (after Copilot views the folder and the file) lands and is traced as a change to that file', async () => {
    const file = join(ws, 'src/auth/login.ts');
    const { model } = await play([
      { tool: 'view', input: { path: ws } },
      { tool: 'view', input: { path: file } },
      { tool: 'edit', input: { path: file, old_str: 'login() {}', new_str: 'login() { return true; }' } },
      { text: 'edited' },
    ]);
    const [listing, read, edited] = results(model);
    assert.match(listing, /src/, 'a view of the workspace folder lists it');
    assert.match(read, /export function login/);
    assert.match(edited, /updated with changes/, JSON.stringify(results(model)));
    assert.equal(readFileSync(file, 'utf8'), 'export function login() { return true; }\n');
    const record = lastRecord();
    assert.equal(record?.files[0].path, 'src/auth/login.ts');
    assert.equal(record?.metadata.agent, 'copilot-cli');
  });

  it('an out-of-scope create is refused: no file, the model reads SCOPE_VIOLATION, the governance log has it', async () => {
    const file = join(ws, 'src/billing/x.ts');
    const { model } = await play([{ tool: 'create', input: { path: file, file_text: 'x\n' } }, { text: 'refused' }]);
    assert.equal(existsSync(file), false);
    assert.match(results(model)[0], /^Denied by preToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.ok(refusal, 'no refusal in the governance log');
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
    assert.deepEqual(refusal.agent, { name: 'copilot-cli' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a node first on PATH that exits 1 with no output on preToolUse: the out-of-scope create and bash redirect are denied with the reason, nothing lands', async () => {
    const file = join(ws, 'src/billing/x.ts');
    const { model } = await play(
      [
        { tool: 'create', input: { path: file, file_text: 'x\n' } },
        { tool: 'bash', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } },
        { text: 'refused' },
      ],
      { env: { PATH: pathWithSilentPreToolNode(temp), INTENT_GOVERNOR_RESIDENT: 'off' } },
    );
    assert.equal(existsSync(file), false, 'the create did not land');
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false, 'the redirect did not run');
    for (const result of results(model)) assert.match(result, /^Denied by preToolUse hook: Intent Governor blocked this call: its hook process ended without an answer\./, results(model).join('\n'));
  });

  it('a relative path is judged where Copilot CLI resolves it (its working directory), not at the workspace root', async () => {
    const { model } = await play([{ tool: 'create', input: { path: 'src/auth/x.ts', file_text: 'x\n' } }, { text: 'refused' }], { cwd: join(ws, 'src', 'other') });
    assert.equal(existsSync(join(ws, 'src/auth/x.ts')), false);
    assert.equal(existsSync(join(ws, 'src/other/src/auth/x.ts')), false);
    assert.match(results(model)[0], /\[SCOPE_VIOLATION\] "src\/other\/src\/auth\/x\.ts"/);
  });

  it('a bash redirect out of scope is refused before the shell runs it', async () => {
    const { model } = await play([{ tool: 'bash', input: { command: 'echo x > src/billing/y.ts', description: 'write a file' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    assert.match(results(model)[0], /^Denied by preToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it("a write to Copilot CLI's hooks or repository settings is refused as a protected path", async () => {
    const hooksFile = join(ws, '.github/hooks/off.json');
    const settings = join(ws, '.github/copilot/settings.local.json');
    mkdirSync(join(ws, '.github/copilot'), { recursive: true });
    const { model } = await play([
      { tool: 'create', input: { path: hooksFile, file_text: '{"version":1,"hooks":{}}\n' } },
      { tool: 'create', input: { path: settings, file_text: '{"disableAllHooks":true}\n' } },
      { text: 'refused' },
    ]);
    assert.equal(existsSync(hooksFile), false);
    assert.equal(existsSync(settings), false);
    const [hooks, disable] = results(model);
    assert.match(hooks, /\[PROTECTED_PATH\] "\.github\/hooks\/off\.json" is protected/);
    assert.match(disable, /\[PROTECTED_PATH\] "\.github\/copilot\/settings\.local\.json" is protected/);
  });

  it("another MCP server's tool no plan names is refused with where to allow it, and audited", async () => {
    // A second MCP server (a plain governed server under another name): its tools are not ours to judge.
    const other = { mcpServers: { other: { type: 'local', command: process.execPath, args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws], tools: ['*'] } } };
    const { model } = await play([{ tool: 'other-list_intents', input: {} }, { text: 'refused' }], { args: ['--additional-mcp-config', JSON.stringify(other)] });
    assert.match(results(model)[0], /^Denied by preToolUse hook: .*'other-list_intents' is a tool of another MCP server \('other'\) that no plan allows.*mcp_tools: \{ "other\/list_intents": read \}/);
    assert.ok(jsonl('governance_log.jsonl').some((entry) => entry.tool_name === 'other-list_intents'), 'the refusal is audited');
  });

  it("another MCP server's tool the plan allows as read runs and is in the governance log with its class and rule; one it does not list is refused with where to allow it", async () => {
    const other = { mcpServers: { other: { type: 'local', command: process.execPath, args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws], tools: ['*'] } } };
    const plan = join(ws, '.orchestration', 'active_intents.yaml');
    writeFileSync(plan, `mcp_tools:\n  "other/list_*": read\n${readFileSync(plan, 'utf8')}`);
    const { model } = await play([{ tool: 'other-list_intents', input: {} }, { tool: 'other-read_file', input: { path: 'src/auth/login.ts' } }, { text: 'done' }], { args: ['--additional-mcp-config', JSON.stringify(other)] });
    const [listed, read] = results(model);
    assert.doesNotMatch(listed, /^Denied/, JSON.stringify(results(model)));
    assert.match(listed, /Refactor authentication/, `the allowed tool ran and listed the plan's intents: ${JSON.stringify(results(model))}`);
    assert.match(read, /^Denied by preToolUse hook: .*'other-read_file' is a tool of another MCP server \('other'\) that no plan allows.*mcp_tools: \{ "other\/read_file": read \}/);
    const log = jsonl('governance_log.jsonl');
    const allowed = log.find((entry) => entry.tool_name === 'other-list_intents');
    assert.deepEqual([allowed?.decision, allowed?.code], ['allow', 'MCP_TOOL_BY_POLICY'], JSON.stringify(log));
    assert.match(String(allowed?.message), /class read; .* by mcp_tools 'other\/list_\*': read of the top level of /);
    assert.equal(log.find((entry) => entry.tool_name === 'other-read_file')?.decision, 'deny');
  });

  it("a subagent's create out of scope is refused too (its calls come through the same hooks)", async () => {
    const { model } = await play([
      { tool: 'task', input: { description: 'make a file', prompt: 'Create the file.', agent_type: 'general-purpose', name: 'maker' } },
      { tool: 'create', input: { path: join(ws, 'src/billing/sub.ts'), file_text: 'x\n' } },
      { text: 'the subagent is done' },
      { text: 'done' },
    ]);
    assert.equal(existsSync(join(ws, 'src/billing/sub.ts')), false);
    assert.ok(results(model).some((text) => /\[SCOPE_VIOLATION\] "src\/billing\/sub\.ts"/.test(text)), JSON.stringify(results(model)));
  });

  it('a GPT model edits through apply_patch: an in-scope patch lands and is traced, one reaching out of scope is refused whole', async () => {
    const { model } = await play(
      [
        { tool: 'apply_patch', input: { input: '*** Begin Patch\n*** Add File: src/auth/p.ts\n+export const p = 1;\n*** Update File: src/auth/login.ts\n@@\n-export function login() {}\n+export function login() { return 2; }\n*** End Patch\n' } },
        { tool: 'apply_patch', input: { input: '*** Begin Patch\n*** Add File: src/auth/q.ts\n+q\n*** Add File: src/billing/q.ts\n+q\n*** End Patch\n' } },
        { text: 'patched' },
      ],
      { model: COPILOT_GPT_MODEL },
    );
    const [landed, refused] = results(model);
    assert.match(landed, /Added 1 file\(s\)/, JSON.stringify(results(model)));
    assert.equal(readFileSync(join(ws, 'src/auth/p.ts'), 'utf8'), 'export const p = 1;\n');
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() { return 2; }\n');
    assert.deepEqual(jsonl('agent_trace.jsonl').flatMap((r) => (r as TraceRecord).files.map((f) => f.path)).sort(), ['src/auth/login.ts', 'src/auth/p.ts']);
    assert.match(refused, /^Denied by preToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/q\.ts"/);
    assert.equal(existsSync(join(ws, 'src/auth/q.ts')), false, 'no part of a refused patch lands');
  });

  it("with VS Code's and Claude Code's hooks installed too (Copilot CLI runs those files as well), an in-scope create lands and is traced once, as copilot-cli", async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model } = await play(
      [
        { tool: 'create', input: { path: file, file_text: 'export const token = 1;\n' } },
        { tool: 'create', input: { path: join(ws, 'src/billing/x.ts'), file_text: 'x\n' } },
        { text: 'done' },
      ],
      { installed: ['vscode', 'claude', 'copilot'] },
    );
    const [landed, refused] = results(model);
    assert.match(landed, /^Created file /, JSON.stringify(results(model)));
    assert.match(refused, /^Denied by preToolUse hook: \[SCOPE_VIOLATION\] "src\/billing\/x\.ts"/);
    const records = jsonl('agent_trace.jsonl') as TraceRecord[];
    assert.deepEqual(records.map((r) => [r.files[0].path, r.metadata.agent]), [['src/auth/token.ts', 'copilot-cli']]);
    assert.deepEqual(jsonl('governance_log.jsonl').map((entry) => entry.agent), [{ name: 'copilot-cli' }], 'one refusal, by the copilot entry');
  });

  it("with only VS Code's and Claude Code's hooks installed, Copilot CLI's calls are refused with how to govern them", async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model } = await play([{ tool: 'create', input: { path: file, file_text: 'x\n' } }, { text: 'refused' }], { installed: ['vscode', 'claude'] });
    assert.equal(existsSync(file), false);
    assert.match(results(model)[0], /^Denied by preToolUse hook: .*GitHub Copilot CLI.*governor hooks install --agent copilot/);
  });

  /** The project's hooks (.orchestration/hooks.json, Claude Code's shape), trusted the way a person does it. */
  const projectHooks = (hooks: Record<string, unknown>) => {
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    const trust = governor(['hooks', 'trust', '--yes', '--workspace', ws]);
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
  };

  it("a project hook that rewrites a create's path: Copilot CLI runs the rewrite (modifiedArgs), judged by scope, and it is traced", async () => {
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.path=t.path.replace("/src/billing/","/src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    projectHooks({ PreToolUse: [{ matcher: 'create', hooks: [{ type: 'command', command: mover }] }] });
    const { model } = await play([{ tool: 'create', input: { path: join(ws, 'src/billing/moved.ts'), file_text: 'export const moved = 1;\n' } }, { text: 'written' }]);
    assert.match(results(model)[0], /^Created file .*src\/auth\/moved\.ts/, JSON.stringify(results(model)));
    assert.equal(readFileSync(join(ws, 'src/auth/moved.ts'), 'utf8'), 'export const moved = 1;\n');
    assert.equal(existsSync(join(ws, 'src/billing/moved.ts')), false, 'and never the original');
    assert.equal(lastRecord()?.files[0]?.path, 'src/auth/moved.ts');
  });
});
