import { strict as assert } from 'node:assert';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentById, DIALECTS, HOOK_CONFIG_FILES } from '../../../../../src/core/agents/registry';
import { qwenDialect } from '../../../../../src/core/agents/qwen/qwenDialect';
import { qwenCanary } from '../../../../../src/core/agents/qwen/qwenCanary';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { protectedPatternFor } from '../../../../../src/core/paths/protectedPaths';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/**
 * Every tool Qwen Code 0.24.4 lists in a headless session (offered to the model, or deferred behind tool_search),
 * as the real binary reports them (its --output-format json init message; the agent suite checks the offered ones).
 */
const OFFERED = ['agent', 'edit', 'get_goal', 'glob', 'grep_search', 'list_agents', 'read_file', 'run_shell_command', 'skill', 'tool_call', 'tool_search', 'update_goal', 'write_file'];
const DEFERRED_READ_ONLY = ['web_fetch', 'read_mcp_resource', 'task_stop', 'send_message', 'zoom_image', 'report_findings', 'cron_list'];
/** Deferred tools that write or run something the hooks cannot judge: refused. */
const DEFERRED_REFUSED = ['enter_worktree', 'exit_worktree', 'record_artifact', 'cron_create', 'cron_delete', 'loop_wakeup', 'monitor', 'save_memory', 'exec'];

function parsed(fixture: string, root: string): HookEvent {
  const result = qwenDialect.parse(JSON.parse(hookFixture('qwen', fixture, root)));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.event;
}

function governed(mapping: ToolMapping) {
  assert.equal(mapping.kind, 'governed', JSON.stringify(mapping));
  return mapping.kind === 'governed' ? mapping.calls : [];
}

function reasonOf(mapping: ToolMapping): string {
  assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
  return mapping.kind === 'refused' ? mapping.reason : '';
}

