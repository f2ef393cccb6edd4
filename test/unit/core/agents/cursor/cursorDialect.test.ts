import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cursorDialect } from '../../../../../src/core/agents/cursor/cursorDialect';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/**
 * Cursor's hook dialect against the payloads of its documentation (test/fixtures/hooks/cursor/README.md names
 * the sources). No Cursor binary runs here; test/unit/cli/cursorHookCommand.test.ts runs the same payloads
 * through the real hook command.
 */
function parsed(fixture: string, root: string, changes: Record<string, unknown> = {}): HookEvent {
  const result = cursorDialect.parse({ ...JSON.parse(hookFixture('cursor', fixture, root)), ...changes });
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.event;
}

function refusedParse(payload: unknown): string {
  const result = cursorDialect.parse(payload);
  assert.equal(result.ok, false, JSON.stringify(result));
  return result.ok ? '' : result.message;
}

function governed(mapping: ToolMapping) {
  assert.equal(mapping.kind, 'governed', JSON.stringify(mapping));
  return mapping.kind === 'governed' ? mapping.calls : [];
}

function reasonOf(mapping: ToolMapping): string {
  assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
  return mapping.kind === 'refused' ? mapping.reason : '';
}

function tool(event: HookEvent): Extract<HookEvent, { kind: 'tool' }> {
  assert.equal(event.kind, 'tool');
  return event as Extract<HookEvent, { kind: 'tool' }>;
}

