import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finished } from '../support/childProcesses';
import type { TraceRecord } from '../support/agentTraceSchema';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedOpenAI, type ScriptStep, type ScriptedOpenAI } from '../support/scriptedOpenAI';
import { ensureBuilt, repoRoot } from './claudeCodeDriver';
import { provisionedOpencode, RUN_TIMEOUT_MS, runOpencode } from './opencodeDriver';

interface Played {
  run: Finished;
  model: ScriptedOpenAI;
  /** The tool results the model read, in order. */
  results: string[];
}

/** An apply_patch input, as the scripted model sends it to a GPT model's OpenCode. */
const patch = (...hunks: string[]) => ({ patchText: `*** Begin Patch\n${hunks.join('\n')}\n*** End Patch` });

/** A plugin of the person's own that adds a custom tool: OpenCode offers it, Intent Governor does not know it. */
const DEPLOY_PLUGIN = `export const Deploy = async () => ({
  tool: { deploy: { description: 'Deploys the project.', args: {}, execute: async () => { (await import('node:fs')).writeFileSync('deployed.txt', 'yes'); return 'deployed'; } } },
});
`;

/**
 * The real OpenCode, offline, with a scripted Chat Completions model, governed through the plugin
 * `governor hooks install --agent opencode` writes: what a user of OpenCode gets.
 */