describe('Qwen Code dialect', () => {
  let root: string;
  const place = () => ({ cwd: root, workspace: root });
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-qwen-')));
  });
  afterEach(() => removeTree(root));

  it('is `governor hook qwen`, traced as qwen-code, its hooks in .qwen/settings.json, which no intent may write', () => {
    assert.equal(DIALECTS.qwen, qwenDialect);
    assert.equal(qwenDialect.agentName, 'qwen-code');
    assert.equal(HOOK_CONFIG_FILES.qwen, '.qwen/settings.json');
    assert.equal(agentById('qwen')?.shellConfinement, 'text policy');
    assert.equal(qwenDialect.confineShell, undefined, 'Qwen Code 0.24.4 does not run a rewritten shell input');
    for (const path of ['.qwen/settings.json', '.qwen/agents/writer.md', 'sub/.qwen/settings.json']) assert.ok(protectedPatternFor(path), path);
  });

  describe('parse', () => {
    it("reads the binary's PreToolUse and PostToolUse as the tool phases, keyed by tool_use_id, the rest as the user hooks' fields", () => {
      const pre = parsed('pre-write-file-in-scope', root);
      assert.equal(pre.kind, 'tool');
      if (pre.kind !== 'tool') return;
      assert.deepEqual([pre.phase, pre.eventName, pre.sessionId, pre.cwd, pre.toolName, pre.toolUseId], ['pre', 'PreToolUse', '510efc4d-4b91-4b43-9f90-ab3021a1ab3f', root, 'write_file', 'toolu_1796302286954_9c004hdms']);
      assert.deepEqual(pre.toolInput, { file_path: join(root, 'src/auth/token.ts'), content: 'export const token = 1;\n' });
      assert.equal(pre.fields?.tool_call_id, 'call_scripted_2');
      assert.equal(pre.fields?.permission_mode, 'yolo');
      const post = parsed('post-write-file', root);
      assert.ok(post.kind === 'tool' && post.phase === 'post' && post.toolUseId === pre.toolUseId, 'the post is the same call');
    });

    it("reads a subagent's events as the parent session's, with its agent_id for the user hooks", () => {
      const start = parsed('subagent-start', root);
      assert.deepEqual([start.kind, start.eventName, start.sessionId, start.fields?.agent_type, start.fields?.agent_id], ['context', 'SubagentStart', '6b13f672-e3cf-4790-b9b3-c0926af7a6fc', 'general-purpose', 'general-purpose-call_scripted_1']);
      const pre = parsed('pre-write-file-in-subagent', root);
      assert.ok(pre.kind === 'tool' && pre.sessionId === start.sessionId && pre.fields?.agent_id === 'general-purpose-call_scripted_1');
    });

    it('refuses the events only Qwen Code has (not installed), misspelled ones, and a tool event it cannot read', () => {
      for (const eventName of ['MessageDisplay', 'StopFailure', 'SessionDelete', 'TodoCreated', 'TodoCompleted', 'UserPromptExpansion', 'PostToolBatch', 'InstructionsLoaded', 'pretooluse']) {
        const result = qwenDialect.parse({ session_id: 's', cwd: root, hook_event_name: eventName });
        assert.ok(!result.ok && /not a hook event Intent Governor knows from Qwen Code/.test(result.message), eventName);
      }
      assert.ok(!qwenDialect.parse({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'write_file' }).ok, 'no tool_input');
      for (const eventName of ['SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PermissionRequest', 'Notification', 'SessionEnd']) assert.ok(qwenDialect.parse({ session_id: 's', cwd: root, hook_event_name: eventName }).ok, eventName);
    });
  });

  describe('tool table', () => {
    it('knows every tool the binary lists: none falls through to "unknown" but those that write or run what it cannot judge', () => {
      for (const tool of [...OFFERED, ...DEFERRED_READ_ONLY]) {
        const mapping = qwenDialect.mapTool(tool, {}, place());
        assert.ok(mapping.kind !== 'refused' || !/does not know/.test(mapping.reason), `${tool}: ${JSON.stringify(mapping)}`);
      }
      for (const tool of DEFERRED_REFUSED) assert.match(reasonOf(qwenDialect.mapTool(tool, {}, place())), /does not know Qwen Code's tool/, tool);
    });

    it('maps write_file, edit, run_shell_command and read_file to the governed calls', () => {
      const file = join(root, 'src/a.ts');
      assert.deepEqual(governed(qwenDialect.mapTool('write_file', { file_path: file, content: 'x' }, place())), [{ tool: 'write_file', input: { path: file, content: 'x' } }]);
      assert.deepEqual(governed(qwenDialect.mapTool('edit', { file_path: file, old_string: 'a', new_string: 'b', replace_all: true }, place())), [{ tool: 'edit_file', input: { path: file }, edits: [{ search: 'a', replace: 'b', all: true }] }]);
      assert.deepEqual(governed(qwenDialect.mapTool('edit', { file_path: file, old_string: '', new_string: 'new' }, place())), [{ tool: 'write_file', input: { path: file, content: 'new' } }], 'an empty old_string creates the file');
      assert.deepEqual(governed(qwenDialect.mapTool('run_shell_command', { command: 'ls', directory: join(root, 'src') }, place())), [{ tool: 'run_command', input: { command: 'ls', cwd: join(root, 'src') } }]);
      assert.deepEqual(governed(qwenDialect.mapTool('run_shell_command', { command: 'ls', is_background: true }, place())), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
      assert.deepEqual(governed(qwenDialect.mapTool('read_file', { file_path: 'src/a.ts' }, place())), [{ tool: 'read_file', input: { path: file } }]);
    });

    it('refuses a call missing what it needs, a notebook_edit, other MCP servers’ tools and tools it does not know; passes its own MCP tools', () => {
      assert.match(reasonOf(qwenDialect.mapTool('write_file', { file_path: '/x' }, place())), /write_file call has no file_path and content/);
      assert.match(reasonOf(qwenDialect.mapTool('notebook_edit', { notebook_path: join(root, 'n.ipynb'), new_source: 'x' }, place())), /notebook cell/);
      const other = qwenDialect.mapTool('mcp__github__create_issue', {}, place());
      assert.match(reasonOf(other), /another MCP server/);
      assert.deepEqual(other.kind === 'refused' && other.foreign, { server: 'github', tool: 'create_issue' });
      assert.equal(qwenDialect.mapTool('mcp__intent-governor__list_intents', {}, place()).kind, 'passthrough');
      assert.match(reasonOf(qwenDialect.mapTool('WriteFile', {}, place())), /does not know/, 'display names are not tool names in the payload');
    });
  });

  describe('render', () => {
    const pre = (): HookEvent => parsed('pre-write-file-in-scope', root);

    it('says nothing for a plain allow; denies and asks with permissionDecision and the reason Qwen Code gives the model', () => {
      assert.deepEqual(qwenDialect.render(pre(), { decision: 'allow' }), { exitCode: 0, stdout: '', stderr: '' });
      const deny = JSON.parse(qwenDialect.render(pre(), { decision: 'deny', reason: 'out of scope' }).stdout);
      assert.deepEqual(deny.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'out of scope' });
      assert.equal(JSON.parse(qwenDialect.render(pre(), { decision: 'ask', reason: 'destructive' }).stdout).hookSpecificOutput.permissionDecision, 'ask');
    });

    it('refuses an allow or an ask that rewrites the call: Qwen Code would run the original, unjudged', () => {
      for (const decision of ['allow', 'ask'] as const) {
        const reply = JSON.parse(qwenDialect.render(pre(), { decision, updatedInput: { file_path: join(root, 'elsewhere.ts'), content: 'x' } }).stdout);
        assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny', decision);
        assert.match(reply.hookSpecificOutput.permissionDecisionReason, /Qwen Code runs a call as the model sent it/);
        assert.equal(reply.hookSpecificOutput.updatedInput, undefined);
      }
    });

    it('fails with exit 2 and the reason on stderr, which Qwen Code reads as a block', () => {
      const failure = qwenDialect.renderFailure('crashed');
      assert.equal(failure.exitCode, 2);
      assert.match(failure.stderr, /Intent Governor blocked this call: crashed/);
    });
  });

  describe('canary (governor doctor)', () => {
    const call = () => ({ workspace: root, path: join(root, 'x.ts'), relativePath: 'x.ts', sessionId: 'doctor:1', callId: 'c1', content: 'x' });

    it('proposes a write_file as the binary sends it', () => {
      const payload = qwenCanary.payload(call());
      assert.equal(payload.hook_event_name, 'PreToolUse');
      assert.deepEqual(payload.tool_input, { file_path: join(root, 'x.ts'), content: 'x' });
      assert.deepEqual(qwenCanary.door, { kind: 'json', event: 'PreToolUse', tool: 'write_file', shell: 'bash' });
    });

    it('reads a refusal as Qwen Code 0.24.4 does: exit 2 only with a reason, deny or ask on exit 0; any other exit runs the tool', () => {
      const proc = (exitCode: number | null, stdout = '', stderr = '') => qwenCanary.blocks({ via: 'process', exitCode, stdout, stderr });
      assert.deepEqual(proc(2, '', 'no\n'), { blocked: true, reason: 'no' });
      assert.equal(proc(2).blocked, false);
      assert.equal(proc(1, '', 'boom').blocked, false);
      assert.equal(proc(null).blocked, false);
      assert.equal(proc(0).blocked, false);
      assert.equal(proc(0, JSON.stringify({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'r' } })).blocked, true);
      assert.equal(proc(0, JSON.stringify({ decision: 'block', reason: 'r' })).blocked, true);
      assert.equal(proc(0, JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow' } })).blocked, false);
    });
  });
});
