import { strict as assert } from 'node:assert';
import { vscodeDialect } from '../../../../../src/core/agents/vscode/vscodeDialect';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import type { ToolMapping } from '../../../../../src/core/agents/common/nativeCall';
import { hookFixture } from '../../../../support/runHook';

const ROOT = '/work/ws';
const place = { cwd: ROOT, workspace: ROOT };
const map = (tool: string, input: Record<string, unknown> = {}): ToolMapping => vscodeDialect.mapTool(tool, input, place);

function refusal(mapping: ToolMapping): string {
  assert.equal(mapping.kind, 'refused', JSON.stringify(mapping));
  return (mapping as { reason: string }).reason;
}

function fixtureEvent(name: string): Extract<HookEvent, { kind: 'tool' }> {
  const parsed = vscodeDialect.parse(JSON.parse(hookFixture('vscode', name, ROOT)));
  assert.ok(parsed.ok);
  assert.equal(parsed.event.kind, 'tool');
  return parsed.event as Extract<HookEvent, { kind: 'tool' }>;
}

/**
 * Every tool VS Code 1.139's agent offers the model (the issue's capture, the chat extension's ToolName enum and
 * the tools the workbench registers), under the name the hook payload carries.
 */
const VSCODE_1_139_TOOLS = [
  'apply_patch', 'copilot_getNotebookSummary', 'create_and_run_task', 'create_directory', 'create_file', 'create_new_jupyter_notebook',
  'create_new_workspace', 'edit_files', 'edit_notebook_file', 'execution_subagent', 'explore_subagent', 'fetch_webpage', 'file_search',
  'get_changed_files', 'get_errors', 'get_project_setup_info', 'get_search_view_results', 'get_task_output', 'get_terminal_output',
  'get_vscode_api', 'github_repo', 'github_text_search', 'grep_search', 'inline_chat_exit', 'insert_edit_into_file', 'install_extension',
  'kill_terminal', 'list_dir', 'manage_todo_list', 'memory', 'multi_replace_string_in_file', 'read_file', 'read_notebook_cell_output',
  'read_project_structure', 'replace_string_in_file', 'resolve_memory_file_uri', 'runSubagent', 'runTests', 'run_in_terminal',
  'run_notebook_cell', 'run_task', 'run_vscode_command', 'search_subagent', 'search_workspace_symbols', 'semantic_search', 'send_to_terminal',
  'session_store_sql', 'setup_tools_createNewWorkspace', 'skill', 'switch_agent', 'terminal_last_command', 'terminal_selection', 'testFailure',
  'test_search', 'tool_search', 'view_image', 'vscode_askQuestions', 'vscode_get_confirmation', 'vscode_get_confirmation_with_options',
  'vscode_get_terminal_confirmation', 'vscode_listCodeUsages', 'vscode_renameSymbol', 'vscode_reviewPlan', 'vscode_searchExtensions_internal',
];

