import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copilotDialect } from '../../../../../src/core/agents/copilot/copilotDialect';
import { DIALECTS } from '../../../../../src/core/agents/registry';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { NativeCall, ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/**
 * The tools GitHub Copilot CLI 1.0.102 offers the model in prompt mode, as the real binary sends them in its first
 * request (the agent suite checks the Claude list against the binary): to Claude models, and to GPT models (apply_patch
 * and rg instead of create, edit and grep). Then the ones it has in other modes and for other models.
 */
const OFFERED_TO_CLAUDE = ['bash', 'create', 'edit', 'fetch_copilot_cli_documentation', 'glob', 'grep', 'list_agents', 'list_bash', 'read_agent', 'read_bash', 'session_store_sql', 'skill', 'sql', 'stop_bash', 'task', 'view', 'write_agent'];
const OFFERED_TO_GPT = ['apply_patch', 'bash', 'fetch_copilot_cli_documentation', 'glob', 'list_agents', 'list_bash', 'read_agent', 'read_bash', 'rg', 'session_store_sql', 'skill', 'sql', 'stop_bash', 'task', 'view', 'write_agent'];
const OTHER_MODES = ['ask_user', 'write_bash', 'powershell', 'read_powershell', 'write_powershell', 'stop_powershell', 'list_powershell', 'str_replace_editor', 'update_todo', 'exit_plan_mode', 'task_complete', 'web_fetch', 'web_search', 'store_memory', 'read_memories', 'vote_memory'];

/** A valid input for each governed tool (what the model sends). */
function inputFor(tool: string, root: string): Record<string, unknown> {
  const file = join(root, 'src/auth/login.ts');
  const inputs: Record<string, Record<string, unknown>> = {
    bash: { command: 'ls', description: 'list' },
    create: { path: join(root, 'src/auth/new.ts'), file_text: 'x\n' },
    edit: { path: file, old_str: 'a', new_str: 'b' },
    view: { path: file },
    apply_patch: { input: '*** Begin Patch\n*** Add File: src/auth/p.ts\n+p\n*** End Patch\n' },
    str_replace_editor: { command: 'view', path: file },
  };
  return inputs[tool] ?? {};
}

function parsed(fixture: string, root: string): HookEvent {
  const result = copilotDialect.parse(JSON.parse(hookFixture('copilot', fixture, root)));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.event;
}

function governed(mapping: ToolMapping): NativeCall[] {
  assert.equal(mapping.kind, 'governed', JSON.stringify(mapping));
  return mapping.kind === 'governed' ? mapping.calls : [];
}

function reasonOf(mapping: ToolMapping): string {
  assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
  return mapping.kind === 'refused' ? mapping.reason : '';
}

describe('GitHub Copilot CLI dialect', () => {
  let root: string;
  const place = (cwd = root) => ({ cwd, workspace: root });
  const map = (tool: string, input: Record<string, unknown>, cwd = root) => copilotDialect.mapTool(tool, input, place(cwd));
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-copilot-')));
  });
  afterEach(() => removeTree(root));

  it('is `governor hook copilot`, traced as copilot-cli', () => {
    assert.equal(DIALECTS.copilot, copilotDialect);
    assert.equal(copilotDialect.agentName, 'copilot-cli');
  });

  describe('parse (camelCase payloads, told apart by their fields)', () => {
    it('reads preToolUse and postToolUse as the tool phases, with the payload cwd and the rest as fields for the user hooks', () => {
      assert.deepEqual(parsed('pre-create-in-scope', root), {
        kind: 'tool', phase: 'pre', eventName: 'preToolUse', sessionId: '2d906b8e-c8f7-4987-8096-b4eff854c5f7', cwd: root, toolName: 'create',
        toolInput: { path: join(root, 'src/auth/token.ts'), file_text: 'export const token = 1;\n' }, fields: {},
      });
      const post = parsed('post-create', root);
      assert.equal(post.kind === 'tool' && post.phase, 'post');
      assert.equal(post.kind === 'tool' && post.eventName, 'postToolUse');
      assert.deepEqual(post.kind === 'tool' && post.fields?.tool_response, { resultType: 'success', textResultForLlm: `Created file ${root}/src/auth/token.ts with 24 characters` });
    });

    it('reads a failed tool (an `error`, no toolResult) as PostToolUseFailure, the event a Claude-format hook expects', () => {
      const failed = parsed('post-view-failure', root);
      assert.equal(failed.kind === 'tool' && failed.phase, 'post');
      assert.equal(failed.kind === 'tool' && failed.eventName, 'PostToolUseFailure');
    });

    it("hands apply_patch's freeform text on as {input}", () => {
      const event = parsed('pre-apply-patch', root);
      assert.equal(event.kind === 'tool' && typeof event.toolInput.input, 'string');
      assert.match(event.kind === 'tool' ? String(event.toolInput.input) : '', /^\*\*\* Begin Patch/);
    });

    it("puts a subagent's call in the session that started it, keeping the subagent's id for the user hooks", () => {
      const event = parsed('pre-subagent-create', root);
      assert.equal(event.kind === 'tool' && event.sessionId, '2d906b8e-c8f7-4987-8096-b4eff854c5f7');
      assert.equal(event.kind === 'tool' && event.fields?.agent_id, '1481e032-0336-4069-bb4a-1e27364c6d71');
    });

    it("names Copilot CLI's lifecycle events as the user hooks know them", () => {
      const names = Object.fromEntries(['session-start', 'user-prompt-submitted', 'agent-stop', 'subagent-start', 'subagent-stop', 'pre-compact'].map((f) => {
        const event = parsed(f, root);
        return [f, event.kind === 'context' ? event.hookEvent : event.kind];
      }));
      assert.deepEqual(names, { 'session-start': 'SessionStart', 'user-prompt-submitted': 'UserPromptSubmit', 'agent-stop': 'Stop', 'subagent-start': 'SubagentStart', 'subagent-stop': 'SubagentStop', 'pre-compact': 'PreCompact' });
      assert.equal(parsed('session-end', root).kind, 'end');
      const prompt = parsed('user-prompt-submitted', root);
      assert.equal(prompt.kind === 'context' && prompt.fields?.prompt, 'Add a token helper to the auth module.');
      const stop = parsed('agent-stop', root);
      assert.equal(stop.kind === 'context' && typeof stop.fields?.transcript_path, 'string');
    });

    it('refuses to read a tool call without a session or arguments, and a payload in VS Code\'s format', () => {
      assert.equal(copilotDialect.parse({ cwd: root, toolName: 'create', toolArgs: {} }).ok, false);
      assert.equal(copilotDialect.parse({ sessionId: 's', cwd: root, toolName: 'create' }).ok, false);
      assert.equal(copilotDialect.parse({ sessionId: 's', cwd: root, toolName: 'create', toolArgs: 3 }).ok, false);
      assert.equal(copilotDialect.parse([]).ok, false);
    });

    it("reads a payload in VS Code's format (VS Code's agent runs this file too) as VS Code sends it, its tools unknown here", () => {
      const event = parsed('pre-write-vscode-format', root);
      assert.equal(event.kind === 'tool' && event.toolName, 'Write');
      assert.match(reasonOf(map('Write', event.kind === 'tool' ? event.toolInput : {})), /does not know Copilot CLI's tool 'Write'/);
    });

    it('reads its own camelCase input as its own even if a later version names the event in it', () => {
      const result = copilotDialect.parse({ sessionId: 's', hook_event_name: 'preToolUse', timestamp: 1, cwd: root, toolName: 'create', toolArgs: { path: 'a', file_text: '' } });
      assert.ok(result.ok && result.event.kind === 'tool' && result.event.toolName === 'create' && result.event.phase === 'pre');
    });

    it('refuses events it was not installed for, naming them, rather than giving no opinion', () => {
      const permission = copilotDialect.parse({ hookName: 'permissionRequest', sessionId: 's', cwd: root, toolName: 'edit', toolInput: {} });
      assert.ok(!permission.ok && /'permissionRequest' is not a hook event/.test(permission.message));
      const error = copilotDialect.parse({ sessionId: 's', cwd: root, error: { message: 'x', name: 'Error' }, errorContext: 'system', recoverable: true });
      assert.equal(error.ok, false);
    });
  });

  describe('mapTool (every tool of the binary)', () => {
    it('maps every tool it offers the model, to a governed call or as read-only; none is unknown', () => {
      for (const tool of new Set([...OFFERED_TO_CLAUDE, ...OFFERED_TO_GPT, ...OTHER_MODES])) {
        const mapping = map(tool, inputFor(tool, root));
        if (mapping.kind === 'refused') assert.doesNotMatch(mapping.reason, /does not know/, tool);
      }
    });

    it('governs create, edit and view as write_file, edit_file and read_file, and bash as run_command in the working directory', () => {
      const file = join(root, 'src/auth/login.ts');
      assert.deepEqual(governed(map('create', { path: file, file_text: 'x\n' })), [{ tool: 'write_file', input: { path: file, content: 'x\n' } }]);
      assert.deepEqual(governed(map('edit', { path: file, old_str: 'a', new_str: 'b' })), [{ tool: 'edit_file', input: { path: file }, edits: [{ search: 'a', replace: 'b', all: false }] }]);
      assert.deepEqual(governed(map('view', { path: file, view_range: [1, 2] })), [{ tool: 'read_file', input: { path: file } }]);
      assert.deepEqual(governed(map('bash', { command: 'npm test', description: 'test', mode: 'async' }, join(root, 'src'))), [{ tool: 'run_command', input: { command: 'npm test', cwd: join(root, 'src') } }]);
    });

    it('lets a view of a directory through: it lists names, as glob does (the workspace root included)', async () => {
      await mkdir(join(root, 'src'), { recursive: true });
      assert.deepEqual(map('view', { path: root }), { kind: 'passthrough' });
      assert.deepEqual(map('view', { path: 'src' }), { kind: 'passthrough' });
      assert.deepEqual(map('str_replace_editor', { command: 'view', path: root }), { kind: 'passthrough' });
    });

    it('resolves a relative path against the working directory, without expanding "~" (Copilot CLI makes a folder named "~")', () => {
      const cwd = join(root, 'src', 'other');
      assert.deepEqual(governed(map('create', { path: '../auth/x.ts', file_text: '' }, cwd)), [{ tool: 'write_file', input: { path: join(root, 'src/auth/x.ts'), content: '' } }]);
      assert.deepEqual(governed(map('view', { path: '~/notes.md' }, cwd)), [{ tool: 'read_file', input: { path: join(cwd, '~', 'notes.md') } }]);
    });

    it('refuses a create or edit it cannot check (no path, no text, an empty old_str Copilot CLI would reject too)', () => {
      assert.match(reasonOf(map('create', { path: 'x' })), /Copilot CLI's create call has no path and file_text/);
      assert.match(reasonOf(map('edit', { path: 'x', old_str: '', new_str: 'y' })), /has no path, old_str and new_str/);
      assert.match(reasonOf(map('bash', {})), /has no command/);
    });

    it('turns an apply_patch into a write per added file and an edit per updated one, paths against the working directory', () => {
      const patch = '*** Begin Patch\n*** Add File: auth/p.ts\n+hello\n*** Update File: auth/login.ts\n@@\n context\n-old\n+new\n@@ class A\n-x\n+y\n*** End Patch\n';
      assert.deepEqual(governed(map('apply_patch', { input: patch }, join(root, 'src'))), [
        { tool: 'write_file', input: { path: join(root, 'src/auth/p.ts'), content: 'hello\n' } },
        { tool: 'edit_file', input: { path: join(root, 'src/auth/login.ts') }, edits: [{ search: 'context\nold', replace: 'context\nnew', all: false }, { search: 'x', replace: 'y', all: false }] },
      ]);
    });

    it('refuses an apply_patch that deletes, moves, only adds lines or cannot be read, saying what to do instead', () => {
      assert.match(reasonOf(map('apply_patch', { input: '*** Begin Patch\n*** Delete File: a.ts\n*** End Patch' })), /deletes a\.ts.*rm a\.ts/);
      assert.match(reasonOf(map('apply_patch', { input: '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-a\n+b\n*** End Patch' })), /moves a\.ts to b\.ts/);
      assert.match(reasonOf(map('apply_patch', { input: '*** Begin Patch\n*** Update File: a.ts\n@@\n+b\n*** End Patch' })), /Include at least one unchanged context line/);
      assert.match(reasonOf(map('apply_patch', { input: 'diff --git a/x b/x' })), /cannot read this apply_patch input/);
    });

    it("maps str_replace_editor's commands like the tools they stand for, and refuses the ones it cannot check", () => {
      const file = join(root, 'a.ts');
      assert.deepEqual(governed(map('str_replace_editor', { command: 'str_replace', path: file, old_str: 'a', new_str: 'b' })), [{ tool: 'edit_file', input: { path: file }, edits: [{ search: 'a', replace: 'b', all: false }] }]);
      assert.deepEqual(governed(map('str_replace_editor', { command: 'create', path: file, file_text: '' })), [{ tool: 'write_file', input: { path: file, content: '' } }]);
      assert.match(reasonOf(map('str_replace_editor', { command: 'insert', path: file, insert_line: 1, new_str: 'x' })), /cannot check str_replace_editor's 'insert' command/);
    });

    it('refuses typing into a running shell and PowerShell commands, with what to do instead', () => {
      assert.match(reasonOf(map('write_bash', { shellId: '1', input: 'rm -rf /\n' })), /types into a running shell.*bash tool in sync mode/);
      assert.match(reasonOf(map('powershell', { command: 'Remove-Item x' })), /POSIX shell commands only/);
    });

    it("passes the governor's own MCP tools, hands another server's `<server>-<tool>` to the plan's mcp_tools with every reading, and refuses any tool it does not know", () => {
      assert.deepEqual(map('intent-governor-write_file', { path: 'x', content: '' }), { kind: 'passthrough' });
      const foreign = (name: string) => {
        const mapping = map(name, {});
        return mapping.kind === 'refused' ? mapping.foreign : mapping.kind;
      };
      assert.match(reasonOf(map('intent-governor-evil-write_file', {})), /'intent-governor-evil-write_file' is a tool of another MCP server/);
      assert.deepEqual(foreign('other-list_intents'), { server: 'other', tool: 'list_intents' });
      assert.deepEqual(foreign('github-mcp-server-create_or_update_file'), {
        server: 'github',
        tool: 'mcp-server-create_or_update_file',
        ambiguous: { separator: '-', others: [{ server: 'github-mcp', tool: 'server-create_or_update_file' }, { server: 'github-mcp-server', tool: 'create_or_update_file' }] },
      });
      assert.match(reasonOf(map('open_canvas', {})), /does not know Copilot CLI's tool 'open_canvas'/);
    });
  });

  describe('render', () => {
    const pre = (): HookEvent => parsed('pre-create-in-scope', root);
    const out = (event: HookEvent, answer: Parameters<typeof copilotDialect.render>[1]) => {
      const reply = copilotDialect.render(event, answer);
      assert.equal(reply.exitCode, 0);
      return reply.stdout === '' ? undefined : JSON.parse(reply.stdout);
    };

    it('says nothing on a plain allow, so Copilot CLI\'s own permissions still apply', () => {
      assert.equal(out(pre(), { decision: 'allow' }), undefined);
    });

    it('answers a refusal and an ask with permissionDecision and the reason the model reads (and as VS Code reads it, which runs this file too)', () => {
      const both = (decision: string, reason: string) => ({ permissionDecision: decision, permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } });
      assert.deepEqual(out(pre(), { decision: 'deny', reason: '[SCOPE_VIOLATION] no' }), both('deny', '[SCOPE_VIOLATION] no'));
      assert.deepEqual(out(pre(), { decision: 'ask', reason: 'a human decides' }), both('ask', 'a human decides'));
      assert.deepEqual(out(pre(), { decision: 'allow', stop: 'stop now' }), both('deny', 'stop now'));
    });

    it('carries a rewritten input as modifiedArgs, and a rewritten patch as its text', () => {
      assert.deepEqual(out(pre(), { decision: 'allow', updatedInput: { path: '/x', file_text: '' } }), { permissionDecision: 'allow', modifiedArgs: { path: '/x', file_text: '' } });
      assert.deepEqual(out(parsed('pre-apply-patch', root), { decision: 'allow', updatedInput: { input: '*** Begin Patch\n*** End Patch' } }), { permissionDecision: 'allow', modifiedArgs: '*** Begin Patch\n*** End Patch' });
    });

    it('gives sessionStart the handshake as additionalContext, and blocks an agentStop a hook refused', () => {
      assert.deepEqual(out(parsed('session-start', root), { decision: 'allow', context: '# Active intent' }), { additionalContext: '# Active intent' });
      assert.deepEqual(out(parsed('agent-stop', root), { decision: 'deny', reason: 'tests fail' }), { decision: 'block', reason: 'tests fail' });
      assert.equal(out(parsed('session-end', root), { decision: 'allow', context: 'x' }), undefined);
    });

    it('renders a failure as a deny JSON answer (exit 0: the answer does not rest on the exit code)', () => {
      const reply = copilotDialect.renderFailure('the hook input is not valid JSON.');
      assert.equal(reply.exitCode, 0);
      const reason = 'Intent Governor blocked this call: the hook input is not valid JSON.';
      assert.deepEqual(JSON.parse(reply.stdout), { permissionDecision: 'deny', permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
    });
  });
});