describe('agents: the real OpenCode governed through its plugin (the hook bridge)', function () {
  // One OpenCode run per test: the driver kills a hung one first, so the test fails with its output.
  this.timeout(RUN_TIMEOUT_MS + 60_000);
  let opencode: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(function () {
    this.timeout(600_000);
    opencode = provisionedOpencode();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('opencode'));
    const install = builtGovernor(['hooks', 'install', '--agent', 'opencode', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stdout + install.stderr);
    assert.match(install.stdout, /opencode: .*\.opencode\/plugins\/intent-governor\.js written/);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[], options: { model?: string; mcp?: Record<string, unknown> } = {}): Promise<Played> => {
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runOpencode({
        binary: opencode,
        cwd: ws,
        modelUrl: model.url,
        home,
        model: options.model,
        mcp: options.mcp,
        env: {
          INTENT_GOVERNOR_INTENT: 'auth-refactor',
          ...governorHomes(temp),
        },
      });
      assert.equal(run.signal, null, `opencode was killed: ${run.stdout}\n${run.stderr}`);
      assert.equal(model.remaining(), 0, `opencode stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      const results = model.toolResults().map((r) => r.text);
      return { run, model, results };
    } finally {
      await model.close();
    }
  };

  const jsonl = (name: string): Record<string, unknown>[] => orchestrationJsonl(ws, name);

  it('an in-scope write and edit land and are traced as opencode under the intent, which the model was told in its system prompt', async () => {
    const { model, results } = await play([
      { tool: 'write', input: { filePath: 'src/auth/token.ts', content: 'export const token = 1;\n' } },
      { tool: 'read', input: { filePath: join(ws, 'src/auth/login.ts') } },
      { tool: 'edit', input: { filePath: join(ws, 'src/auth/login.ts'), oldString: 'return false;', newString: 'return true;' } },
      { text: 'done' },
    ]);
    assert.match(results[0], /Wrote file successfully/, JSON.stringify(results));
    assert.match(results[2], /Edit applied successfully/, JSON.stringify(results));
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    assert.equal(readFileSync(join(ws, 'src/auth/login.ts'), 'utf8'), 'export function login() {\n  return true;\n}\n');
    const records = jsonl('agent_trace.jsonl') as unknown as TraceRecord[];
    assert.deepEqual(records.map((r) => r.files[0]?.path), ['src/auth/token.ts', 'src/auth/login.ts']);
    for (const record of records) {
      assert.equal(record.metadata.agent, 'opencode');
      assert.equal(record.metadata.intent_id, 'auth-refactor');
    }
    const system = (model.requests.find((r) => r.body.tools?.length)?.body.messages ?? []).filter((m) => (m as { role?: string }).role === 'system');
    assert.match(JSON.stringify(system), /Refactor authentication/, 'the plugin put the intent handshake (SessionStart) into the system prompt');
  });
  it('an out-of-scope write and edit are refused and do not land: the model reads SCOPE_VIOLATION, the governance log has them', async () => {
    const { results } = await play([
      { tool: 'write', input: { filePath: 'src/billing/x.ts', content: 'x\n' } },
      { tool: 'read', input: { filePath: 'src/billing/invoice.ts' } },
      { tool: 'edit', input: { filePath: 'src/billing/invoice.ts', oldString: 'invoice = 1', newString: 'invoice = 2' } },
      { text: 'refused' },
    ]);
    assert.equal(existsSync(join(ws, 'src/billing/x.ts')), false, 'the denied file was not created');
    assert.equal(readFileSync(join(ws, 'src/billing/invoice.ts'), 'utf8'), 'export const invoice = 1;\n', 'the denied edit did not land');
    assert.match(results[0], /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/, JSON.stringify(results));
    assert.match(results[2], /\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/, JSON.stringify(results));
    const refusals = jsonl('governance_log.jsonl').filter((entry) => entry.code === 'SCOPE_VIOLATION');
    assert.deepEqual(refusals.map((entry) => entry.paths), [['src/billing/x.ts'], ['src/billing/invoice.ts']]);
    assert.deepEqual(refusals[0].agent, { name: 'opencode' });
    assert.deepEqual(jsonl('agent_trace.jsonl'), []);
  });

  it('a bash redirect out of scope is refused before the shell runs it, in the directory the command runs in (workdir)', async () => {
    const { results } = await play([
      { tool: 'bash', input: { command: 'echo x > src/billing/y.ts', description: 'write y' } },
      { tool: 'bash', input: { command: 'echo x > y.ts', workdir: 'src/billing', description: 'write y' } },
      { text: 'refused' },
    ]);
    assert.equal(existsSync(join(ws, 'src/billing/y.ts')), false);
    assert.match(results[0], /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/, JSON.stringify(results));
    assert.match(results[1], /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/, JSON.stringify(results));
  });

  it("a protected path is refused: the intents file, and OpenCode's plugin folder (where the governor's own plugin lives)", async () => {
    const intents = readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8');
    const plugin = readFileSync(join(ws, '.opencode/plugins/intent-governor.js'), 'utf8');
    const { results } = await play([
      { tool: 'write', input: { filePath: '.orchestration/active_intents.yaml', content: 'active_intents: []\n' } },
      { tool: 'bash', input: { command: 'echo "" > .opencode/plugins/intent-governor.js', description: 'switch the governor off' } },
      { tool: 'write', input: { filePath: 'opencode.json', content: '{"plugin": []}\n' } },
      { text: 'refused' },
    ]);
    assert.equal(readFileSync(join(ws, '.orchestration/active_intents.yaml'), 'utf8'), intents);
    assert.equal(readFileSync(join(ws, '.opencode/plugins/intent-governor.js'), 'utf8'), plugin);
    assert.equal(existsSync(join(ws, 'opencode.json')), false);
    for (const result of results) assert.match(result, /\[PROTECTED_PATH\]/, JSON.stringify(results));
  });

  it("a tool the governor does not know (another plugin's custom tool) is refused before it runs, and the refusal is audited", async () => {
    writeFileSync(join(ws, '.opencode', 'plugins', 'deploy.js'), DEPLOY_PLUGIN);
    const { model, results } = await play([{ tool: 'deploy', input: {} }, { text: 'refused' }]);
    assert.ok(model.toolNames().includes('deploy'), `OpenCode offered the custom tool: ${model.toolNames().join(', ')}`);
    assert.match(results[0], /does not know OpenCode's tool 'deploy', so it is refused/, JSON.stringify(results));
    assert.equal(existsSync(join(ws, 'deployed.txt')), false, 'the tool never ran');
    const refusal = jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'deploy');
    assert.equal(refusal?.code, 'INVALID_INPUT', 'the refusal is audited');
  });

  it("another MCP server's tool is refused before it runs, and the refusal is audited", async () => {
    const sdk = (path: string) => JSON.stringify(pathToFileURL(join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', path)).href);
    const server = join(temp, 'mcp-server.mjs');
    writeFileSync(
      server,
      `import { McpServer } from ${sdk('server/mcp.js')};
import { StdioServerTransport } from ${sdk('server/stdio.js')};
import { writeFileSync } from 'node:fs';
const server = new McpServer({ name: 'deployer', version: '1.0.0' });
server.tool('deploy', 'Deploys the project.', async () => { writeFileSync(${JSON.stringify(join(ws, 'deployed.txt'))}, 'yes'); return { content: [{ type: 'text', text: 'deployed' }] }; });
await server.connect(new StdioServerTransport());
`,
    );
    const { model, results } = await play([{ tool: 'deployer_deploy', input: {} }, { text: 'refused' }], { mcp: { deployer: { type: 'local', command: [process.execPath, server] } } });
    assert.ok(model.toolNames().includes('deployer_deploy'), `OpenCode offered the MCP tool: ${model.toolNames().join(', ')}`);
    assert.match(results[0], /'deployer_deploy' is a tool of another MCP server \('deployer'\) that no plan allows.*mcp_tools: \{ "deployer\/deploy": read \}/, JSON.stringify(results));
    assert.equal(existsSync(join(ws, 'deployed.txt')), false, 'the tool never ran');
    assert.equal(jsonl('governance_log.jsonl').find((entry) => entry.tool_name === 'deployer_deploy')?.code, 'INVALID_INPUT');
  });

  it('a command that needs a person (a redirect into scope) is refused with the reason, since a plugin cannot ask', async () => {
    const { results } = await play([{ tool: 'bash', input: { command: 'echo x > src/auth/y.ts', description: 'write y' } }, { text: 'refused' }]);
    assert.equal(existsSync(join(ws, 'src/auth/y.ts')), false, 'an ask never lets the command run');
    assert.match(results[0], /Intent Governor asks a human: .*writes to src\/auth\/y\.ts.* OpenCode cannot ask a person from a plugin, so the call is refused/, JSON.stringify(results));
  });

  it("a GPT model's apply_patch: an added file in scope lands and is traced, one out of scope is refused, paths against the project directory", async () => {
    const { model, results } = await play(
      [
        { tool: 'apply_patch', input: patch('*** Add File: src/auth/token.ts', '+export const token = 1;') },
        { tool: 'apply_patch', input: patch('*** Update File: src/billing/invoice.ts', '@@', '-export const invoice = 1;', '+export const invoice = 2;') },
        { text: 'done' },
      ],
      { model: 'gpt-5-scripted' },
    );
    assert.ok(model.toolNames().includes('apply_patch') && !model.toolNames().includes('write'), model.toolNames().join(', '));
    assert.match(results[0], /Success\. Updated the following files/, JSON.stringify(results));
    assert.equal(readFileSync(join(ws, 'src/auth/token.ts'), 'utf8'), 'export const token = 1;\n');
    assert.match(results[1], /\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/, JSON.stringify(results));
    assert.equal(readFileSync(join(ws, 'src/billing/invoice.ts'), 'utf8'), 'export const invoice = 1;\n');
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.deepEqual(record?.files.map((f) => f.path), ['src/auth/token.ts']);
    assert.equal(record?.metadata.agent, 'opencode');
  });

  it("a subagent's tool calls (task) go through the plugin too: its out-of-scope write is refused", async () => {
    const { results } = await play([
      { tool: 'task', input: { description: 'Write billing', prompt: 'Write src/billing/sub.ts', subagent_type: 'general' } },
      { tool: 'write', input: { filePath: 'src/billing/sub.ts', content: 'x\n' } },
      { text: 'the subagent could not write' },
      { text: 'done' },
    ]);
    assert.equal(existsSync(join(ws, 'src/billing/sub.ts')), false);
    assert.ok(results.some((r) => /\[SCOPE_VIOLATION\] "src\/billing\/sub\.ts"/.test(r)), JSON.stringify(results));
  });

  it('reading a folder (read lists it) and searching pass; a read outside the workspace is refused', async () => {
    const { results } = await play([
      { tool: 'read', input: { filePath: 'src' } },
      { tool: 'grep', input: { pattern: 'login' } },
      { tool: 'read', input: { filePath: join(home, 'secret.txt') } },
      { text: 'done' },
    ]);
    assert.match(results[0], /<type>directory<\/type>\n<entries>\nauth\/\nbilling\//, JSON.stringify(results));
    // Offline, OpenCode's grep fails on its own (it cannot download ripgrep); what matters is that the governor let it run.
    assert.doesNotMatch(results[1], /Intent Governor|\[[A-Z_]+\]/, JSON.stringify(results));
    assert.match(results[2], /\[PATH_OUTSIDE_WORKSPACE\]/, JSON.stringify(results));
  });

  it("a project hook that rewrites a write's path: OpenCode writes the rewritten args, judged by scope, and it is traced", async () => {
    // Moves every write under src/billing/ to src/auth/, where the intent may write.
    const mover = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const t=JSON.parse(s).tool_input;t.filePath=t.filePath.replace("src/billing/","src/auth/");console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:t}}))})'`;
    writeFileSync(join(ws, '.orchestration', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'write', hooks: [{ type: 'command', command: mover }] }] } }, null, 2));
    const trust = builtGovernor(['hooks', 'trust', '--yes', '--workspace', ws], { HOME: home, ...governorHomes(temp) });
    assert.equal(trust.status, 0, trust.stdout + trust.stderr);
    const { results } = await play([{ tool: 'write', input: { filePath: 'src/billing/moved.ts', content: 'export const moved = 1;\n' } }, { text: 'written' }]);
    assert.match(results[0], /Wrote file successfully/, JSON.stringify(results));
    assert.equal(readFileSync(join(ws, 'src/auth/moved.ts'), 'utf8'), 'export const moved = 1;\n', 'OpenCode wrote the rewritten path');
    assert.equal(existsSync(join(ws, 'src/billing/moved.ts')), false, 'and never the original');
    const record = jsonl('agent_trace.jsonl').at(-1) as TraceRecord | undefined;
    assert.deepEqual(record?.files.map((f) => f.path), ['src/auth/moved.ts']);
    assert.equal(record?.metadata.agent, 'opencode');
  });

  it('uninstall removes only our plugin: a plugin of the person\'s own in the same folder stays', () => {
    writeFileSync(join(ws, '.opencode', 'plugins', 'deploy.js'), DEPLOY_PLUGIN);
    const uninstall = builtGovernor(['hooks', 'uninstall', '--agent', 'opencode', '--workspace', ws], { HOME: home });
    assert.equal(uninstall.status, 0, uninstall.stdout + uninstall.stderr);
    assert.equal(existsSync(join(ws, '.opencode/plugins/intent-governor.js')), false);
    assert.equal(readFileSync(join(ws, '.opencode/plugins/deploy.js'), 'utf8'), DEPLOY_PLUGIN);
  });
});