describe('VS Code agent dialect', () => {
  describe('parse', () => {
    it('reads a PreToolUse payload: tool name, camelCase input, the workspace folder as cwd, the tool_use_id', () => {
      const event = fixtureEvent('pre-insert-edit-in-scope');
      assert.deepEqual(
        { phase: event.phase, tool: event.toolName, cwd: event.cwd, id: event.toolUseId, session: event.sessionId, file: event.toolInput.filePath },
        { phase: 'pre', tool: 'insert_edit_into_file', cwd: ROOT, id: 'call_Insert__vscode-11', session: 'b4a517c6-b9f0-4787-af3a-7c002539b448', file: `${ROOT}/src/auth/login.ts` },
      );
      assert.equal(event.fields?.transcript_path, '/home/user/.config/Code/User/workspaceStorage/abc/GitHub.copilot-chat/transcripts/b4a517c6.jsonl');
    });

    it('reads PostToolUse with its tool_response, and SessionStart as a context event', () => {
      const post = fixtureEvent('post-insert-edit-in-scope');
      assert.equal(post.phase, 'post');
      assert.equal(post.fields?.tool_response, 'The file was edited successfully');
      const start = vscodeDialect.parse(JSON.parse(hookFixture('vscode', 'session-start', ROOT)));
      assert.ok(start.ok && start.event.kind === 'context' && start.event.eventName === 'SessionStart');
    });
  });

  describe('tool table', () => {
    it('knows every tool VS Code 1.139 offers its agent: none is refused as unknown', () => {
      for (const tool of VSCODE_1_139_TOOLS) {
        const mapping = map(tool, {});
        if (mapping.kind === 'refused') assert.doesNotMatch(mapping.reason, /does not know/, tool);
      }
    });

    it('refuses a tool it does not know, such as another extension’s, and tells the model what it governs', () => {
      const event = fixtureEvent('pre-unknown-tool');
      assert.match(refusal(map(event.toolName, event.toolInput)), /does not know VS Code's tool 'configure_python_environment'.*Use the file and terminal tools it governs/);
    });

    it('maps create_file, replace_string_in_file and multi_replace_string_in_file to writes and edits with their text', () => {
      assert.deepEqual(map('create_file', { filePath: `${ROOT}/a.ts`, content: 'x' }), { kind: 'governed', calls: [{ tool: 'write_file', input: { path: `${ROOT}/a.ts`, content: 'x' } }] });
      assert.deepEqual(map('replace_string_in_file', { filePath: `${ROOT}/a.ts`, oldString: 'a', newString: 'b' }), { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: `${ROOT}/a.ts` }, edits: [{ search: 'a', replace: 'b', all: false }] }] });
      const multi = map('multi_replace_string_in_file', {
        explanation: 'two files',
        replacements: [
          { filePath: `${ROOT}/a.ts`, oldString: 'a', newString: 'b' },
          { filePath: `${ROOT}/b.ts`, oldString: 'c', newString: 'd' },
          { filePath: `${ROOT}/a.ts`, oldString: 'e', newString: 'f' },
        ],
      });
      assert.deepEqual(multi, {
        kind: 'governed',
        calls: [
          { tool: 'edit_file', input: { path: `${ROOT}/a.ts` }, edits: [{ search: 'a', replace: 'b', all: false }, { search: 'e', replace: 'f', all: false }] },
          { tool: 'edit_file', input: { path: `${ROOT}/b.ts` }, edits: [{ search: 'c', replace: 'd', all: false }] },
        ],
      });
    });

    it('maps insert_edit_into_file {filePath, code} to a change of that file whose text is known only once it ran', () => {
      const event = fixtureEvent('pre-insert-edit-in-scope');
      assert.deepEqual(map(event.toolName, event.toolInput), { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: `${ROOT}/src/auth/login.ts` }, edits: [] }] });
      assert.match(refusal(map('insert_edit_into_file', { code: 'x', explanation: 'e' })), /has no filePath/);
    });

    it('maps edit_notebook_file to a change of the notebook, and refuses an untitled one', () => {
      const event = fixtureEvent('pre-edit-notebook-in-scope');
      assert.deepEqual(map(event.toolName, event.toolInput), { kind: 'governed', calls: [{ tool: 'edit_file', input: { path: `${ROOT}/src/auth/analysis.ipynb` }, edits: [] }] });
      assert.match(refusal(map('edit_notebook_file', { filePath: 'untitled:Untitled-1.ipynb', cellId: 'TOP', editType: 'insert' })), /not a file in the workspace yet.*create_file/);
    });

    it('maps create_directory {dirPath} to the mkdir it amounts to, the path quoted for the shell', () => {
      assert.deepEqual(map('create_directory', { dirPath: `${ROOT}/src/it's here` }), {
        kind: 'governed',
        calls: [{ tool: 'run_command', input: { command: `mkdir -p -- '${ROOT}/src/it'\\''s here'`, cwd: ROOT } }],
      });
    });

    it('maps apply_patch to a write per added file and a change per updated one, every path judged', () => {
      const event = fixtureEvent('pre-apply-patch-in-scope');
      assert.deepEqual(map(event.toolName, event.toolInput), {
        kind: 'governed',
        calls: [
          { tool: 'write_file', input: { path: `${ROOT}/src/auth/token.ts`, content: 'export const token = 1;' } },
          { tool: 'edit_file', input: { path: `${ROOT}/src/auth/login.ts` }, edits: [] },
        ],
      });
      const both = fixtureEvent('pre-apply-patch-out-of-scope');
      const mapping = map(both.toolName, both.toolInput);
      assert.deepEqual(mapping.kind === 'governed' && mapping.calls.map((c) => (c.tool === 'run_command' ? '' : c.input.path)), [`${ROOT}/src/auth/login.ts`, `${ROOT}/src/billing/invoice.ts`]);
    });

    it('refuses a patch that deletes or moves a file, that it cannot read, or that names a relative path, saying what to do', () => {
      const patch = (body: string) => map('apply_patch', { input: `*** Begin Patch\n${body}\n*** End Patch`, explanation: 'e' });
      assert.match(refusal(patch(`*** Delete File: ${ROOT}/src/a.ts`)), /deletes .*run_in_terminal \(rm\)/);
      assert.match(refusal(patch(`*** Update File: ${ROOT}/src/a.ts\n*** Move to: ${ROOT}/src/b.ts\n@@\n-a\n+b`)), /moves .*git mv or mv/);
      assert.match(refusal(patch('*** Update File: src/a.ts\n@@\n-a\n+b')), /take an absolute path/);
      assert.match(refusal(patch(`*** Add File: ${ROOT}/a.ts\nno plus`)), /cannot read this apply_patch input .*does not start with '\+'/);
      assert.match(refusal(map('apply_patch', { input: 'diff --git a/x b/x' })), /does not start with '\*\*\* Begin Patch'/);
      assert.match(refusal(map('apply_patch', { explanation: 'e' })), /has no input/);
    });

    it('judges run_in_terminal and send_to_terminal text as commands in the workspace folder; Enter and Ctrl+C pass', () => {
      assert.deepEqual(map('run_in_terminal', { command: 'npm test', explanation: 'e', mode: 'sync' }), { kind: 'governed', calls: [{ tool: 'run_command', input: { command: 'npm test', cwd: ROOT } }] });
      const event = fixtureEvent('pre-send-to-terminal-destructive');
      assert.deepEqual(map(event.toolName, event.toolInput), { kind: 'governed', calls: [{ tool: 'run_command', input: { command: 'rm -rf src/auth', cwd: ROOT } }] });
      for (const command of ['', '  ', '\u0003', '\u0004']) assert.deepEqual(map('send_to_terminal', { id: 'x', command }), { kind: 'passthrough' }, JSON.stringify(command));
    });

    it('maps read_file and view_image to reads of their filePath, a file: URI included', () => {
      assert.deepEqual(map('read_file', { filePath: `${ROOT}/a.ts`, startLine: 1, endLine: 5 }), { kind: 'governed', calls: [{ tool: 'read_file', input: { path: `${ROOT}/a.ts` } }] });
      assert.deepEqual(map('view_image', { filePath: `file://${ROOT}/logo%20big.png` }), { kind: 'governed', calls: [{ tool: 'read_file', input: { path: `${ROOT}/logo big.png` } }] });
    });

    it('refuses a relative path or another scheme, as VS Code’s file tools would not touch a workspace file with it', () => {
      assert.match(refusal(map('create_file', { filePath: 'src/a.ts', content: 'x' })), /take an absolute path/);
      assert.match(refusal(map('insert_edit_into_file', { filePath: 'vscode-userdata:/User/settings.json', code: 'x' })), /a vscode-userdata: resource rather than a file of the workspace/);
    });

    it('passes memory through while it stays under /memories/, VS Code’s own storage', () => {
      assert.deepEqual(map('memory', { command: 'create', path: '/memories/repo/build.md', file_text: 'npm run build' }), { kind: 'passthrough' });
      assert.deepEqual(map('memory', { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }), { kind: 'passthrough' });
      assert.match(refusal(map('memory', { command: 'create', path: `${ROOT}/notes.md`, file_text: 'x' })), /outside its \/memories\/ folder/);
      assert.match(refusal(map('memory', { command: 'create', path: '/memories/../etc/x', file_text: 'x' })), /outside its \/memories\/ folder/);
    });

    it('refuses workspace-wide and unseen changes with what the model can do instead', () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['vscode_renameSymbol', { symbol: 'login', newName: 'signIn', lineContent: 'login' }, /renames "login" in every file.*vscode_listCodeUsages.*replace_string_in_file/],
        ['run_vscode_command', { commandId: 'workbench.action.files.save', name: 'Save' }, /"workbench\.action\.files\.save".*Ask the person/],
        ['install_extension', { id: 'ms-python.python', name: 'Python' }, /"ms-python\.python".*Ask the person/],
        ['create_new_workspace', { query: 'a react app' }, /another folder.*create_file and run_in_terminal/],
        ['setup_tools_createNewWorkspace', {}, /another folder/],
        ['create_and_run_task', { workspaceFolder: ROOT, task: { label: 'build', type: 'shell', command: 'npm', args: ['run', 'build'] } }, /\.vscode\/tasks\.json.*"build".*Run `npm run build` with run_in_terminal/],
        ['run_task', { workspaceFolder: ROOT, id: 'shell: build' }, /"shell: build".*run_in_terminal/],
        ['runTests', { files: [`${ROOT}/test/a.test.ts`] }, /test extensions.*run_in_terminal/],
        ['run_notebook_cell', { filePath: `${ROOT}/a.ipynb`, cellId: 'c1' }, /kernel.*run_in_terminal/],
        ['edit_files', {}, /placeholder/],
      ];
      for (const [tool, input, reason] of cases) assert.match(refusal(map(tool, input)), reason, tool);
    });

    it('passes reads, searches, the conversation tools and subagents through', () => {
      for (const tool of ['file_search', 'grep_search', 'get_errors', 'read_notebook_cell_output', 'copilot_getNotebookSummary', 'list_dir', 'vscode_listCodeUsages', 'manage_todo_list', 'vscode_askQuestions', 'runSubagent', 'get_terminal_output', 'kill_terminal', 'create_new_jupyter_notebook', 'resolve_memory_file_uri']) {
        assert.deepEqual(map(tool, {}), { kind: 'passthrough' }, tool);
      }
    });

    it('passes the intent-governor language model and MCP tools (governed where they run), refuses other MCP servers’ tools', () => {
      for (const tool of ['intent-governor_write_file', 'mcp_intent-govern_select_active_intent', 'mcp_intent-gover2_write_file', 'mcp_intent_govern_read_file']) assert.deepEqual(map(tool, {}), { kind: 'passthrough' }, tool);
      const other = fixtureEvent('pre-other-mcp-tool');
      assert.match(refusal(map(other.toolName, other.toolInput)), /'mcp_github_create_or_update_file' is a tool of an MCP server other than Intent Governor's/);
      assert.match(refusal(map('mcp_intent-governor-evil_x', {})), /other than Intent Governor's/);
    });
  });

  describe('render', () => {
    const pre = fixtureEvent('pre-insert-edit-in-scope');
    const out = (answer: Parameters<typeof vscodeDialect.render>[1]) => {
      const reply = vscodeDialect.render(pre, answer);
      assert.equal(reply.exitCode, 0);
      return reply.stdout === '' ? undefined : (JSON.parse(reply.stdout) as Record<string, Record<string, unknown>>);
    };

    it('says nothing on an allow, so VS Code’s own confirmation still applies', () => {
      assert.equal(out({ decision: 'allow' }), undefined);
    });

    it('denies and asks with the reason VS Code shows the model (“Tool execution denied: …”) or the person', () => {
      assert.deepEqual(out({ decision: 'deny', reason: '[SCOPE_VIOLATION] no' })?.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '[SCOPE_VIOLATION] no' });
      assert.deepEqual(out({ decision: 'ask', reason: 'Destructive' })?.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'Destructive' });
    });

    it('carries a hook’s rewritten input in updatedInput, without an allow that would skip VS Code’s confirmation, and with an ask', () => {
      const updatedInput = { explanation: 'e', filePath: `${ROOT}/src/auth/login.ts`, code: 'y' };
      assert.deepEqual(out({ decision: 'allow', updatedInput })?.hookSpecificOutput, { hookEventName: 'PreToolUse', updatedInput });
      assert.deepEqual(out({ decision: 'ask', reason: 'r', updatedInput })?.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'r', updatedInput });
      assert.equal(out({ decision: 'deny', reason: 'r', updatedInput })?.hookSpecificOutput.updatedInput, undefined);
    });

    it('adds context for the model, a message for the person and a stop', () => {
      assert.deepEqual(out({ decision: 'allow', context: 'note', systemMessage: 'hi', stop: 'done' }), { continue: false, stopReason: 'done', systemMessage: 'hi', hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note' } });
    });

    it('answers other events as Claude Code’s, and blocks a failure with exit 2', () => {
      const post = fixtureEvent('post-insert-edit-in-scope');
      assert.deepEqual(JSON.parse(vscodeDialect.render(post, { decision: 'deny', reason: 'bad' }).stdout), { decision: 'block', reason: 'bad' });
      const failure = vscodeDialect.renderFailure('broken');
      assert.equal(failure.exitCode, 2);
      assert.match(failure.stderr, /^Intent Governor blocked this call: broken/);
    });
  });
});

describe("VS Code's terminal keeps its directory between calls", () => {
  const place = { cwd: '/ws', workspace: '/ws' };
  it('refuses a command that leaves the terminal elsewhere (cd, pushd, popd at top level), so no later command is judged where it does not run', () => {
    for (const command of ['cd /tmp', 'cd src && ls', 'pushd /tmp', 'cd ..; echo x > a']) {
      for (const tool of ['run_in_terminal', 'send_to_terminal']) {
        const mapping = vscodeDialect.mapTool(tool, { command, id: 't1' }, place);
        assert.equal(mapping.kind, 'refused', `${tool} ${command}`);
        assert.match(mapping.kind === 'refused' ? mapping.reason : '', /changes the terminal's directory/);
      }
    }
  });
  it('lets a cd in a subshell through to the command policy, which judges it where it runs', () => {
    for (const command of ['(cd src && ls)', 'ls']) {
      assert.equal(vscodeDialect.mapTool('run_in_terminal', { command }, place).kind, 'governed', command);
    }
  });
});
