import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalMode } from '../../../src/core/approval/approvalMode';
import { bundledScript } from '../../support/bundledScript';
import { createHarness, type Harness } from '../../support/governorHarness';
import { removeTree } from '../../support/removeTree';
import { runHook } from '../../support/runHook';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

/**
 * One approval policy at every door: the same calls, under the same workspace setting, through `governor decide`,
 * `governor mcp` (a real MCP client over stdio), Claude Code's hook door run headless (a real hook process) and
 * the editor's governor (the in-process pipeline with a person at the modal), one answer per mode.
 */

const LOGIN = 'export function login() {\n  return false;\n}\n';

type Answer = 'allow' | 'deny' | 'ask';
/** An answer and the text the door gave with it (which must name the mode when it asks). */
interface DoorAnswer {
  answer: Answer;
  text: string;
}

const INTENT = 'auth-refactor';

/** Each call in each door's own words: the governed tool (decide, MCP, editor) and Claude Code's native tool. */
interface Call {
  name: string;
  tool: string;
  input: Record<string, unknown>;
  /** A change to an existing file is judged against a read of it in the same session ... */
  readFirst?: string;
  /** ... or, in a one-shot `decide`, against the hash of the version it is based on. */
  decideInput?: Record<string, unknown>;
  claude: { tool_name: string; tool_input: (root: string) => Record<string, unknown> };
  expected: Record<ApprovalMode, Answer>;
}

const CALLS: Call[] = [
  {
    name: 'an in-scope write',
    tool: 'write_file',
    input: { path: 'src/auth/token.ts', content: 'export const token = 1;\n' },
    claude: { tool_name: 'Write', tool_input: (root) => ({ file_path: `${root}/src/auth/token.ts`, content: 'export const token = 1;\n' }) },
    expected: { 'every-change': 'ask', 'destructive-only': 'allow' },
  },
  {
    name: 'an out-of-scope write',
    tool: 'write_file',
    input: { path: 'src/billing/invoice.ts', content: 'export const invoice = 2;\n' },
    claude: { tool_name: 'Write', tool_input: (root) => ({ file_path: `${root}/src/billing/invoice.ts`, content: 'export const invoice = 2;\n' }) },
    expected: { 'every-change': 'deny', 'destructive-only': 'deny' },
  },
  {
    name: 'a delete (Claude Code: rm in its shell)',
    tool: 'delete_file',
    input: { path: 'src/auth/login.ts' },
    readFirst: 'src/auth/login.ts',
    decideInput: { path: 'src/auth/login.ts', expected_content_hash: `sha256:${createHash('sha256').update(LOGIN).digest('hex')}` },
    claude: { tool_name: 'Bash', tool_input: () => ({ command: 'rm src/auth/login.ts', description: 'Remove the old login' }) },
    expected: { 'every-change': 'ask', 'destructive-only': 'ask' },
  },
  {
    name: 'a destructive command',
    tool: 'run_command',
    input: { command: 'git reset --hard' },
    claude: { tool_name: 'Bash', tool_input: () => ({ command: 'git reset --hard', description: 'Reset' }) },
    expected: { 'every-change': 'ask', 'destructive-only': 'ask' },
  },
  {
    name: 'a read',
    tool: 'read_file',
    input: { path: 'src/auth/login.ts' },
    claude: { tool_name: 'Read', tool_input: (root) => ({ file_path: `${root}/src/auth/login.ts` }) },
    expected: { 'every-change': 'allow', 'destructive-only': 'allow' },
  },
];

const MODES: ApprovalMode[] = ['every-change', 'destructive-only'];

