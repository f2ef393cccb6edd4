import { strict as assert } from 'node:assert';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexDialect } from '../../../../../src/core/agents/codex/codexDialect';
import { DIALECTS } from '../../../../../src/core/agents/registry';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import { dialectProbe } from '../../../../support/dialectProbe';

/**
 * Every tool Codex CLI 0.169.0 offers the model (its first request, gpt-5.5 profile; the multi-agent tools with
 * the fallback profile and [features] multi_agent_v2), under the name its hooks give it.
 */
const PASSED = [
  'request_user_input', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search',
  'spawn_agent', 'multi_agent_v1wait_agent', 'multi_agent_v1close_agent', 'send_input', 'resume_agent',
  'collaborationlist_agents', 'collaborationspawn_agent', 'collaborationsend_message', 'collaborationfollowup_task', 'collaborationinterrupt_agent', 'collaborationwait_agent',
];

const patch = (...lines: string[]) => ({ command: ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n') });

describe('Codex CLI dialect', () => {
  let root: string;
  const { map, calls, reason, parsed } = dialectProbe(codexDialect, 'codex', () => root);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-codex-')));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is `governor hook codex`, traced as codex-cli', () => {
    assert.equal(DIALECTS.codex, codexDialect);
    assert.equal(codexDialect.agentName, 'codex-cli');
  });

  describe('parse (payloads captured from codex-cli 0.169.0)', () => {
    it('reads PreToolUse and PostToolUse as the tool phases, with the payload cwd, the call id and the rest as fields for the user hooks', () => {
      const pre = parsed('pre-bash');
      assert.deepEqual(pre, {
        kind: 'tool', phase: 'pre', eventName: 'PreToolUse', sessionId: '01a20855-213c-72b3-9dde-d05cc7199195', cwd: root, toolName: 'Bash', toolInput: { command: 'cat a.txt' }, toolUseId: 'call_scripted_1',
        fields: { turn_id: '01a20855-215d-7c22-a850-4a93f3b233f6', transcript_path: '/home/user/.codex/sessions/2026/11/23/rollout-2026-11-23T12-15-26-01a20855-213c-72b3-9dde-d05cc7199195.jsonl', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_use_id: 'call_scripted_1' },
      });
      const post = parsed('post-apply-patch');
      assert.equal(post.kind === 'tool' && post.phase, 'post');
      assert.match(String(post.kind === 'tool' && post.fields?.tool_response), /Success\. Updated the following files:/);
    });

    it('reads the lifecycle events: SessionStart and UserPromptSubmit (the handshake), Stop, and SessionEnd as the end', () => {
      assert.deepEqual([parsed('session-start'), parsed('user-prompt-submit'), parsed('stop')].map((e) => [e.kind, e.kind === 'context' && e.hookEvent]), [['context', 'SessionStart'], ['context', 'UserPromptSubmit'], ['context', 'Stop']]);
      assert.equal(parsed('session-end').kind, 'end');
    });
  });

  describe('mapTool: every tool Codex offers', () => {
    it('judges a shell command (exec_command, as Bash) where it runs: the payload cwd, which carries its workdir', () => {
      const event = parsed('pre-bash-workdir');
      assert.ok(event.kind === 'tool');
      assert.equal(event.cwd, '/tmp', 'exec_command {workdir: "/tmp"} arrives as cwd /tmp');
      assert.deepEqual(calls(map('Bash', event.toolInput, '/tmp')), [{ tool: 'run_command', input: { command: 'echo hi > b.txt', cwd: '/tmp' } }]);
      assert.match(reason(map('Bash', {})), /Codex's Bash call has no command/);
    });

    it('judges each file an apply_patch touches, resolved against the payload cwd: an edit per updated file, a write per added one', () => {
      const event = parsed('pre-apply-patch');
      assert.ok(event.kind === 'tool');
      assert.deepEqual(calls(map('apply_patch', event.toolInput)), [
        { tool: 'edit_file', input: { path: join(root, 'a.txt') }, edits: [{ search: 'line1\nline2', replace: 'line1\nline2 changed', all: false }] },
        { tool: 'write_file', input: { path: join(root, 'sub/c.txt'), content: 'new file\n' } },
      ]);
      const sub = join(root, 'src');
      assert.deepEqual(calls(map('apply_patch', patch('*** Add File: ../x.ts', '+x'), sub)), [{ tool: 'write_file', input: { path: join(root, 'x.ts'), content: 'x\n' } }]);
      assert.deepEqual(calls(map('apply_patch', patch('*** Add File: /etc/x', '+x'))), [{ tool: 'write_file', input: { path: '/etc/x', content: 'x\n' } }], 'an absolute path stays as given (the guards refuse it)');
    });

    it('merges the chunks and hunks of one file into one edit call, in order, and drops a trailing empty context line as Codex does', () => {
      const mapping = map('apply_patch', patch('*** Update File: a.ts', '@@', '-a', '+b', '@@', ' c', '-d', '+e', '', '*** Update File: a.ts', '@@', '-f', '+g'));
      assert.deepEqual(calls(mapping), [
        { tool: 'edit_file', input: { path: join(root, 'a.ts') }, edits: [{ search: 'a', replace: 'b', all: false }, { search: 'c\nd', replace: 'c\ne', all: false }, { search: 'f', replace: 'g', all: false }] },
      ]);
    });

    it('refuses, with what to do instead, what it cannot check as part of a patch: a deletion, a move, lines added without context, and text that is not a patch', () => {
      assert.match(reason(map('apply_patch', patch('*** Delete File: a.ts'))), /deletes a\.ts.*delete the file with a shell command \(rm a\.ts\)/);
      assert.match(reason(map('apply_patch', patch('*** Update File: a.ts', '*** Move to: b.ts', '@@', '-x', '+y'))), /moves a\.ts to b\.ts.*git mv or mv/);
      assert.match(reason(map('apply_patch', patch('*** Update File: a.ts', '@@', '+only added'))), /adds lines to a\.ts without any line it removes or keeps.*Include at least one unchanged context line/);
      assert.match(reason(map('apply_patch', { command: 'rm -rf /' })), /cannot read this apply_patch input \(the patch does not start with/);
      assert.match(reason(map('apply_patch', {})), /has no patch text/);
      assert.match(reason(map('apply_patch', patch())), /has no file operation/);
    });

    it('judges view_image as a read of the image, against the payload cwd', () => {
      const event = parsed('pre-view-image');
      assert.ok(event.kind === 'tool');
      assert.deepEqual(calls(map('view_image', event.toolInput)), [{ tool: 'read_file', input: { path: join(root, 'pic.png') } }]);
    });

    it('passes the tools that change no file: questions, goals, tool search, web search and the subagent tools (whose own calls come through the hooks)', () => {
      assert.equal(parsed('pre-update-goal').kind, 'tool');
      for (const tool of PASSED) assert.deepEqual(map(tool, {}), { kind: 'passthrough' }, tool);
    });

    it('lets write_stdin poll a running command but refuses typing into it (0.169 fires no hook for it; a later one might)', () => {
      assert.deepEqual(map('write_stdin', { session_id: 1, chars: '' }), { kind: 'passthrough' });
      assert.match(reason(map('write_stdin', { session_id: 1, chars: 'rm -rf src\n' })), /write_stdin types into a running command.*Run each command on its own with exec_command/);
    });

    it("refuses another MCP server's tools and any tool it does not know; the governor's own MCP tools pass", () => {
      assert.deepEqual(map('mcp__intent-governor__select_active_intent', {}), { kind: 'passthrough' });
      assert.match(reason(map('mcp__files__write', {})), /'mcp__files__write' is a tool of another MCP server/);
      assert.match(reason(map('read_mcp_resource', { server: 'files', uri: 'file:///etc/passwd' })), /reads through another MCP server/);
      assert.match(reason(map('request_permissions', {})), /does not know Codex's tool 'request_permissions', so it is refused/);
      assert.match(reason(map('exec', { input: 'tools.exec_command({cmd: "rm -rf ."})' })), /does not know Codex's tool 'exec'/);
    });
  });

  describe('render: what Codex reads back', () => {
    const pre = (): HookEvent => parsed('pre-apply-patch');
    const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

    it('a deny is permissionDecision "deny" with the reason, which Codex shows the model and enforces', () => {
      const reply = codexDialect.render(pre(), { decision: 'deny', reason: '[SCOPE_VIOLATION] nope' });
      assert.equal(reply.exitCode, 0);
      assert.deepEqual(json(reply.stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '[SCOPE_VIOLATION] nope' } });
    });

    it('an ask, or a hook that stops the agent, is a deny with the reason: Codex would run the tool on "ask" or "continue: false"', () => {
      const ask = json(codexDialect.render(pre(), { decision: 'ask', reason: 'Intent Governor asks a human: Destructive command' }).stdout);
      assert.deepEqual(Object.keys(ask), ['hookSpecificOutput']);
      const specific = ask.hookSpecificOutput as Record<string, string>;
      assert.equal(specific.permissionDecision, 'deny');
      assert.match(specific.permissionDecisionReason, /^Intent Governor asks a human: Destructive command\. Codex cannot ask a person from a hook, so the call is refused/);
      const stop = json(codexDialect.render(pre(), { decision: 'allow', stop: 'budget spent' }).stdout);
      assert.deepEqual(stop, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'budget spent' } });
    });

    it('an allow says nothing (a bare "allow" is invalid to Codex), or carries the rewritten input and the context for the model', () => {
      assert.equal(codexDialect.render(pre(), { decision: 'allow' }).stdout, '');
      const rewritten = { command: '*** Begin Patch\n*** Add File: b.txt\n+x\n*** End Patch\n' };
      assert.deepEqual(json(codexDialect.render(pre(), { decision: 'allow', updatedInput: rewritten, context: 'note', systemMessage: 'for you' }).stdout), {
        systemMessage: 'for you',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: rewritten, additionalContext: 'note' },
      });
      assert.deepEqual(json(codexDialect.render(pre(), { decision: 'allow', context: 'note' }).stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note' } });
    });

    it("answers the other events in the shapes Codex accepts: SessionStart's context, a Stop block without hookSpecificOutput, a PostToolUse block", () => {
      assert.deepEqual(json(codexDialect.render(parsed('session-start'), { decision: 'allow', context: 'Intent: auth-refactor' }).stdout), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Intent: auth-refactor' } });
      assert.deepEqual(json(codexDialect.render(parsed('stop'), { decision: 'deny', reason: 'tests fail', context: 'see log' }).stdout), { decision: 'block', reason: 'tests fail', systemMessage: 'see log' });
      assert.deepEqual(json(codexDialect.render(parsed('post-bash'), { decision: 'deny', reason: 'undo it' }).stdout), { decision: 'block', reason: 'undo it' });
    });

    it('a failure exits 2 with the reason on stderr, the one failure Codex treats as a block', () => {
      assert.deepEqual(codexDialect.renderFailure('timed out'), { exitCode: 2, stdout: '', stderr: 'Intent Governor blocked this call: timed out\n' });
    });
  });
});
