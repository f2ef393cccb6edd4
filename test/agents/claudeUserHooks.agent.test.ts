import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { ensureBuilt, provisionedClaude, runClaude, type ClaudeRun } from './claudeCodeDriver';
import { CLAUDE_HOOK_EVENTS } from '../../src/core/userHooks/hookEvents';

interface Played {
  run: ClaudeRun;
  model: ScriptedAnthropic;
  /** The tool results the model read after the intent's handshake (the resident door's first call). */
  results: { tool_use_id: string; is_error: boolean; text: string }[];
}

/** Claude Code's two doors: what a plain install picks for this version (the resident governor), and the command hooks of older versions. */
const DOORS = [
  { name: 'the door a plain install picks (resident governor, mcp_tool hooks)', args: [] as string[], handshake: true },
  { name: 'command hooks (--claude-hooks command)', args: ['--claude-hooks', 'command'], handshake: false },
];

/**
 * A hooks file written from Claude Code's hooks reference (test/fixtures/hooks/claude-docs-settings.json): every
 * event it documents, all five hook types (command, http, prompt, agent, mcp_tool), every output field. Only its
 * PreToolUse command hook decides anything in these tests (it refuses writes to src/auth/forbidden.ts); the rest
 * must load and stay out of the way.
 */
const DOCS_FIXTURE = join(__dirname, '..', 'fixtures', 'hooks', 'claude-docs-settings.json');
const documentationHooks = (): Record<string, unknown[]> => (JSON.parse(readFileSync(DOCS_FIXTURE, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks;

/** A stdio MCP server named `github` with two tools; every tools/call it receives is appended to `log`. */
const githubServer = (log: string) => `const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const tool = (name) => ({ name, description: name, inputSchema: { type: 'object', properties: { number: { type: 'number' }, title: { type: 'string' } } } });
rl.on('line', (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'github', version: '1' } } });
  if (msg.method === 'tools/list') return send({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('get_issue'), tool('create_issue')] } });
  if (msg.method === 'tools/call') {
    require('node:fs').appendFileSync(${JSON.stringify(log)}, msg.params.name + '\\n');
    return send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'issue 7: the login page is slow' }] } });
  }
  send({ jsonrpc: '2.0', id: msg.id, result: {} });
});
`;

/**
 * The real Claude Code, offline with a scripted model, installed the way a user does it (`governor hooks install
 * --agent claude`, whatever door that picks for this version), with hooks written from Claude Code's documentation.
 */
for (const door of DOORS) describe(`agents: the real Claude Code through ${door.name}: a user's hooks file from Claude Code's documentation, updatedToolOutput and foreign MCP tools by policy`, function () {
  let claude: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(function () {
    this.timeout(600_000);
    claude = provisionedClaude();
    ensureBuilt();
  });

  const install = () => {
    const installed = builtGovernor(['hooks', 'install', '--agent', 'claude', ...door.args, '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(installed.status, 0, installed.stdout + installed.stderr);
  };

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('claude-user-hooks', { login: 'export function login() {}\n' }));
    install();
  });

  // The resident governor Claude Code started may still be closing its files when the test ends.
  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  /** The project's hooks, trusted as a person does it (`governor hooks trust --yes`), then installed again so Claude Code routes what they need. */
  const projectHooks = (hooks: Record<string, unknown>) => {
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    const trust = builtGovernor(['hooks', 'trust', '--yes', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
    install();
  };

  // The intent is bound by the model's own handshake at the resident door, by the environment at the command door.
  const select: ScriptStep = { tool: 'mcp__intent-governor__select_active_intent', input: { intent_id: 'auth-refactor' } };

  const play = async (script: ScriptStep[]): Promise<Played> => {
    const model = await startScriptedAnthropic(door.handshake ? [select, ...script] : script);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home, env: { ...(door.handshake ? {} : { INTENT_GOVERNOR_INTENT: 'auth-refactor' }), ...governorHomes(temp) } });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `claude stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      const results = model.toolResults();
      if (door.handshake) assert.match(results[0]?.text ?? '', /Active intent: `auth-refactor`/, JSON.stringify(results));
      return { run, model, results: results.slice(door.handshake ? 1 : 0) };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  /** The documentation file's deny and an ordinary Write, played: the forbidden one refused with its reason and absent, the other landed. */
  const playForbiddenAndOrdinary = async (): Promise<Played> => {
    const forbidden = join(ws, 'src/auth/forbidden.ts');
    const ordinary = join(ws, 'src/auth/session.ts');
    const played = await play([{ tool: 'Write', input: { file_path: forbidden, content: 'export const KEY = 1;\n' } }, { tool: 'Write', input: { file_path: ordinary, content: 'export const TTL = 60;\n' } }, { text: 'done' }]);
    const [refused, written] = played.results;
    assert.equal(refused?.is_error, true, JSON.stringify(played.results));
    assert.match(refused.text, /src\/auth\/forbidden\.ts is off limits/);
    assert.equal(existsSync(forbidden), false, 'the forbidden Write did not land');
    assert.equal(written?.is_error, false, JSON.stringify(played.results));
    assert.equal(readFileSync(ordinary, 'utf8'), 'export const TTL = 60;\n');
    return played;
  };

  it("a hooks file from Claude Code's documentation (all its events, all five hook types, every output field) loads without a problem, and it holds: the model reads its SessionStart and UserPromptSubmit context, the PreToolUse deny keeps the forbidden Write from landing and the model reads the reason, an ordinary Write lands", async () => {
    const hooks = documentationHooks();
    assert.equal(Object.keys(hooks).length, CLAUDE_HOOK_EVENTS.length);
    projectHooks(hooks);
    const list = builtGovernor(['hooks', 'list', '--json', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(list.status, 0, list.stdout + list.stderr);
    const listing = JSON.parse(list.stdout) as { hooks: { event: string; type?: string }[]; problems: unknown[]; warnings: string[]; notes: string[] };
    assert.deepEqual(listing.problems, []);
    assert.deepEqual(listing.warnings, []);
    // The agent hooks run as prompt hooks here; the observation event's mcp_tool hook is left to Claude Code: both said.
    assert.ok(listing.notes.some((n) => n.includes('runs as a prompt hook here: no tools')), listing.notes.join('\n'));
    assert.ok(listing.notes.some((n) => n.includes('mcp_tool hooks run only in Claude Code')), listing.notes.join('\n'));
    for (const event of CLAUDE_HOOK_EVENTS) assert.ok(listing.hooks.some((hook) => hook.event === event), `no hook listed for ${event}: ${list.stdout}`);

    const { model } = await playForbiddenAndOrdinary();
    // The file's SessionStart and UserPromptSubmit hooks hold too: their additionalContext reaches the model.
    const sent = JSON.stringify(model.requests.map((request) => request.body));
    assert.ok(sent.includes('src/auth/forbidden.ts holds the release keys'), "SessionStart's additionalContext reached the model");
    assert.ok(sent.includes('keep writes inside src/auth'), "UserPromptSubmit's additionalContext reached the model");
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'Write' && entry.decision === 'deny');
    assert.equal(refusal?.code, 'HOOK_BLOCKED', 'the refusal is audited');
  });

  it("the same file as the project's .claude/settings.json, which Claude Code runs itself: it loads in Claude Code too, the deny holds and the ordinary Write lands", async () => {
    mkdirSync(join(ws, '.claude'), { recursive: true });
    writeFileSync(join(ws, '.claude', 'settings.json'), readFileSync(DOCS_FIXTURE, 'utf8'));
    const list = builtGovernor(['hooks', 'list', '--json', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    const listing = JSON.parse(list.stdout) as { problems: unknown[]; warnings: string[] };
    assert.deepEqual([listing.problems, listing.warnings], [[], []], list.stdout);
    await playForbiddenAndOrdinary();
  });

  it("an agent hook on PreToolUse in the governor's file runs as a prompt hook; Claude Code's door has no language model, so its onFailure decides: the Write is refused saying why, nothing lands", async () => {
    const hooks = documentationHooks();
    hooks.PreToolUse = [...hooks.PreToolUse, { matcher: 'Write', hooks: [{ type: 'agent', prompt: 'Check the write. $ARGUMENTS' }] }];
    projectHooks(hooks);
    const list = builtGovernor(['hooks', 'list', '--json', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(list.status, 0, list.stdout + list.stderr);
    const listing = JSON.parse(list.stdout) as { hooks: { id: string; type: string }[]; problems: unknown[] };
    assert.deepEqual(listing.problems, []);
    assert.equal(listing.hooks.find((hook) => hook.id.endsWith('PreToolUse[6].hooks[0]'))?.type, 'agent', list.stdout);
    const file = join(ws, 'src/auth/checked.ts');
    const { results } = await play([{ tool: 'Write', input: { file_path: file, content: 'x\n' } }, { text: 'refused' }]);
    const [written] = results;
    assert.equal(written?.is_error, true, JSON.stringify(results));
    assert.match(written.text, /agent hook \(run here as a prompt hook\).*needs a language model/s);
    assert.equal(existsSync(file), false, 'the Write did not land');
  });

  it("a PostToolUse hook's updatedToolOutput redacts what the model reads back from Read: the next request carries the replaced text, never the secret", async () => {
    const secret = 'API_KEY=sk-live-0123456789abcdef';
    writeFileSync(join(ws, 'src/auth/config.ts'), `export const url = 'https://example.test';\n// ${secret}\n`);
    // Claude Code checks the replacement against Read's own output shape, so the hook edits the tool_response it got.
    const redact = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const r=JSON.parse(s).tool_response;const out=JSON.parse(JSON.stringify(r).replace(/API_KEY=[^\\\\"]*/g,"API_KEY=[redacted by hook]"));console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PostToolUse",updatedToolOutput:out}}))})'`;
    projectHooks({ PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: redact }] }] });
    const { model, results } = await play([{ tool: 'Read', input: { file_path: join(ws, 'src/auth/config.ts') } }, { text: 'read' }]);
    const [read] = results;
    assert.equal(read?.is_error, false, JSON.stringify(results));
    assert.match(read.text, /API_KEY=\[redacted by hook\]/, read.text);
    assert.match(read.text, /example\.test/, 'the rest of the file is still there');
    const sent = JSON.stringify(model.requests.map((request) => request.body));
    assert.equal(sent.includes('sk-live-0123456789abcdef'), false, 'no request to the model carries the secret');
  });

  /**
   * Registers the \`github\` server for this project in Claude Code's ~/.claude.json (beside the governor's own, when
   * the install put it there) and gives auth-refactor the plan's \`mcp_tools\` lines; returns the server's call log.
   */
  const githubForClaude = (mcpTools: string): string => {
    const calls = join(temp, 'github-calls.log');
    const server = join(temp, 'github-mcp.cjs');
    writeFileSync(server, githubServer(calls));
    mkdirSync(home, { recursive: true });
    const configFile = join(home, '.claude.json');
    const config = (existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {}) as { projects?: Record<string, { mcpServers?: Record<string, unknown> }> };
    config.projects ??= {};
    config.projects[ws] ??= {};
    config.projects[ws].mcpServers = { ...(config.projects[ws].mcpServers ?? {}), github: { type: 'stdio', command: process.execPath, args: [server], env: {} } };
    writeFileSync(configFile, JSON.stringify(config));
    const plan = join(ws, '.orchestration', 'active_intents.yaml');
    writeFileSync(plan, readFileSync(plan, 'utf8').replace('    constraints:\n', `    mcp_tools:\n${mcpTools}    constraints:\n`));
    return calls;
  };

  it("a foreign MCP tool the intent's mcp_tools allows as read runs and is recorded (MCP_TOOL_BY_POLICY, its class and rule); one it does not list is refused with where to allow it and never reaches its server", async () => {
    const calls = githubForClaude('      "github/get_issue": read\n');

    const { results } = await play([
      { tool: 'mcp__github__get_issue', input: { number: 7 } },
      { tool: 'mcp__github__create_issue', input: { title: 'from the agent' } },
      { text: 'done' },
    ]);
    const [got, created] = results;
    assert.equal(got?.is_error, false, JSON.stringify(results));
    assert.match(got.text, /the login page is slow/);
    assert.equal(created?.is_error, true, JSON.stringify(results));
    assert.match(created.text, /mcp__github__create_issue|github\/create_issue/);
    assert.match(created.text, /active_intents\.yaml/);
    assert.match(created.text, /mcp_tools: \{ "github\/create_issue": read \} if it only reads, write if it changes something/);
    assert.deepEqual(readFileSync(calls, 'utf8').split('\n').filter(Boolean), ['get_issue'], 'the server received get_issue only');
    const log = jsonl('governance_log.jsonl');
    const allowed = log.find((entry) => entry.code === 'MCP_TOOL_BY_POLICY');
    assert.ok(allowed, `no MCP_TOOL_BY_POLICY in the governance log: ${JSON.stringify(log)}`);
    assert.equal(allowed.decision, 'allow');
    assert.equal(allowed.tool_name, 'mcp__github__get_issue');
    assert.match(String(allowed.message), /class read; .* by mcp_tools 'github\/get_issue': read of intent 'auth-refactor'/);
    const refused = log.find((entry) => entry.tool_name === 'mcp__github__create_issue');
    assert.equal(refused?.decision, 'deny', JSON.stringify(log));
  });

  it("a foreign MCP tool the intent's mcp_tools lists under ask, with no person to ask (claude -p): not run, the model reads that a person must agree, its server never receives it", async () => {
    const calls = githubForClaude('      ask: ["github/create_issue"]\n');
    const { results } = await play([{ tool: 'mcp__github__create_issue', input: { title: 'from the agent' } }, { text: 'done' }]);
    const [created] = results;
    assert.equal(created?.is_error, true, JSON.stringify(results));
    assert.match(created.text, /asks a human: mcp__github__create_issue .*mcp_tools\.ask 'github\/create_issue' of intent 'auth-refactor'/);
    assert.equal(existsSync(calls), false, 'the server received nothing');
  });
});
