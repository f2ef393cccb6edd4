import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vscodeDialect } from '../../src/core/agents/vscode/vscodeDialect';
import { assertAgentTraceFile } from '../support/agentTraceSchema';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { installExtension, type Workbench } from '../vscode/codeServer';
import { repoRoot } from '../vscode/provisioned';
import { answerModal, launchGovernedVsCode, pickIntentInPalette, waitFor, type GovernedVsCode } from './e2eSupport';
import { AGENT_SETTINGS, chatTurn, enableBuiltinChat, useScriptedModel, type ChatTurn } from './vscodeChat';

const shots = join(repoRoot, 'test-results', 'e2e');
const DENIED = 'Tool execution denied: ';

interface TraceRecord {
  files: { path: string }[];
  metadata: Record<string, unknown>;
}

/**
 * VS Code's own agent, for real: the built-in chat in Agent mode (code-server 4.139.1, Copilot Chat 0.67) with a
 * scripted model, running the hooks `governor hooks install --agent vscode` wrote into the workspace through its
 * own hook runner, answered by the extension running in the same VS Code under the intent a person picked.
 */
describe('e2e: VS Code’s own agent governed through its hooks', function () {
  let model: ScriptedAnthropic | undefined;
  let vscode: GovernedVsCode | undefined;
  let workspace: string;
  let workbench: Workbench;
  /** Where the workspace's other MCP server ("notes", fixtures/notesMcpServer.mjs) logs each call it ran. */
  let notesCalls: string;
  /** Every tool name the agent offered the model in a request. */
  const offered = new Set<string>();

  const turn = async (script: Parameters<typeof chatTurn>[2]): Promise<ChatTurn> => {
    const played = await chatTurn(workbench.page, model!, script);
    for (const request of played.requests) for (const tool of request.body.tools ?? []) offered.add((tool as { name: string }).name);
    return played;
  };
  const jsonl = (name: string): Record<string, unknown>[] => {
    const path = join(workspace, '.orchestration', name);
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  };
  /** The calls the notes server ran of `tool`, each as `<tool> "<note>"`. */
  const callsOf = (tool: string): string[] => (existsSync(notesCalls) ? readFileSync(notesCalls, 'utf8').split('\n').filter((line) => line.startsWith(`${tool} `)) : []);
  /** The trace record of `rel` once the extension has written it (PostToolUse comes after the agent moves on). */
  const traced = async (rel: string): Promise<TraceRecord> => {
    const path = join(workspace, '.orchestration', 'agent_trace.jsonl');
    const records = () => (existsSync(path) ? (assertAgentTraceFile(path) as unknown as TraceRecord[]) : []);
    try {
      return await waitFor(`a trace record of ${rel}`, () => records().filter((record) => record.files.some((file) => file.path === rel)).at(-1), 60_000);
    } catch (error) {
      const seen = records().map((record) => record.files.map((file) => file.path).join(','));
      throw new Error(`${String(error)}; traced: ${JSON.stringify(seen)}; governance log: ${JSON.stringify(jsonl('governance_log.jsonl').slice(-3))}`);
    }
  };

  before(async function () {
    this.timeout(600_000);
    assert.ok(existsSync(join(repoRoot, 'dist', 'hook.js')), 'run `npm run build` first');
    mkdirSync(shots, { recursive: true });
    model = await startScriptedAnthropic([]);
    const modelUrl = model.url;
    vscode = await launchGovernedVsCode({
      prefix: 'ig-e2e-agent-',
      // The agent's writes mean to land without a modal (a modal stalls the conversation in code-server).
      settings: { ...AGENT_SETTINGS, 'intentGovernor.approval': 'destructive-only' },
      prepare: async (ws, temp) => {
        useScriptedModel(join(temp, 'user-data'), modelUrl);
        installExtension(join(temp, 'extensions'), join(__dirname, 'fixtures', 'frobnicator'));
        const install = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'hooks', 'install', '--agent', 'vscode', '--workspace', ws], {
          encoding: 'utf8',
          env: { ...process.env, HOME: join(temp, 'home') },
        });
        assert.equal(install.status, 0, install.stderr);
        // Someone else's MCP server in the workspace's .vscode/mcp.json (VS Code starts it for the agent's requests),
        // and the plan letting one of its tools run once a person agrees (the other tool is named nowhere).
        notesCalls = join(temp, 'notes-calls.log');
        mkdirSync(join(ws, '.vscode'), { recursive: true });
        const notes = { type: 'stdio', command: process.execPath, args: [join(__dirname, 'fixtures', 'notesMcpServer.mjs'), notesCalls] };
        writeFileSync(join(ws, '.vscode', 'mcp.json'), `${JSON.stringify({ servers: { notes } }, null, 2)}\n`);
        const plan = join(ws, '.orchestration', 'active_intents.yaml');
        writeFileSync(plan, `mcp_tools:\n  "notes/remember": ask\n${readFileSync(plan, 'utf8')}`);
      },
      beforeWorkbench: enableBuiltinChat,
    });
    ({ workspace, workbench } = vscode);
  });

  // What the window showed when a test failed (a dialog left open, the chat view elsewhere), for whoever reads the failure.
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !workbench) return;
    const name = (this.currentTest.title.match(/[a-z0-9]+/gi) ?? []).slice(0, 6).join('-');
    await workbench.page.screenshot({ path: join(shots, `vscode-agent-failed-${name}.png`) }).catch(() => undefined);
    const dialog = await workbench.page.locator('.monaco-dialog-box').first().textContent({ timeout: 1_000 }).catch(() => null);
    if (dialog) process.stderr.write(`a dialog was open when "${this.currentTest.title}" failed: ${dialog}\n`);
  });

  after(async function () {
    this.timeout(60_000);
    await vscode?.stop();
    await model?.close();
  });

  it('installs its hooks where VS Code reads them: .github/hooks/intent-governor.json, a command hook per event', () => {
    const config = JSON.parse(readFileSync(join(workspace, '.github', 'hooks', 'intent-governor.json'), 'utf8')) as { hooks: Record<string, { type: string; command: string }[]> };
    for (const event of ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit']) {
      assert.equal(config.hooks[event]?.[0]?.type, 'command', event);
      // The per-user launcher (the extension wrote it when it started), never this machine's path.
      assert.match(config.hooks[event][0].command, /^ig_l="\$\{INTENT_GOVERNOR_HOME:-\$HOME\/\.intent-governor\}\/bin\/governor-hook";.*\$\("\$ig_l" hook vscode --timeout-ms 110000 /, event);
      assert.doesNotMatch(config.hooks[event][0].command, /hook\.js/, event);
    }
  });

  it('before a person picks an intent, create_file is refused and the model reads how to get one', async () => {
    const file = join(workspace, 'src/auth/early.ts');
    const { results } = await turn([{ tool: 'create_file', input: { filePath: file, content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.ok(results[0].text.startsWith(`${DENIED}[NO_ACTIVE_INTENT]`), results[0].text);
    assert.equal(existsSync(file), false);
  });

  it('after a person picks the intent in the status bar, an in-scope create_file lands and is traced as vscode-agent', async () => {
    await pickIntentInPalette(workbench.page, 'auth-refactor');
    const file = join(workspace, 'src/auth/token.ts');
    const { results } = await turn([{ tool: 'create_file', input: { filePath: file, content: 'export const token = 1;\n' } }, { text: 'written' }]);
    assert.ok(!results[0].text.startsWith(DENIED), results[0].text);
    assert.equal(readFileSync(file, 'utf8'), 'export const token = 1;\n');
    const record = await traced('src/auth/token.ts');
    assert.equal(record.metadata.agent, 'vscode-agent');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.operation, 'write');
  });

  it('five create_file calls in a row are each on the record with the text VS Code saved, though it saves after their PostToolUse', async () => {
    const files = Array.from({ length: 5 }, (_, i) => ({ rel: `src/auth/quick${i}.ts`, content: `export const quick${i} = ${i};\n` }));
    const { results } = await turn([...files.map(({ rel, content }) => ({ tool: 'create_file', input: { filePath: join(workspace, rel), content } })), { text: 'written' }]);
    assert.deepEqual(results.filter((result) => result.text.startsWith(DENIED)), []);
    for (const { rel, content } of files) {
      assert.equal(readFileSync(join(workspace, rel), 'utf8'), content);
      const sha = `sha256:${createHash('sha256').update(content).digest('hex')}`;
      await waitFor(`the record of ${rel} with the saved text`, async () => ((((await traced(rel)).metadata.files as { after_hash?: string }[] | undefined) ?? []).some((file) => file.after_hash === sha) ? true : undefined), 60_000);
    }
  });

  it('an out-of-scope create_file is refused: the next request carries the denial with SCOPE_VIOLATION, no file, the refusal logged', async () => {
    const file = join(workspace, 'src/billing/x.ts');
    const { results, requests } = await turn([{ tool: 'create_file', input: { filePath: file, content: 'x\n' } }, { text: 'refused' }]);
    assert.equal(requests.length, 2);
    assert.match(results[0].text, /^Tool execution denied: \[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor .*request_scope_expansion/s);
    assert.equal(existsSync(file), false);
    const refusal = jsonl('governance_log.jsonl').filter((entry) => entry.code === 'SCOPE_VIOLATION').at(-1);
    assert.ok(refusal, 'no refusal in the governance log');
    assert.deepEqual(refusal.agent, { name: 'vscode-agent' });
    assert.deepEqual(refusal.paths, ['src/billing/x.ts']);
  });

  it('run_in_terminal whose redirect writes out of scope is refused before the terminal runs it', async () => {
    const { results } = await turn([
      { tool: 'run_in_terminal', input: { command: 'echo leaked > src/billing/leak.txt', explanation: 'write a file', goal: 'write', isBackground: false, timeout: 10_000 } },
      { text: 'refused' },
    ]);
    assert.match(results[0].text, /^Tool execution denied: \[SCOPE_VIOLATION\] "src\/billing\/leak\.txt"/);
    assert.equal(existsSync(join(workspace, 'src/billing/leak.txt')), false);
  });

  it('create_file over its own hook config (a protected path) is refused, and the hooks stay installed', async () => {
    const config = join(workspace, '.github', 'hooks', 'intent-governor.json');
    const before = readFileSync(config, 'utf8');
    const { results } = await turn([{ tool: 'create_file', input: { filePath: config, content: '{"hooks": {}}\n' } }, { text: 'refused' }]);
    assert.match(results[0].text, /^Tool execution denied: \[PROTECTED_PATH\] "\.github\/hooks\/intent-governor\.json" is protected/);
    assert.equal(readFileSync(config, 'utf8'), before);
  });

  it('a tool of another extension, unknown to the governor, is refused and never runs', async () => {
    const login = join(workspace, 'src/auth/login.ts');
    const before = readFileSync(login, 'utf8');
    const { results, requests } = await turn([{ tool: 'frobnicate_file', input: { path: login } }, { text: 'refused' }]);
    assert.ok(requests[0].body.tools?.some((tool) => (tool as { name: string }).name === 'frobnicate_file'), 'the agent did not offer the other extension’s tool');
    assert.ok(results[0].text.startsWith(DENIED), results[0].text);
    assert.match(results[0].text, /frobnicate_file/);
    assert.equal(readFileSync(login, 'utf8'), before);
    assert.ok(jsonl('governance_log.jsonl').some((entry) => entry.decision === 'deny' && JSON.stringify(entry).includes('frobnicate_file')), 'the refusal is not in the governance log');
  });

  it('an in-scope replace_string_in_file lands and is traced as an edit by vscode-agent', async () => {
    const login = join(workspace, 'src/auth/login.ts');
    const before = readFileSync(login, 'utf8');
    const { results } = await turn([
      { tool: 'replace_string_in_file', input: { filePath: login, oldString: 'password.length >= 12', newString: 'password.length >= 16', explanation: 'longer passwords' } },
      { text: 'edited' },
    ]);
    assert.ok(!results[0].text.startsWith(DENIED), results[0].text);
    assert.equal(readFileSync(login, 'utf8'), before.replace('password.length >= 12', 'password.length >= 16'));
    const record = await traced('src/auth/login.ts');
    assert.equal(record.metadata.agent, 'vscode-agent');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.operation, 'edit');
  });

  it('a destructive terminal command asks a person in the native modal: Approve lets it run, Reject denies it', async function () {
    // In a full e2e run VS Code's chat now and then shows its sessions list instead of the conversation, with its own
    // "Run `bash` command?" card pending out of sight (test-results/e2e/vscode-agent-stuck-*.png): a second turn runs.
    this.retries(1);
    const tmp = join(workspace, 'src/auth/tmp');
    const rm = { tool: 'run_in_terminal', input: { command: 'rm -rf src/auth/tmp', explanation: 'clean up', goal: 'clean up', isBackground: false, timeout: 10_000 } };

    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, 'junk.txt'), 'junk\n');
    const approved = turn([rm, { text: 'cleaned' }]);
    const shown = await answerModal(workbench.page, 'Approve', join(shots, 'vscode-agent-modal.png'));
    assert.match(shown, /rm -rf src\/auth\/tmp/);
    const ran = await approved;
    assert.ok(!ran.results[0].text.startsWith(DENIED), ran.results[0].text);
    assert.equal(existsSync(tmp), false);

    mkdirSync(tmp, { recursive: true });
    const rejected = turn([rm, { text: 'not cleaned' }]);
    await answerModal(workbench.page, 'Reject');
    const refused = await rejected;
    assert.ok(refused.results[0].text.startsWith(`${DENIED}[HITL_REJECT]`), refused.results[0].text);
    assert.equal(existsSync(tmp), true);
  });

  it('the agent picking the extension’s own language model tool writes through the governed pipeline, hooks and all', async () => {
    const { results } = await turn([{ tool: 'intent-governor_write_file', input: { path: 'src/auth/lm.ts', content: 'export const lm = 1;\n' } }, { text: 'written' }]);
    assert.ok(!results[0].text.startsWith(DENIED), results[0].text);
    assert.equal(readFileSync(join(workspace, 'src/auth/lm.ts'), 'utf8'), 'export const lm = 1;\n');
    const record = await traced('src/auth/lm.ts');
    assert.equal(record.metadata.agent, 'vscode-agent');
  });

  it('the agent calling the extension’s MCP server (which the extension offers VS Code) gets its answer through the hooks', async () => {
    const { results } = await turn([{ tool: 'mcp_intent-govern_read_file', input: { path: 'src/auth/login.ts' } }, { text: 'read' }]);
    assert.ok(!results[0].text.startsWith(DENIED), results[0].text);
    assert.match(results[0].text, /content_hash sha256:[0-9a-f]{64}/);
  });

  it('a tool of another MCP server the plan allows as ask raises the native modal: Approve runs it, Reject refuses it', async function () {
    // As for the terminal command's modal above: a second turn runs when VS Code's chat view loses the conversation.
    this.retries(1);
    // VS Code names the tool mcp_<server>_<tool>; the plan names it notes/remember.
    const remember = (note: string) => ({ tool: 'mcp_notes_remember', input: { note } });
    const ranBefore = callsOf('remember').length;

    const approved = turn([remember('buy milk'), { text: 'remembered' }]);
    const shown = await answerModal(workbench.page, 'Approve', join(shots, 'vscode-agent-mcp-ask-modal.png'));
    assert.match(shown, /Run mcp_notes_remember, a tool of the MCP server 'notes'\?/);
    assert.match(shown, /mcp_tools 'notes\/remember': ask of the top level of /);
    const ran = await approved;
    assert.ok(ran.requests[0].body.tools?.some((tool) => (tool as { name: string }).name === 'mcp_notes_remember'), 'the agent did not offer the notes server’s tool');
    assert.equal(ran.results.length, 1, JSON.stringify(ran.results));
    assert.match(ran.results[0].text, /noted: buy milk/);
    assert.deepEqual(callsOf('remember').slice(ranBefore), ['remember "buy milk"']);
    const allowed = jsonl('governance_log.jsonl').filter((entry) => entry.code === 'MCP_TOOL_BY_POLICY').at(-1);
    assert.ok(allowed, 'the approved call is not in the governance log');
    assert.equal(allowed.tool_name, 'mcp_notes_remember');
    assert.equal(allowed.decision, 'allow');
    // The person who clicked Approve in the modal.
    assert.match(String(allowed.approver), /^modal:/);
    assert.match(String(allowed.message), /class ask; .* by mcp_tools 'notes\/remember': ask of the top level of .*, approved by modal:/);

    const rejected = turn([remember('sell milk'), { text: 'not remembered' }]);
    await answerModal(workbench.page, 'Reject');
    const refused = await rejected;
    assert.ok(refused.results[0].text.startsWith(`${DENIED}[HITL_REJECT]`), refused.results[0].text);
    assert.match(refused.results[0].text, /rejected mcp_notes_remember \(the MCP server 'notes'\)/);
    assert.deepEqual(callsOf('remember').slice(ranBefore), ['remember "buy milk"'], 'the rejected call reached the server');
    assert.ok(jsonl('governance_log.jsonl').some((entry) => entry.code === 'HITL_REJECT' && entry.tool_name === 'mcp_notes_remember'), 'the rejection is not in the governance log');
  });

  it('a tool of that MCP server the plan does not name is refused without asking, saying where to allow it, and never runs', async () => {
    const { results } = await turn([{ tool: 'mcp_notes_forget', input: { note: 'buy milk' } }, { text: 'refused' }]);
    assert.ok(results[0].text.startsWith(`${DENIED}[INVALID_INPUT]`), results[0].text);
    assert.match(results[0].text, /'mcp_notes_forget' is a tool of another MCP server \('notes'\) that no plan allows/);
    assert.match(results[0].text, /mcp_tools: \{ "notes\/forget": read \}/);
    assert.deepEqual(callsOf('forget'), []);
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'a modal asked about a tool no plan allows');
  });

  it('every tool the agent offers its model is in the hook bridge’s table, and only the other extension’s tool is unknown', () => {
    assert.ok(offered.size > 40, `the agent offered only ${[...offered].join(', ')}`);
    const place = { cwd: workspace, workspace };
    // The bridge's refusal of a tool it does not know, for any name.
    const unknownReason = (name: string) => {
      const probe = vscodeDialect.mapTool('ig_probe_not_a_tool', {}, place);
      return probe.kind === 'refused' ? probe.reason.replaceAll('ig_probe_not_a_tool', name) : undefined;
    };
    const unknown = [...offered].filter((name) => {
      const mapping = vscodeDialect.mapTool(name, {}, place);
      return mapping.kind === 'refused' && mapping.reason === unknownReason(name);
    });
    assert.deepEqual(unknown, ['frobnicate_file']);
  });

  // Last: it closes the editor.
  it('an in-scope create_file is on the record exactly once when the editor closes right after the session, whether or not its PostToolUse was answered', async function () {
    this.timeout(300_000);
    const file = join(workspace, 'src/auth/closing.ts');
    const { results } = await turn([{ tool: 'create_file', input: { filePath: file, content: 'export const closing = 1;\n' } }, { text: 'written' }]);
    assert.ok(!results[0].text.startsWith(DENIED), results[0].text);
    // The person closes the editor the moment the agent is done: the extension that allowed the change goes with it.
    await workbench.close();
    await vscode!.server.stop();
    assert.equal(readFileSync(file, 'utf8'), 'export const closing = 1;\n');
    // The next governor to look (here `governor check`, as CI runs it) finds the change on the record, or records it.
    const check = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'check', '--workspace', workspace], {
      encoding: 'utf8',
      env: { ...process.env, INTENT_GOVERNOR_HOME: vscode!.governorHome, INTENT_GOVERNOR_ANCHOR_DIR: join(vscode!.temp, 'anchors') },
    });
    const path = join(workspace, '.orchestration', 'agent_trace.jsonl');
    const records = (assertAgentTraceFile(path) as unknown as TraceRecord[]).filter((record) => record.files.some((f) => f.path === 'src/auth/closing.ts'));
    assert.equal(records.length, 1, `records of src/auth/closing.ts: ${JSON.stringify(records)}; check said: ${check.stdout}${check.stderr}`);
    assert.equal(records[0].metadata.agent, 'vscode-agent');
    assert.equal(records[0].metadata.intent_id, 'auth-refactor');
    const pending = join(workspace, '.orchestration', 'pending');
    assert.deepEqual(existsSync(pending) ? readdirSync(pending).filter((name) => name.startsWith('native.')) : [], [], 'nothing left pending');
  });
});