/** `governor decide`: the answer it prints. */
function viaDecide(h: Harness, call: Call, env: NodeJS.ProcessEnv): DoorAnswer {
  const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
  const run = spawnSync(process.execPath, [cli, 'decide', '--workspace', h.root], { input: JSON.stringify({ tool: call.tool, input: call.decideInput ?? call.input, session_id: 'decide-1', intent_id: INTENT }), encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(run.status, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as { decision: Answer; message: string | null; approval_mode: string };
  return { answer: printed.decision, text: `${printed.message ?? ''} ${printed.approval_mode}` };
}

/** `governor mcp` (approve: never): a success lands, a refusal for needing a person is where the editor asks. */
async function viaMcp(client: Client, call: Call): Promise<DoorAnswer> {
  if (call.readFirst) await client.callTool({ name: 'read_file', arguments: { path: call.readFirst } });
  const result = (await client.callTool({ name: call.tool, arguments: call.input })) as CallToolResult;
  const text = resultText(result);
  const code = resultErrorCode(result);
  if (code === undefined) return { answer: 'allow', text };
  if (code === 'HITL_REJECT') {
    assert.match(text, /needs a person's approval.*nobody was asked.*--approve always.*VS Code/s);
    return { answer: 'ask', text };
  }
  return { answer: 'deny', text };
}

/** Claude Code's PreToolUse hook, headless: nothing printed lets the call run, else its permissionDecision. */
async function viaClaudeHook(h: Harness, call: Call, env: NodeJS.ProcessEnv): Promise<DoorAnswer> {
  const payload = { session_id: 'claude-1', transcript_path: '/tmp/t.jsonl', cwd: h.root, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: call.claude.tool_name, tool_use_id: `toolu_${call.tool}`, tool_input: call.claude.tool_input(h.root) };
  const run = await runHook('claude', JSON.stringify(payload), ['--intent', INTENT], env);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout.trim() === '') return { answer: 'allow', text: '' };
  const output = (JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: Answer; permissionDecisionReason?: string } }).hookSpecificOutput;
  return { answer: output?.permissionDecision ?? 'allow', text: output?.permissionDecisionReason ?? '' };
}

/** The editor: the same pipeline with the mode its setting gives, and a person at the modal (who rejects). */
async function viaEditor(mode: ApprovalMode, call: Call): Promise<DoorAnswer> {
  const h = await createHarness({ files: { 'src/auth/login.ts': LOGIN, 'src/billing/invoice.ts': 'export const invoice = 1;\n' }, policy: { approval: mode, approvalFrom: 'setting' } });
  try {
    if (call.readFirst) await h.bound('read_file', { path: call.readFirst });
    h.approver.script(false);
    const result = await h.bound(call.tool, call.input);
    const asked = h.approver.requests[0];
    if (asked) return { answer: 'ask', text: asked.reasons.join('; ') };
    return result.ok ? { answer: 'allow', text: '' } : { answer: 'deny', text: result.error.message };
  } finally {
    await h.dispose();
  }
}

describe('one approval policy: decide, governor mcp, the Claude hook door and the editor answer alike', function () {
  this.timeout(120_000);

  for (const mode of MODES) {
    describe(`intentGovernor.approval = ${mode} in the workspace settings`, () => {
      let h: Harness;
      let home: string;
      let env: NodeJS.ProcessEnv;
      let client: Client | undefined;

      beforeEach(async () => {
        h = await createHarness({ files: { 'src/auth/login.ts': LOGIN, 'src/billing/invoice.ts': 'export const invoice = 1;\n' }, approvalSetting: mode });
        home = await mkdtemp(join(tmpdir(), 'ig-doors-home-'));
        env = { HOME: home, INTENT_GOVERNOR_HOME: join(home, 'governor'), INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
      });
      afterEach(async () => {
        await client?.close();
        client = undefined;
        await h.dispose();
        await removeTree(home);
      });

      for (const call of CALLS) {
        it(`${call.name}: ${call.expected[mode]} at every door`, async () => {
          const answers: Record<string, DoorAnswer> = {};
          answers.decide = viaDecide(h, call, env);
          answers.claudeHook = await viaClaudeHook(h, call, env);
          answers.editor = await viaEditor(mode, call);
          client = await connectGovernorMcp(h.root, join(home, 'anchors'), [], 'doors-agent', { HOME: home, INTENT_GOVERNOR_HOME: join(home, 'governor') });
          await client.callTool({ name: 'select_active_intent', arguments: { intent_id: INTENT } });
          answers.mcp = await viaMcp(client, call);
          const summary = Object.fromEntries(Object.entries(answers).map(([door, a]) => [door, a.answer]));
          assert.deepEqual(summary, { decide: call.expected[mode], claudeHook: call.expected[mode], editor: call.expected[mode], mcp: call.expected[mode] }, JSON.stringify(answers, null, 2));
          // Where a write asks only because of the mode, every door says which mode and what set it.
          if (call.tool === 'write_file' && call.expected[mode] === 'ask') {
            for (const [door, a] of Object.entries(answers)) assert.match(a.text, /every-change \(set by the intentGovernor\.approval setting\)/i, `${door}: ${a.text}`);
          }
        });
      }
    });
  }

  it('with nothing set, every door asks before an in-scope write, as the editor does by default, and says the default decided', async () => {
    const h = await createHarness({ files: { 'src/auth/login.ts': LOGIN }, approvalSetting: null });
    const home = await mkdtemp(join(tmpdir(), 'ig-doors-home-'));
    const env = { HOME: home, INTENT_GOVERNOR_HOME: join(home, 'governor'), INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
    try {
      const write = CALLS[0];
      const decided = viaDecide(h, write, env);
      assert.equal(decided.answer, 'ask');
      assert.match(decided.text, /approval mode every-change \(the default\)/);
      const hooked = await viaClaudeHook(h, write, env);
      assert.equal(hooked.answer, 'ask');
      assert.match(hooked.text, /every-change \(the default\)/);
      const client = await connectGovernorMcp(h.root, join(home, 'anchors'), [], 'doors-agent', { HOME: home, INTENT_GOVERNOR_HOME: join(home, 'governor') });
      try {
        await client.callTool({ name: 'select_active_intent', arguments: { intent_id: INTENT } });
        const served = await viaMcp(client, write);
        assert.equal(served.answer, 'ask');
        assert.match(served.text, /every-change \(the default\)/);
        assert.match(served.text, /destructive-only/); // and how to let in-scope writes land without asking
      } finally {
        await client.close();
      }
    } finally {
      await h.dispose();
      await removeTree(home);
    }
  });
});
