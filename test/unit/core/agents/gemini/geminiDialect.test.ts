import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS } from '../../../../../src/core/agents/registry';
import { geminiDialect, geminiToolPath } from '../../../../../src/core/agents/gemini/geminiDialect';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/**
 * Every tool Gemini CLI 0.61 offers the model in a headless agent turn, as the real binary sends them (the
 * agent suite checks this list against the binary), and the ones it documents for other modes.
 */
const OFFERED = ['update_topic', 'list_directory', 'read_file', 'grep_search', 'glob', 'replace', 'write_file', 'web_fetch', 'run_shell_command', 'list_background_processes', 'read_background_output', 'google_web_search', 'write_todos', 'enter_plan_mode', 'invoke_agent', 'activate_skill'];
const DOCUMENTED = ['ask_user', 'exit_plan_mode', 'get_internal_docs', 'complete_task', 'list_mcp_resources', 'read_mcp_resource', 'read_many_files', 'search_file_content', 'tracker_create_task', 'tracker_update_task', 'tracker_get_task', 'tracker_list_tasks', 'tracker_add_dependency', 'tracker_visualize'];

function parsed(fixture: string, root: string): HookEvent {
  const result = geminiDialect.parse(JSON.parse(hookFixture('gemini', fixture, root)));
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

describe('Gemini CLI dialect', () => {
  let root: string;
  const place = () => ({ cwd: root, workspace: root });
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-gemini-')));
    await mkdir(join(root, 'src', 'auth'), { recursive: true });
    await writeFile(join(root, 'src', 'auth', 'login.ts'), 'export function login() {\n  return false;\n}\n');
  });
  afterEach(() => removeTree(root));

  it('is `governor hook gemini`, traced as gemini-cli', () => {
    assert.equal(DIALECTS.gemini, geminiDialect);
    assert.equal(geminiDialect.agentName, 'gemini-cli');
  });

  describe('parse', () => {
    it('reads BeforeTool and AfterTool as the tool phases, with the payload cwd and the rest as fields for the user hooks', () => {
      const pre = parsed('before-write-file-in-scope', root);
      assert.deepEqual(pre, {
        kind: 'tool', phase: 'pre', eventName: 'BeforeTool', sessionId: '8934d22d-9d34-46d6-94ab-ebe2ea23dd81', cwd: root, toolName: 'write_file',
        toolInput: { file_path: 'src/auth/token.ts', content: 'export const token = 1;\n' },
        fields: { transcript_path: '/home/user/.gemini/tmp/ws/chats/session-2026-11-23T12-05-8934d22d.jsonl', timestamp: '2026-11-23T12:05:19.851Z' },
      });
      const post = parsed('after-write-file', root);
      assert.equal(post.kind === 'tool' && post.phase, 'post');
      assert.equal(post.kind === 'tool' && post.eventName, 'AfterTool');
      assert.ok(post.kind === 'tool' && post.fields?.tool_response, 'the tool response reaches the user hooks');
    });

    it('reads an AfterTool whose tool failed as PostToolUseFailure, the event a Claude-format hook expects', () => {
      const failed = parsed('after-replace-failed', root);
      assert.equal(failed.kind === 'tool' && failed.eventName, 'PostToolUseFailure');
    });

    it("names Gemini CLI's lifecycle events as the user hooks know them", () => {
      const names = Object.fromEntries(['session-start', 'before-agent', 'after-agent', 'pre-compress', 'notification'].map((f) => {
        const event = parsed(f, root);
        return [f, event.kind === 'context' ? event.hookEvent : event.kind];
      }));
      assert.deepEqual(names, { 'session-start': 'SessionStart', 'before-agent': 'UserPromptSubmit', 'after-agent': 'Stop', 'pre-compress': 'PreCompact', notification: 'Notification' });
      assert.equal(parsed('session-end', root).kind, 'end');
      assert.equal(parsed('before-agent', root).kind === 'context' && (parsed('before-agent', root) as { fields?: Record<string, unknown> }).fields?.prompt, 'Add a token helper to the auth module.');
    });

    it('refuses events it is not installed for (BeforeModel, AfterModel, BeforeToolSelection) and a tool event it cannot read', () => {
      for (const name of ['BeforeModel', 'AfterModel', 'BeforeToolSelection']) {
        const parsed = geminiDialect.parse({ hook_event_name: name, session_id: 's', cwd: root });
        assert.ok(!parsed.ok && parsed.message.includes(`'${name}' is not a hook event`));
      }
      assert.equal(geminiDialect.parse({ hook_event_name: 'BeforeTool', session_id: 's', cwd: root, tool_name: 'write_file' }).ok, false);
      assert.equal(geminiDialect.parse({ hook_event_name: 'BeforeTool', cwd: root, tool_name: 'write_file', tool_input: {} }).ok, false);
      assert.equal(geminiDialect.parse([]).ok, false);
    });
  });

  describe('tool table', () => {
    it('knows every tool the binary offers and every documented one: none falls through to "unknown"', () => {
      for (const tool of [...OFFERED, ...DOCUMENTED]) {
        const mapping = geminiDialect.mapTool(tool, {}, place());
        if (mapping.kind === 'refused') assert.doesNotMatch(mapping.reason, /does not know/, tool);
      }
    });

    it('maps write_file, replace, run_shell_command and read_file to the governed calls, against the payload cwd', () => {
      assert.deepEqual(governed(geminiDialect.mapTool('write_file', { file_path: 'src/auth/t.ts', content: 'x' }, place())), [{ tool: 'write_file', input: { path: join(root, 'src/auth/t.ts'), content: 'x' } }]);
      assert.deepEqual(governed(geminiDialect.mapTool('replace', { file_path: 'src/auth/login.ts', instruction: 'i', old_string: 'false', new_string: 'true' }, place())), [
        { tool: 'edit_file', input: { path: join(root, 'src/auth/login.ts') }, edits: [{ search: 'false', replace: 'true', all: false }] },
      ]);
      assert.deepEqual(governed(geminiDialect.mapTool('replace', { file_path: join(root, 'src/auth/login.ts'), old_string: 'a', new_string: 'b', allow_multiple: true }, place()))[0], {
        tool: 'edit_file', input: { path: join(root, 'src/auth/login.ts') }, edits: [{ search: 'a', replace: 'b', all: true }],
      });
      assert.deepEqual(governed(geminiDialect.mapTool('run_shell_command', { command: 'ls', dir_path: 'src' }, place())), [{ tool: 'run_command', input: { command: 'ls', cwd: join(root, 'src') } }]);
      assert.deepEqual(governed(geminiDialect.mapTool('run_shell_command', { command: 'ls' }, place())), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
      assert.deepEqual(governed(geminiDialect.mapTool('read_file', { file_path: 'src/auth/login.ts', start_line: 1 }, place())), [{ tool: 'read_file', input: { path: join(root, 'src/auth/login.ts') } }]);
    });

    it('judges a replace with an empty old_string as the new file it creates', () => {
      assert.deepEqual(governed(geminiDialect.mapTool('replace', { file_path: 'src/auth/new.ts', old_string: '', new_string: 'n\n' }, place())), [{ tool: 'write_file', input: { path: join(root, 'src/auth/new.ts'), content: 'n\n' } }]);
    });

    it('refuses a replace whose relative path Gemini CLI would look up elsewhere in the workspace, saying to give the absolute path', () => {
      const reason = reasonOf(geminiDialect.mapTool('replace', { file_path: 'login.ts', old_string: 'false', new_string: 'true' }, place()));
      assert.match(reason, /relative path "login\.ts".*Give the file's absolute path/);
    });

    it('resolves paths as Gemini CLI 0.61 does: "@" prefix dropped unless it exists, NULs dropped, "~" not expanded', async () => {
      assert.equal(geminiToolPath('@src/auth/login.ts', root), join(root, 'src/auth/login.ts'));
      assert.equal(geminiToolPath('@/src/a.ts', root), join(root, 'src/a.ts'));
      await mkdir(join(root, '@scope'));
      assert.equal(geminiToolPath('@scope/a.ts', root), join(root, '@scope/a.ts'));
      assert.equal(geminiToolPath('src/a\0.ts', root), join(root, 'src/a.ts'));
      assert.equal(geminiToolPath('~/a.ts', root), join(root, '~/a.ts'));
      assert.equal(geminiToolPath('/etc/passwd', root), '/etc/passwd');
    });

    it('passes read-only tools and the governor’s own MCP tools, refuses other MCP servers’ tools and tools it does not know', () => {
      for (const tool of ['glob', 'grep_search', 'list_directory', 'web_fetch', 'invoke_agent', 'mcp_intent-governor_select_active_intent']) {
        assert.deepEqual(geminiDialect.mapTool(tool, {}, place()), { kind: 'passthrough' }, tool);
      }
      assert.match(reasonOf(geminiDialect.mapTool('mcp_other_echo', {}, place())), /'mcp_other_echo' is a tool of another MCP server/);
      assert.match(reasonOf(geminiDialect.mapTool('discovered_tool_deploy', {}, place())), /does not know Gemini CLI's tool 'discovered_tool_deploy', so it is refused/);
      assert.match(reasonOf(geminiDialect.mapTool('write_file', { file_path: 'x' }, place())), /write_file call has no file_path and content/);
    });
  });

  describe('render', () => {
    const pre = () => parsed('before-write-file-in-scope', root);

    it('says nothing for a plain allow, so Gemini CLI’s own approval rules still apply', () => {
      assert.deepEqual(geminiDialect.render(pre(), { decision: 'allow' }), { exitCode: 0, stdout: '', stderr: '' });
    });

    it('denies with decision/reason, which Gemini CLI hands the model as the tool error', () => {
      const reply = geminiDialect.render(pre(), { decision: 'deny', reason: '[SCOPE_VIOLATION] no' });
      assert.deepEqual(JSON.parse(reply.stdout), { decision: 'deny', reason: '[SCOPE_VIOLATION] no' });
      assert.equal(reply.exitCode, 0);
    });

    it('refuses a call that needs a person, saying who can approve it: Gemini CLI would wait forever for the answer headless', () => {
      const answer = JSON.parse(geminiDialect.render(pre(), { decision: 'ask', reason: 'Intent Governor asks a human: delete?' }).stdout);
      assert.equal(answer.decision, 'deny');
      assert.match(answer.reason, /^Intent Governor asks a human: delete\? .*approve it in VS Code .* or to run it themselves/);
    });

    it("carries a hook's judged rewrite as hookSpecificOutput.tool_input, and refuses one that drops an argument Gemini CLI would keep", () => {
      const rewritten = { file_path: 'src/auth/moved.ts', content: 'export const token = 1;\n' };
      assert.deepEqual(JSON.parse(geminiDialect.render(pre(), { decision: 'allow', updatedInput: rewritten }).stdout), {
        decision: 'allow', hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: rewritten },
      });
      const dropped = JSON.parse(geminiDialect.render(pre(), { decision: 'allow', updatedInput: { file_path: 'src/auth/moved.ts' } }).stdout);
      assert.equal(dropped.decision, 'deny');
      assert.match(dropped.reason, /without content/);
    });

    it('appends AfterTool context to the tool result and adds the handshake to SessionStart and BeforeAgent', () => {
      assert.deepEqual(JSON.parse(geminiDialect.render(parsed('after-write-file', root), { decision: 'allow', context: 'noted' }).stdout), { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'noted' } });
      for (const fixture of ['session-start', 'before-agent']) {
        const event = parsed(fixture, root);
        assert.deepEqual(JSON.parse(geminiDialect.render(event, { decision: 'allow', context: 'intent' }).stdout), { hookSpecificOutput: { hookEventName: event.kind === 'context' ? event.eventName : '', additionalContext: 'intent' } });
      }
    });

    it('blocks a prompt (BeforeAgent) or sends the agent back to work (AfterAgent) with decision deny, and stops with continue false', () => {
      assert.deepEqual(JSON.parse(geminiDialect.render(parsed('before-agent', root), { decision: 'deny', reason: 'not now' }).stdout), { decision: 'deny', reason: 'not now' });
      assert.deepEqual(JSON.parse(geminiDialect.render(parsed('after-agent', root), { decision: 'deny', reason: 'run the tests' }).stdout), { decision: 'deny', reason: 'run the tests' });
      assert.deepEqual(JSON.parse(geminiDialect.render(parsed('after-agent', root), { decision: 'allow', stop: 'enough' }).stdout), { continue: false, stopReason: 'enough' });
      assert.deepEqual(JSON.parse(geminiDialect.render(parsed('notification', root), { decision: 'allow', context: 'seen' }).stdout), { systemMessage: 'seen' });
    });

    it('fails with exit 2 and the reason on stderr: the one failure Gemini CLI treats as a block', () => {
      assert.deepEqual(geminiDialect.renderFailure('broken'), { exitCode: 2, stdout: '', stderr: 'Intent Governor blocked this call: broken\n' });
    });
  });
});
