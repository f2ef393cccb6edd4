import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { assertAgentTraceFile } from '../../support/agentTraceSchema';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const LOGIN = 'export function login() {\n  return true;\n}\n';




describe('governor mcp (stdio)', function () {
  this.timeout(30_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client | undefined;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it("fires the user's SessionStart and SessionEnd hooks for the MCP session, and PreToolUse for its calls", async () => {
    const home = join(anchorDir, 'home');
    const seen = join(anchorDir, 'events.txt');
    await mkdir(home, { recursive: true });
    const note = { type: 'command', command: `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>require("fs").appendFileSync(${JSON.stringify(seen)},JSON.parse(s).hook_event_name+"\\n"))'` };
    await writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [note] }], PreToolUse: [{ matcher: 'list_intents', hooks: [note] }], SessionEnd: [{ hooks: [note] }] } }));
    client = await connectGovernorMcp(h.root, anchorDir, [], 'mcp-test-agent', { INTENT_GOVERNOR_HOME: home });
    await client.callTool({ name: 'list_intents', arguments: {} });
    await client.close();
    client = undefined;
    for (let i = 0; i < 100 && !(await readFile(seen, 'utf8').catch(() => '')).includes('SessionEnd'); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual((await readFile(seen, 'utf8')).trim().split('\n'), ['SessionStart', 'PreToolUse', 'SessionEnd']);
  });

  it('--agent claude is the resident governor: its hook tool judges native calls under the intent the model selected over MCP', async () => {
    client = await connectGovernorMcp(h.root, anchorDir, ['--agent', 'claude'], 'claude-code', { INTENT_GOVERNOR_HOME: join(anchorDir, 'home') });
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'agent_hook'));
    const hook = async (path: string) => {
      const args = { hook_event_name: 'PreToolUse', session_id: 'claude-1', cwd: h.root, tool_name: 'Write', tool_use_id: `t-${path}`, tool_input: JSON.stringify({ file_path: join(h.root, path), content: 'x\n' }) };
      return resultText(await client!.callTool({ name: 'agent_hook', arguments: args }));
    };
    assert.match(await hook('src/auth/a.ts'), /NO_ACTIVE_INTENT/, 'no intent yet: refused');
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    assert.equal(await hook('src/auth/a.ts'), '{}', 'in scope: no objection');
    assert.match(await hook('src/billing/a.ts'), /"permissionDecision":"deny".*SCOPE_VIOLATION/);
  });

  it('an empty INTENT_GOVERNOR_INTENT binds no intent: the resident governor says none is selected, not that an intent named "" is missing', async () => {
    client = await connectGovernorMcp(h.root, anchorDir, ['--agent', 'claude'], 'claude-code', { INTENT_GOVERNOR_HOME: join(anchorDir, 'home'), INTENT_GOVERNOR_INTENT: '' });
    const args = { hook_event_name: 'PreToolUse', session_id: 'claude-1', cwd: h.root, tool_name: 'Write', tool_use_id: 't-empty', tool_input: JSON.stringify({ file_path: join(h.root, 'src/auth/a.ts'), content: 'x\n' }) };
    const text = resultText(await client.callTool({ name: 'agent_hook', arguments: args }));
    assert.match(text, /NO_ACTIVE_INTENT/);
    assert.doesNotMatch(text, /INTENT_NOT_FOUND/);
  });

  it('--intent without --agent claude is a usage error', async () => {
    const run = await runGovernor(['mcp', '--workspace', h.root, '--intent', 'auth-refactor'], { anchorDir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--intent needs --agent claude/);
  });

  it('lists every governed tool with its JSON schema and hints', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['delete_file', 'edit_file', 'list_files', 'list_intents', 'read_file', 'request_scope_expansion', 'run_command', 'select_active_intent', 'write_file']);
    const write = tools.find((t) => t.name === 'write_file');
    assert.deepEqual(write?.inputSchema.required, ['path', 'content']);
    assert.equal(tools.find((t) => t.name === 'read_file')?.annotations?.readOnlyHint, true);
  });

  it('selects an intent, is refused out of scope, reads, writes, and the change is traced and verifies', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/a.ts', content: 'x' } })), 'NO_ACTIVE_INTENT');
    assert.match(resultText(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /Keep the public login\(\) signature/);
    assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/billing/a.ts', content: 'x' } })), 'SCOPE_VIOLATION');
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(resultText(read))?.[1];
    assert.ok(hash, resultText(read));
    const edit = await client.callTool({ name: 'edit_file', arguments: { path: 'src/auth/login.ts', edits: [{ search: 'return true;', replace: 'return false;' }], expected_content_hash: hash } });
    assert.equal(resultErrorCode(edit), undefined, resultText(edit));
    assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN.replace('true', 'false'));
    await client.close();
    client = undefined;

    const records = assertAgentTraceFile(join(h.root, '.orchestration/agent_trace.jsonl')) as any[];
    assert.equal(records.length, 1);
    const record = records[0];
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.agent, 'mcp-test-agent');
    assert.deepEqual(record.files[0].conversations[0].ranges.map((r: { start_line: number; end_line: number }) => [r.start_line, r.end_line]), [[2, 2]]);
    const governance = (await readFile(join(h.root, '.orchestration/governance_log.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l).code);
    assert.deepEqual(governance, ['NO_ACTIVE_INTENT', 'SCOPE_VIOLATION']);
    const verify = await runGovernor(['trace', 'verify', '--workspace', h.root], { anchorDir });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('refuses calls that need a human unless --approve always is given', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    const refused = await client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
    assert.equal(resultErrorCode(refused), 'HITL_REJECT');
    assert.match(resultText(refused), /--approve always/);
    assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
    await client.close();

    client = await connectGovernorMcp(h.root, anchorDir, ['--approve', 'always']);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    const approved = await client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
    assert.equal(resultErrorCode(approved), undefined, resultText(approved));
    await assert.rejects(readFile(join(h.root, 'src/auth/login.ts')));
    await client.close();
    client = undefined;
    const record = JSON.parse((await readFile(join(h.root, '.orchestration/agent_trace.jsonl'), 'utf8')).trim().split('\n').at(-1) as string);
    assert.equal(record.metadata.decision, 'approved');
    assert.equal(record.metadata.approver, 'cli:--approve always');
  });

  it('--approve always never approves a workspace hook command: the hook does not run and nothing is persisted', async () => {
    // The approvals store sits beside the anchor directory, so both live in a private temp dir for this test.
    const home = await mkdtemp(join(tmpdir(), 'ig-hook-trust-'));
    const anchors = join(home, 'anchors');
    const marker = join(home, 'hook-ran');
    try {
      await mkdir(join(h.root, '.orchestration'), { recursive: true });
      await writeFile(join(h.root, '.orchestration', 'hooks.yaml'), `hooks:\n  - name: planted\n    event: pre\n    matcher: write_file\n    command: "touch '${marker}'"\n`);
      client = await connectGovernorMcp(h.root, anchors, ['--approve', 'always']);
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const write = await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/new.ts', content: 'x\n' } });
      await client.close();
      client = undefined;
      await assert.rejects(stat(marker), 'the repository hook command ran without a person approving it');
      const approvals = await readdir(join(home, 'hook-approvals')).catch(() => []);
      assert.deepEqual(approvals, [], 'a hook approval was persisted without a person approving it');
      // The unapproved hook makes the call one a human must approve; --approve always answers that like any ask.
      assert.equal(resultErrorCode(write), undefined, resultText(write));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('rejects a bad --approve value with a usage error', async () => {
    const run = await runGovernor(['mcp', '--workspace', h.root, '--approve', 'sometimes'], { anchorDir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--approve must be 'never' or 'always'/);
  });
});
