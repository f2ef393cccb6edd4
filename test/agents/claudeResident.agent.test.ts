import { strict as assert } from 'node:assert';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { ensureBuilt, provisionedClaude, repoRoot, runClaude, type ClaudeRun } from './claudeCodeDriver';
import { jsonLines } from '../support/childProcesses';

interface Played {
  run: ClaudeRun;
  model: ScriptedAnthropic;
}

/**
 * The real Claude Code with the resident governor: `governor hooks install --agent claude` (mcp_tool hooks,
 * matcher *, the governor as the project's local-scope MCP server), no intent from the environment: the model
 * does the handshake itself through mcp__intent-governor__select_active_intent.
 */
describe('agents: the real Claude Code governed by the resident governor (mcp_tool hooks)', function () {
  let claude: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(function () {
    this.timeout(600_000);
    claude = provisionedClaude();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('resident', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'claude', '--claude-hooks', 'mcp_tool', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[]): Promise<Played> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runClaude({
        binary: claude,
        cwd: ws,
        modelUrl: model.url,
        home,
        env: governorHomes(temp),
      });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `claude stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  const select: ScriptStep = { tool: 'mcp__intent-governor__select_active_intent', input: { intent_id: 'auth-refactor' } };

  it('no hook launcher for this user: the SessionStart command hook refuses with what to install, and the resident hooks still refuse an out-of-scope Write', async () => {
    // SessionStart and SessionEnd stay command hooks with the resident governor; their failure must say why, and open nothing.
    const model = await startScriptedAnthropic([select, { tool: 'Write', input: { file_path: join(ws, 'src/billing/x.ts'), content: 'x\n' } }, { text: 'refused' }]);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home, env: { ...governorHomes(temp), INTENT_GOVERNOR_HOME: join(temp, 'elsewhere') }, hookEvents: true });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      const events = jsonLines(run.stdout);
      const sessionStart = events.find((e) => e.subtype === 'hook_response' && e.hook_event === 'SessionStart');
      assert.match(String(sessionStart?.output), /^Intent Governor blocked this call: its hook launcher is not installed for this user\. Install Intent Governor.*is missing\)/s, JSON.stringify(sessionStart));
      assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false);
      assert.match(model.toolResults()[1]?.text ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts"/, JSON.stringify(model.toolResults()));
    } finally {
      await model.close();
    }
  });

  it("the model's own handshake binds the intent: its in-scope Write lands and is traced as claude-code under it", async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model } = await play([select, { tool: 'Write', input: { file_path: file, content: 'export const token = 1;\n' } }, { text: 'written' }]);
    const [selected, written] = model.toolResults();
    assert.equal(selected?.is_error, false, JSON.stringify(model.toolResults()));
    assert.match(selected.text, /Active intent: `auth-refactor`/);
    assert.equal(written?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(file, 'utf8'), 'export const token = 1;\n');
    const record = jsonl('agent_trace.jsonl').find((r) => (r.files as { path: string }[] | undefined)?.[0]?.path === 'src/auth/token.ts') as { metadata: Record<string, unknown> } | undefined;
    assert.equal(record?.metadata.agent, 'claude-code');
    assert.equal(record?.metadata.intent_id, 'auth-refactor');
  });

  it('before the handshake a native write is refused, and the model is told to call mcp__intent-governor__select_active_intent', async () => {
    const { model } = await play([{ tool: 'Write', input: { file_path: join(ws, 'src/auth/early.ts'), content: 'x\n' } }, { text: 'refused' }]);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(result.text, /NO_ACTIVE_INTENT/);
    assert.match(result.text, /mcp__intent-governor__select_active_intent/);
    assert.equal(existsSync(join(ws, 'src/auth/early.ts')), false);
  });

  it('out-of-scope Write, a Bash redirect, a traversal and a protected path are refused with the code the model reads', async () => {
    const { model } = await play([
      select,
      { tool: 'Write', input: { file_path: join(ws, 'src/billing/x.ts'), content: 'x\n' } },
      { tool: 'Bash', input: { command: 'echo x > src/billing/y.ts', description: 'write' } },
      { tool: 'Write', input: { file_path: `${ws}/src/auth/../../../outside.ts`, content: 'x\n' } },
      { tool: 'Write', input: { file_path: join(ws, '.orchestration/active_intents.yaml'), content: 'intents: []\n' } },
      { text: 'refused' },
    ]);
    const [, scope, bash, traversal, guarded] = model.toolResults();
    for (const r of [scope, bash, traversal, guarded]) assert.equal(r?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(scope.text, /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts"/);
    assert.match(bash.text, /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
    assert.match(traversal.text, /\[PATH_OUTSIDE_WORKSPACE\]/);
    assert.match(guarded.text, /\[PROTECTED_PATH\]/);
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    assert.equal(existsSync(join(temp, 'outside.ts')), false);
    assert.match(readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8'), /auth-refactor/);
  });

  it("another MCP server's tool is refused: every tool but the read-only ones reaches the governor", async () => {
    // A second server for this project (a plain governed server, under another name): its write_file is not ours.
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects: Record<string, { mcpServers: Record<string, unknown> }> };
    config.projects[ws].mcpServers.other = { type: 'stdio', command: 'node', args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws], env: {} };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(config));
    const { model } = await play([select, { tool: 'mcp__other__list_intents', input: {} }, { text: 'refused' }]);
    const [, other] = model.toolResults();
    assert.equal(other?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(other.text, /another MCP server/);
    assert.ok(jsonl('governance_log.jsonl').some((g) => g.tool_name === 'mcp__other__list_intents'), 'the refusal is audited');
  });

  it("a subagent works under the session's intent: its in-scope write lands, its out-of-scope write is refused", async () => {
    const { model } = await play([
      select,
      { tool: 'Agent', input: { description: 'write files', prompt: 'Write the two files.', subagent_type: 'general-purpose' } },
      { tool: 'Write', input: { file_path: join(ws, 'src/auth/from-subagent.ts'), content: 'x\n' } },
      { tool: 'Write', input: { file_path: join(ws, 'src/billing/from-subagent.ts'), content: 'x\n' } },
      { text: 'subagent done' },
      { text: 'done' },
    ]);
    assert.equal(existsSync(join(ws, 'src/auth/from-subagent.ts')), true, JSON.stringify(model.toolResults()));
    assert.equal(existsSync(join(ws, 'src/billing/from-subagent.ts')), false);
    const refused = model.toolResults().find((r) => r.text.includes('src/billing/from-subagent.ts'));
    assert.match(refused?.text ?? '', /\[SCOPE_VIOLATION\]/);
  });

  it("a person's save between Claude's Read and its Edit is a STALE_FILE: the edit is judged against what the model read", async () => {
    const file = join(ws, 'src/auth/login.ts');
    const { model } = await play([
      select,
      { tool: 'Read', input: { file_path: file } },
      {
        tool: 'Edit',
        input: { file_path: file, old_string: 'login()', new_string: 'login(user: string)' },
        before: () => writeFileSync(file, 'export function login() {}\n// saved by a person\n'),
      },
      { text: 'stale' },
    ]);
    const [, read, edit] = model.toolResults();
    assert.equal(read?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(edit?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(edit.text, /\[STALE_FILE\]/);
    assert.equal(readFileSync(file, 'utf8'), 'export function login() {}\n// saved by a person\n', "the person's save stands");
  });

  /** Claude Code's run with every hook event it started, in order (`PreToolUse:Write`, …). */
  const playWithHookEvents = async (script: ScriptStep[], onSpawn?: (child: ChildProcess) => void): Promise<Played & { hooks: string[] }> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home, env: governorHomes(temp), hookEvents: true, onSpawn });
      const hooks = jsonLines(run.stdout)
        .filter((e) => e.subtype === 'hook_started')
        .map((e) => String(e.hook_name));
      return { run, model, hooks };
    } finally {
      await model.close();
    }
  };

  it("a read-only tool the matcher skips is not a hole: it never reaches the governor, while a tool it does not know and another MCP server's tool still do and are refused", async () => {
    const settings = JSON.parse(readFileSync(join(ws, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { matcher: string }[]; PostToolUse: { matcher: string }[] } };
    assert.match(settings.hooks.PreToolUse[0].matcher, /^\^\(\?!\(\?:.*\|ToolSearch\|.*\)\$\|mcp__intent-governor__\)$/, 'ToolSearch is skipped');
    assert.equal(settings.hooks.PostToolUse[0].matcher, 'Read');
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects: Record<string, { mcpServers: Record<string, unknown> }> };
    config.projects[ws].mcpServers.other = { type: 'stdio', command: 'node', args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--workspace', ws], env: {} };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(config));
    const notebook = join(ws, 'src/auth/notes.ipynb');
    writeFileSync(notebook, JSON.stringify({ cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: ['x = 1'], outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
    const { model, hooks } = await playWithHookEvents([
      select,
      { tool: 'ToolSearch', input: { query: 'select:NotebookEdit' } },
      { tool: 'Read', input: { file_path: notebook } },
      { tool: 'NotebookEdit', input: { notebook_path: notebook, cell_id: 'c1', new_source: 'x = 2' } },
      { tool: 'mcp__other__list_intents', input: {} },
      { text: 'refused' },
    ]);
    assert.equal(model.remaining(), 0, JSON.stringify(model.toolResults()));
    assert.ok(!hooks.includes('PreToolUse:ToolSearch'), `ToolSearch costs no round trip: ${hooks.join(' ')}`);
    assert.ok(!hooks.some((h) => h.startsWith('PreToolUse:mcp__intent-governor__')), 'our own MCP tools are judged by the server itself');
    for (const h of ['PreToolUse:Read', 'PostToolUse:Read', 'PreToolUse:NotebookEdit', 'PreToolUse:mcp__other__list_intents']) assert.ok(hooks.includes(h), `${h} reaches the governor: ${hooks.join(' ')}`);
    const [, search, read, edit, other] = model.toolResults();
    assert.equal(search?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(read?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(edit?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(edit.text, /does not know Claude Code's tool 'NotebookEdit'/);
    assert.match(readFileSync(notebook, 'utf8'), /x = 1/, 'the notebook is untouched');
    assert.equal(other?.is_error, true);
    assert.match(other.text, /another MCP server/);
    const refusals = jsonl('governance_log.jsonl').map((g) => g.tool_name);
    assert.ok(refusals.includes('NotebookEdit') && refusals.includes('mcp__other__list_intents'), `both refusals are audited: ${JSON.stringify(refusals)}`);
  });

  it('a Write and an Edit cost Claude Code one round trip each: no PostToolUse is sent for them, and the governor records both', async () => {
    const file = join(ws, 'src/auth/token.ts');
    const { model, hooks } = await playWithHookEvents([
      select,
      { tool: 'Write', input: { file_path: file, content: 'export const token = 1;\n' } },
      { tool: 'Edit', input: { file_path: file, old_string: 'token = 1', new_string: 'token = 2' } },
      { text: 'done' },
    ]);
    assert.deepEqual(model.toolResults().map((r) => r.is_error), [false, false, false], JSON.stringify(model.toolResults()));
    assert.deepEqual(hooks.filter((h) => /ToolUse:(Write|Edit)$/.test(h)), ['PreToolUse:Write', 'PreToolUse:Edit'], hooks.join(' '));
    const records = jsonl('agent_trace.jsonl').filter((r) => (r.files as { path: string }[] | undefined)?.[0]?.path === 'src/auth/token.ts') as { metadata: Record<string, unknown> }[];
    assert.deepEqual(records.map((r) => [r.metadata.tool_name, r.metadata.reconciled]), [['write_file', undefined], ['edit_file', undefined]], 'recorded as their posts would have, in order');
    assert.equal(readFileSync(file, 'utf8'), 'export const token = 2;\n');
  });

  it('a killed agent’s write is still recorded: the resident governor stopped once it allowed the Write (before Claude Code wrote), then both killed: `governor check` records it from its pending entry, once, and leaves nothing pending', async () => {
    const file = join(ws, 'src/auth/killed.ts');
    const pidFile = join(temp, 'resident.pid');
    let claudeProcess: ChildProcess | undefined;
    const resident = () => childrenOf(claudeProcess?.pid as number).filter((child) => /\bmcp\b.*--agent claude/.test(commandLineOf(child)));
    // Claude Code runs a PreToolUse's hooks side by side: this one, from its own settings, waits for the governor's
    // pending entry (written before its answer), gives the answer a moment to leave, and stops the governor. Nothing
    // but the entry then knows of the Write Claude Code makes.
    const stopGovernor = `for i in $(seq 1 300); do ls "${ws}"/.orchestration/pending/native.*.json >/dev/null 2>&1 && break; sleep 0.01; done; sleep 0.2; kill -STOP "$(cat "${pidFile}")"`;
    writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: stopGovernor }] }] } }));
    const killBoth = () => {
      for (const pid of resident()) process.kill(pid, 'SIGKILL');
      process.kill(claudeProcess?.pid as number, 'SIGKILL');
    };
    const { run, model } = await playWithHookEvents(
      [
        select,
        { tool: 'Write', input: { file_path: file, content: 'export const killed = 1;\n' }, before: () => writeFileSync(pidFile, String(resident()[0])) },
        { text: 'never read', before: killBoth },
      ],
      (child) => (claudeProcess = child),
    );
    assert.equal(run.signal, 'SIGKILL');
    assert.equal(model.toolResults()[1]?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(file, 'utf8'), 'export const killed = 1;\n', 'Claude wrote it before it was killed');
    assert.deepEqual(jsonl('agent_trace.jsonl'), [], 'the stopped governor recorded nothing');
    const check = builtGovernor(['check', '--workspace', ws], governorHomes(temp));
    assert.ok(check.status === 0 || check.status === 1, check.stderr);
    const records = jsonl('agent_trace.jsonl').filter((r) => (r.files as { path: string }[] | undefined)?.[0]?.path === 'src/auth/killed.ts');
    assert.equal(records.length, 1, `${check.stdout}\n${JSON.stringify(records)}`);
    // Recorded from the pending entry the PreToolUse left: no post, and no governor, was there to record it.
    assert.equal((records[0].metadata as Record<string, unknown>).reconciled, 'the governor that allowed it stopped before recording it');
    const pending = existsSync(join(ws, '.orchestration/pending')) ? readdirSync(join(ws, '.orchestration/pending')).filter((n) => n.startsWith('native.') && !n.endsWith('.done')) : [];
    assert.deepEqual(pending, []);
  });

  it('a killed agent’s write is recorded by the resident governor itself when only Claude Code dies', async () => {
    const file = join(ws, 'src/auth/orphan.ts');
    let claudeProcess: ChildProcess | undefined;
    const { run } = await playWithHookEvents(
      [select, { tool: 'Write', input: { file_path: file, content: 'export const orphan = 1;\n' } }, { text: 'never read', before: () => void process.kill(claudeProcess?.pid as number, 'SIGKILL') }],
      (child) => (claudeProcess = child),
    );
    assert.equal(run.signal, 'SIGKILL');
    for (let i = 0; i < 100 && !jsonl('agent_trace.jsonl').length; i++) await new Promise((r) => setTimeout(r, 50));
    const records = jsonl('agent_trace.jsonl').filter((r) => (r.files as { path: string }[] | undefined)?.[0]?.path === 'src/auth/orphan.ts');
    assert.equal(records.length, 1, JSON.stringify(records));
    assert.equal((records[0].metadata as Record<string, unknown>).reconciled, undefined);
  });

  it("a hook of the user's for a skipped tool: added after install, the session is refused until the hooks are installed again; then Claude Code sends that tool and the hook runs", async () => {
    const hooksFile = join(governorHomes(temp).INTENT_GOVERNOR_HOME, 'hooks.json');
    writeFileSync(hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'ToolSearch', hooks: [{ type: 'command', command: "echo 'no searching today' >&2; exit 2" }] }] } }));
    const stale = await startScriptedAnthropic([{ tool: 'Write', input: { file_path: join(ws, 'src/auth/x.ts'), content: 'x\n' } }, { text: 'refused' }]);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: stale.url, home, env: governorHomes(temp) });
      assert.match(run.stdout + run.stderr, /your hooks changed since `governor hooks install --agent claude`.*PreToolUse of ToolSearch/s, 'the prompt is refused, saying why');
      assert.equal(existsSync(join(ws, 'src/auth/x.ts')), false);
    } finally {
      await stale.close();
    }
    const again = builtGovernor(['hooks', 'install', '--agent', 'claude', '--claude-hooks', 'mcp_tool', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(again.status, 0, again.stderr);
    const { model, hooks } = await playWithHookEvents([select, { tool: 'ToolSearch', input: { query: 'select:NotebookEdit' } }, { text: 'refused' }]);
    assert.ok(hooks.includes('PreToolUse:ToolSearch'), hooks.join(' '));
    const [, search] = model.toolResults();
    assert.equal(search?.is_error, true, JSON.stringify(model.toolResults()));
    assert.match(search.text, /no searching today/);
  });

  it('the resident governor killed mid-session blocks every later tool call', async () => {
    const kill = () => {
      execFileSync('pkill', ['-f', `mcp --workspace ${ws} --agent claude`]);
    };
    const { model } = await play([
      select,
      { tool: 'Write', input: { file_path: join(ws, 'src/auth/before.ts'), content: 'x\n' } },
      { tool: 'Write', input: { file_path: join(ws, 'src/auth/after.ts'), content: 'x\n' }, before: kill },
      { text: 'blocked' },
    ]);
    const [, before, after] = model.toolResults();
    assert.equal(before?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(after?.is_error, true, JSON.stringify(model.toolResults()));
    assert.equal(existsSync(join(ws, 'src/auth/after.ts')), false);
  });
});

/** The processes `pid` started (Linux: /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  const tasks = join('/proc', String(pid), 'task');
  return readdirSync(tasks).flatMap((tid) =>
    readFileSync(join(tasks, tid, 'children'), 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number),
  );
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(join('/proc', String(pid), 'cmdline'), 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