describe('Cursor dialect', () => {
  let root: string;
  const place = () => ({ cwd: root, workspace: root });
  const map = (name: string, input: Record<string, unknown>) => cursorDialect.mapTool(name, input, place());
  const mapEvent = (event: HookEvent) => {
    const t = tool(event);
    return cursorDialect.mapTool(t.toolName, t.toolInput, { cwd: t.cwd ?? root, workspace: root });
  };
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-cursor-')));
    await mkdir(join(root, 'src', 'auth'), { recursive: true });
  });
  afterEach(() => removeTree(root));

  describe('parse', () => {
    it('reads preToolUse and postToolUse as the two phases of one call (same tool_use_id), in the workspace root', () => {
      const pre = tool(parsed('pre-tool-use-write-in-scope', root));
      assert.deepEqual([pre.phase, pre.eventName, pre.sessionId, pre.toolName, pre.toolUseId, pre.cwd], ['pre', 'preToolUse', '668320d2-2fd8-4888-b33c-2a466fec86e7', 'Write', 'toolu_01write', root]);
      assert.deepEqual(pre.toolInput, { file_path: `${root}/src/auth/token.ts`, content: 'export const token = 1;\n' });
      assert.equal(pre.fields?.generation_id, '490b90b7-a2ce-4c2c-bb76-cb77b125df2f', 'the rest of the payload goes to the user hooks');
      const post = tool(parsed('post-tool-use-write', root));
      assert.deepEqual([post.phase, post.eventName, post.toolUseId], ['post', 'postToolUse', 'toolu_01write']);
      assert.equal(post.fields?.tool_output, 'Wrote 1 line to src/auth/token.ts');
    });

    it('runs the user’s PostToolUseFailure hooks for postToolUseFailure', () => {
      const failed = tool(parsed('post-tool-use-failure', root));
      assert.deepEqual([failed.phase, failed.eventName, failed.toolName], ['post', 'PostToolUseFailure', 'Shell']);
    });

    it("takes a Shell call's place from the payload's cwd, a file tool's from the workspace root", () => {
      const sub = join(root, 'src');
      assert.equal(tool(parsed('pre-tool-use-shell-safe', root, { cwd: sub })).cwd, sub);
      assert.equal(tool(parsed('pre-tool-use-write-in-scope', root, { cwd: sub })).cwd, root);
      assert.equal(tool(parsed('pre-tool-use-shell-safe', root, { cwd: '' })).cwd, root, 'cursor-agent sends cwd ""');
    });

    it('reads an MCP tool_input sent as JSON text, and a freeform tool’s text as {input}', () => {
      assert.deepEqual(tool(parsed('pre-tool-use-mcp-other', root, { tool_input: '{"query":"x"}' })).toolInput, { query: 'x' });
      assert.deepEqual(tool(parsed('pre-tool-use-mcp-other', root, { tool_name: 'ApplyPatch', tool_input: '*** Begin Patch' })).toolInput, { input: '*** Begin Patch' });
    });

    it('reads the first events with the payload as the input and the event as the tool', () => {
      const shell = tool(parsed('before-shell-safe', root));
      assert.deepEqual([shell.phase, shell.toolName, shell.cwd], ['pre', 'beforeShellExecution', root]);
      assert.equal(shell.toolUseId, '490b90b7-a2ce-4c2c-bb76-cb77b125df2f:beforeShellExecution:git status');
      for (const [fixture, phase] of [['before-read-file', 'pre'], ['before-mcp-execution-other', 'pre'], ['after-file-edit', 'post'], ['after-shell-execution', 'post'], ['after-mcp-execution', 'post']] as const) {
        assert.equal(tool(parsed(fixture, root)).phase, phase, fixture);
      }
    });

    it('reads the session events as context (user hooks, the handshake) and sessionEnd as the end', () => {
      const events: [string, string][] = [['session-start', 'SessionStart'], ['before-submit-prompt', 'UserPromptSubmit'], ['stop', 'Stop'], ['subagent-start', 'SubagentStart'], ['subagent-stop', 'SubagentStop'], ['pre-compact', 'PreCompact']];
      for (const [fixture, hookEvent] of events) {
        const event = parsed(fixture, root);
        assert.equal(event.kind, 'context', fixture);
        assert.equal(event.kind === 'context' ? event.hookEvent : '', hookEvent, fixture);
      }
      assert.equal(parsed('session-end', root).kind, 'end');
      assert.equal(parsed('session-start', root, { conversation_id: undefined }).kind, 'context', 'sessionStart names its session_id too');
    });

    it('refuses an event it does not know, a misspelled one, and a payload without what its event needs', () => {
      const write = JSON.parse(hookFixture('cursor', 'pre-tool-use-write-in-scope', root)) as Record<string, unknown>;
      assert.match(refusedParse({ ...write, hook_event_name: 'pretooluse' }), /hook event 'pretooluse' is not one Intent Governor knows/);
      assert.match(refusedParse({ ...write, hook_event_name: 'afterAgentThought' }), /'afterAgentThought' is not one/);
      assert.match(refusedParse({ ...write, hook_event_name: undefined }), /no hook_event_name/);
      assert.match(refusedParse({ ...write, conversation_id: '' }), /no conversation_id/);
      assert.match(refusedParse({ ...write, tool_name: undefined }), /no tool_name/);
      assert.match(refusedParse({ ...write, tool_input: 42 }), /no tool_input/);
      assert.match(refusedParse([write]), /not a JSON object/);
      assert.match(refusedParse({ ...JSON.parse(hookFixture('cursor', 'stop', root)), conversation_id: undefined }), /stop input has no conversation_id/);
    });
  });

  describe('the tool table', () => {
    it('Write → write_file with its content; without its content, the path is judged and the change traced after', () => {
      assert.deepEqual(governed(mapEvent(parsed('pre-tool-use-write-in-scope', root))), [{ tool: 'write_file', input: { path: `${root}/src/auth/token.ts`, content: 'export const token = 1;\n' } }]);
      assert.deepEqual(governed(map('Write', { path: 'src/a.ts', contents: 'x' })), [{ tool: 'write_file', input: { path: `${root}/src/a.ts`, content: 'x' } }]);
      assert.deepEqual(governed(map('TabWrite', { file_path: 'src/a.ts' })), [{ tool: 'edit_file', input: { path: `${root}/src/a.ts` }, edits: [] }]);
      assert.deepEqual(governed(map('Write', { file_path: pathToFileURL(join(root, 'b.ts')).href, content: '' })), [{ tool: 'write_file', input: { path: join(root, 'b.ts'), content: '' } }]);
    });

    it('StrReplace / Edit / MultiEdit → edit_file with their replacements', () => {
      assert.deepEqual(governed(mapEvent(parsed('pre-tool-use-str-replace-in-scope', root))), [{ tool: 'edit_file', input: { path: `${root}/src/auth/login.ts` }, edits: [{ search: 'return false;', replace: 'return true;', all: false }] }]);
      assert.deepEqual(governed(map('StrReplace', { file_path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: true }))[0], { tool: 'edit_file', input: { path: `${root}/a.ts` }, edits: [{ search: 'a', replace: 'b', all: true }] });
      assert.deepEqual(governed(map('MultiEdit', { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] }))[0], { tool: 'edit_file', input: { path: `${root}/a.ts` }, edits: [{ search: 'a', replace: 'b', all: false }, { search: 'c', replace: 'd', all: false }] });
      assert.deepEqual(governed(map('Edit', { target_file: 'a.ts', instructions: 'x', code_edit: '// ... existing code ...' })), [{ tool: 'edit_file', input: { path: `${root}/a.ts` }, edits: [] }]);
    });

    it('refuses a file call without its path, with half a replacement, or with two spellings that disagree', () => {
      assert.match(reasonOf(map('Write', { content: 'x' })), /Write call has no file path/);
      assert.match(reasonOf(map('StrReplace', { file_path: 'a.ts', old_string: 'a' })), /has no old_string and new_string/);
      assert.match(reasonOf(map('Write', { file_path: 'src/a.ts', path: 'docs/a.ts', content: 'x' })), /names file_path and path with different or non-text values/);
      assert.match(reasonOf(map('Write', { file_path: 'src/a.ts', content: 'x', contents: 'y' })), /names content and contents/);
      assert.match(reasonOf(map('Read', { file_path: 42 })), /with different or non-text values/);
      assert.match(reasonOf(map('StrReplace', { file_path: 'a.ts', old_string: 'a', new_string: 'b', edits: [{ old_string: 'c', new_string: 'd' }] })), /both old_string\/new_string and edits/);
      assert.match(reasonOf(map('MultiEdit', { file_path: 'a.ts', edits: [{ old_string: 'a' }] })), /has no edits/);
    });

    it('Delete → the rm command it amounts to, quoted, in the workspace root', () => {
      assert.deepEqual(governed(map('Delete', { file_path: "docs/it's.md" })), [{ tool: 'run_command', input: { command: `rm -- '${root}/docs/it'\\''s.md'`, cwd: root } }]);
    });

    it('Shell → run_command in its working directory, else where the agent stands', () => {
      assert.deepEqual(governed(mapEvent(parsed('pre-tool-use-shell-redirect', root))), [{ tool: 'run_command', input: { command: 'echo x > docs/evil.ts', cwd: root } }]);
      assert.deepEqual(governed(map('Shell', { command: 'ls', working_directory: 'src' })), [{ tool: 'run_command', input: { command: 'ls', cwd: join(root, 'src') } }]);
      assert.deepEqual(governed(map('Shell', { command: 'ls' })), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
      assert.match(reasonOf(map('Shell', { command: '  ' })), /Shell call has no command/);
    });

    it('Read → read_file; searches, the web, todos and subagents pass through', () => {
      assert.deepEqual(governed(mapEvent(parsed('pre-tool-use-read', root))), [{ tool: 'read_file', input: { path: `${root}/src/auth/login.ts` } }]);
      for (const name of ['Grep', 'Glob', 'LS', 'SemanticSearch', 'WebSearch', 'WebFetch', 'TodoWrite', 'ReadLints', 'Task']) assert.equal(map(name, {}).kind, 'passthrough', name);
    });

    it('ApplyPatch → a write per added file and a judged change per updated one; deletions and moves are refused', () => {
      const patch = '*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** Update File: src/auth/login.ts\n@@\n-a\n+b\n*** End Patch';
      assert.deepEqual(governed(map('ApplyPatch', { input: patch })), [
        { tool: 'write_file', input: { path: `${root}/src/new.ts`, content: 'x\n' } },
        { tool: 'edit_file', input: { path: `${root}/src/auth/login.ts` }, edits: [] },
      ]);
      assert.match(reasonOf(map('ApplyPatch', { patch: '*** Begin Patch\n*** Delete File: a.ts\n*** End Patch' })), /deletes a\.ts/);
      assert.match(reasonOf(map('ApplyPatch', { patch: '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-a\n+b\n*** End Patch' })), /moves a\.ts to b\.ts/);
      assert.match(reasonOf(map('ApplyPatch', { patch: 'not a patch' })), /cannot read this ApplyPatch input/);
    });

    it('refuses a tool it does not know (fail closed), whatever it is called', () => {
      for (const name of ['NotebookEdit', 'write', 'Bash', 'constructor', 'toString']) assert.match(reasonOf(map(name, {})), new RegExp(`does not know Cursor's tool '${name}'`), name);
    });

    it("lets the governor's own MCP tools through and refuses every other server's", () => {
      for (const name of ['MCP:select_active_intent', 'MCP:intent-governor:write_file', 'MCP: read_file']) assert.equal(map(name, {}).kind, 'passthrough', name);
      for (const name of ['MCP:database_query', 'MCP:github:create_issue', 'MCP:other:read_file', 'MCP:', 'MCP:intent-governor:agent_hook']) assert.match(reasonOf(map(name, {})), /is a tool of an MCP server other than Intent Governor's/, name);
    });

    it("beforeMCPExecution: the governor's server by its name, its loopback /mcp URL or its launch command; anything else refused", () => {
      const mcp = (fields: Record<string, unknown>) => cursorDialect.mapTool('beforeMCPExecution', { tool_name: 'select_active_intent', tool_input: '{}', ...fields }, place());
      assert.equal(mapEvent(parsed('before-mcp-execution-own', root)).kind, 'passthrough');
      for (const ours of [{ server_name: 'intent-governor' }, { url: 'http://localhost:5000/mcp' }, { command: 'node "/opt/ig/dist/cli.js" mcp --workspace "/w"' }, { command: 'governor mcp' }]) assert.equal(mcp(ours).kind, 'passthrough', JSON.stringify(ours));
      for (const other of [{}, { server_name: 'db', url: 'http://127.0.0.1:1/mcp' }, { url: 'https://mcp.example.com/mcp' }, { url: 'http://127.0.0.1:1/sse' }, { url: 'not a url' }, { command: 'npx mcp-server' }]) assert.equal(mcp(other).kind, 'refused', JSON.stringify(other));
      assert.match(reasonOf(mapEvent(parsed('before-mcp-execution-other', root))), /'database_query' is a tool of an MCP server other/);
      assert.match(reasonOf(cursorDialect.mapTool('beforeMCPExecution', { url: 'http://127.0.0.1:1/mcp', tool_name: 'database_query' }, place())), /'database_query'/);
      assert.match(reasonOf(cursorDialect.mapTool('beforeMCPExecution', {}, place())), /beforeMCPExecution call has no tool_name/);
    });

    it('maps the first events: shell commands in their cwd, reads, and edits for the trace', () => {
      assert.deepEqual(governed(mapEvent(parsed('before-shell-out-of-scope', root, { cwd: join(root, 'src') }))), [{ tool: 'run_command', input: { command: 'echo x > src/billing/invoice.ts', cwd: join(root, 'src') } }]);
      assert.deepEqual(governed(mapEvent(parsed('after-shell-execution', root))), [{ tool: 'run_command', input: { command: 'git status', cwd: root } }]);
      assert.deepEqual(governed(mapEvent(parsed('before-read-file', root))), [{ tool: 'read_file', input: { path: `${root}/src/auth/login.ts` } }]);
      assert.deepEqual(governed(mapEvent(parsed('after-file-edit', root))), [{ tool: 'edit_file', input: { path: `${root}/src/auth/login.ts` }, edits: [{ search: 'return false;', replace: 'return true;', all: false }] }]);
      assert.match(reasonOf(mapEvent(parsed('after-file-edit', root, { edits: [] }))), /afterFileEdit call has no file_path and edits/);
      assert.match(reasonOf(mapEvent(parsed('before-shell-safe', root, { command: undefined }))), /beforeShellExecution call has no command/);
    });
  });

  describe('answers', () => {
    const render = (fixture: string, answer: Parameters<typeof cursorDialect.render>[1], changes: Record<string, unknown> = {}) => cursorDialect.render(parsed(fixture, root, changes), answer);
    const body = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

    it('blocks a refusal both ways: exit 2 and permission deny, the reason in both spellings and on stderr', () => {
      const reply = render('pre-tool-use-write-out-of-scope', { decision: 'deny', reason: '[SCOPE_VIOLATION] no' });
      assert.equal(reply.exitCode, 2);
      assert.deepEqual(body(reply.stdout), { permission: 'deny', decision: 'deny', reason: '[SCOPE_VIOLATION] no', user_message: '[SCOPE_VIOLATION] no', agent_message: '[SCOPE_VIOLATION] no', userMessage: '[SCOPE_VIOLATION] no', agentMessage: '[SCOPE_VIOLATION] no' });
      assert.equal(reply.stderr, '[SCOPE_VIOLATION] no\n');
      const shell = render('before-shell-out-of-scope', { decision: 'deny', reason: 'no' });
      assert.equal(shell.exitCode, 2);
      assert.deepEqual(Object.keys(body(shell.stdout)), ['permission', 'user_message', 'agent_message', 'userMessage', 'agentMessage']);
      assert.equal(render('pre-tool-use-write-in-scope', { decision: 'allow', stop: 'halt' }).exitCode, 2, "a hook's continue:false stops the call");
    });

    it('allows with permission allow and passes a person’s approval on as ask, except before a read (allow or deny only)', () => {
      assert.deepEqual(body(render('pre-tool-use-write-in-scope', { decision: 'allow' }).stdout), { permission: 'allow', decision: 'allow' });
      assert.deepEqual(body(render('before-shell-safe', { decision: 'allow' }).stdout), { permission: 'allow' });
      const ask = render('pre-tool-use-delete', { decision: 'ask', reason: 'Intent Governor asks a human: deletes files' });
      assert.equal(ask.exitCode, 0);
      assert.equal(body(ask.stdout).permission, 'ask');
      assert.equal(body(ask.stdout).agent_message, 'Intent Governor asks a human: deletes files');
      const read = render('before-read-file', { decision: 'ask', reason: 'Look first.' });
      assert.equal(read.exitCode, 2);
      assert.match(String(body(read.stdout).agent_message), /^Look first\. Cursor cannot ask a person before a file read/);
      assert.equal(body(render('pre-tool-use-write-in-scope', { decision: 'allow', context: 'note' }).stdout).agent_message, 'note');
    });

    it("runs a hook's rewrite only where Cursor applies it (a preToolUse Shell call), and refuses it elsewhere", () => {
      const shell = render('pre-tool-use-shell-safe', { decision: 'allow', updatedInput: { command: 'git status --short' } });
      assert.equal(shell.exitCode, 0);
      assert.deepEqual(body(shell.stdout).updated_input, { command: 'git status --short' });
      for (const fixture of ['pre-tool-use-write-in-scope', 'before-shell-safe', 'before-read-file']) {
        const reply = render(fixture, { decision: 'allow', updatedInput: { command: 'x', file_path: 'y' } });
        assert.equal(reply.exitCode, 2, fixture);
        assert.match(String(body(reply.stdout).agent_message), /A hook rewrote this .* call and Cursor cannot run the rewritten input/, fixture);
      }
    });

    it('answers the after… events, the session and the prompt with JSON, never silence', () => {
      assert.deepEqual(body(render('post-tool-use-write', { decision: 'allow' }).stdout), {});
      assert.deepEqual(body(render('post-tool-use-write', { decision: 'allow', context: 'Traced.' }).stdout), { additional_context: 'Traced.' });
      for (const fixture of ['post-tool-use-failure', 'after-file-edit', 'after-shell-execution', 'after-mcp-execution', 'stop', 'subagent-stop', 'pre-compact', 'session-end']) {
        const reply = render(fixture, { decision: 'allow', context: 'ignored' });
        assert.deepEqual([reply.exitCode, body(reply.stdout)], [0, {}], fixture);
      }
      assert.deepEqual(body(render('session-start', { decision: 'allow', context: 'Intent auth-refactor' }).stdout), { continue: true, additional_context: 'Intent auth-refactor' });
      assert.deepEqual(body(render('before-submit-prompt', { decision: 'allow', context: 'not taken here' }).stdout), { continue: true });
      assert.deepEqual(body(render('subagent-start', { decision: 'allow' }).stdout), { permission: 'allow', decision: 'allow' });
    });

    it("blocks a prompt, a session or a subagent a hook refuses, and turns a hook's refusal of a stop into a follow-up", () => {
      for (const fixture of ['before-submit-prompt', 'session-start']) {
        const reply = render(fixture, { decision: 'deny', reason: 'not now' });
        assert.equal(reply.exitCode, 2, fixture);
        assert.equal(body(reply.stdout).continue, false, fixture);
        assert.equal(body(reply.stdout).user_message, 'not now', fixture);
      }
      assert.equal(render('before-submit-prompt', { decision: 'allow', stop: 'halt' }).exitCode, 2);
      const subagent = render('subagent-start', { decision: 'deny', reason: 'no subagents' });
      assert.deepEqual([subagent.exitCode, body(subagent.stdout).permission, body(subagent.stdout).decision], [2, 'deny', 'deny']);
      assert.deepEqual(body(render('stop', { decision: 'deny', reason: 'tests fail' }).stdout), { followup_message: 'tests fail' });
      assert.deepEqual(body(render('subagent-stop', { decision: 'deny', reason: 'again' }).stdout), { followup_message: 'again' });
    });

    it('renders a failure, and an event it never parses, as a block', () => {
      const failure = cursorDialect.renderFailure('the hook input is not valid JSON.');
      assert.equal(failure.exitCode, 2);
      assert.deepEqual(body(failure.stdout).permission, 'deny');
      assert.equal(body(failure.stdout).continue, false);
      assert.match(failure.stderr, /^Intent Governor blocked this call: the hook input is not valid JSON\./);
      const other = cursorDialect.render({ kind: 'other', eventName: 'afterAgentResponse' } as unknown as HookEvent, { decision: 'allow' });
      assert.equal(other.exitCode, 2);
      assert.match(String(body(other.stdout).agent_message), /'afterAgentResponse'/);
    });
  });
});
