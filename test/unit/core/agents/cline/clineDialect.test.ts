import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clineDialect, searchReplaceBlocks } from '../../../../../src/core/agents/cline/clineDialect';
import { clineHookScript, installClineHook, uninstallClineHook } from '../../../../../src/core/agents/cline/clineHookFiles';
import { DIALECTS } from '../../../../../src/core/agents/registry';
import { hookCommandFor } from '../../../../../src/core/agents/agentHooks';
import { dialectProbe } from '../../../../support/dialectProbe';
import { hookFixture } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/** The tools Cline CLI 3.0.65 offers the model that change no file, and the Cline extension's read-only ones. */
const PASSED = ['read_files', 'search_codebase', 'fetch_web_content', 'ask_question', 'skills', 'submit_and_exit', 'read_file', 'list_files', 'search_files', 'list_code_definition_names', 'ask_followup_question', 'attempt_completion', 'plan_mode_respond', 'load_mcp_documentation'];

describe('Cline dialect', () => {
  let root: string;
  const { map, calls, reason, parsed } = dialectProbe(clineDialect, 'cline', () => root);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-cline-')));
  });
  afterEach(() => removeTree(root));

  it('is registered as `governor hook cline` and traced as cline', () => {
    assert.equal(DIALECTS.cline, clineDialect);
    assert.equal(clineDialect.agentName, 'cline');
  });

  it("parses a captured tool_call: the real input from tool_call, the session, no cwd (the hook's own is the session's)", () => {
    const event = parsed('pre-run-commands');
    assert.equal(event.kind, 'tool');
    if (event.kind !== 'tool') return;
    assert.equal(event.phase, 'pre');
    assert.equal(event.sessionId, '1795448088615_1lwxj');
    assert.equal(event.cwd, undefined, 'workspaceRoots names the git root, not where the tools resolve paths');
    assert.equal(event.toolName, 'run_commands');
    assert.deepEqual(event.toolInput, { commands: ['echo hi > x.txt'] });
    assert.equal(event.toolUseId, 'call_scripted_1');
  });

  it('falls back to preToolUse.parameters, turning its stringified values back into values', () => {
    const payload = JSON.parse(hookFixture('cline', 'pre-run-commands', root)) as Record<string, unknown>;
    delete payload.tool_call;
    const result = clineDialect.parse(payload);
    assert.ok(result.ok && result.event.kind === 'tool');
    assert.deepEqual(result.event.kind === 'tool' && result.event.toolInput, { commands: ['echo hi > x.txt'] });
  });

  it('parses tool_result as PostToolUse (PostToolUseFailure when it failed), session_shutdown as the end, agent_start as context', () => {
    const post = parsed('post-editor');
    assert.ok(post.kind === 'tool' && post.phase === 'post' && post.eventName === 'PostToolUse');
    const payload = JSON.parse(hookFixture('cline', 'post-editor', root)) as Record<string, Record<string, unknown>>;
    payload.postToolUse.success = false;
    const failed = clineDialect.parse(payload);
    assert.ok(failed.ok && failed.event.kind === 'tool' && failed.event.eventName === 'PostToolUseFailure');
    assert.equal(parsed('session-shutdown').kind, 'end');
    const start = clineDialect.parse({ ...JSON.parse(hookFixture('cline', 'session-shutdown', root)), hookName: 'agent_start' });
    assert.ok(start.ok && start.event.kind === 'context' && start.event.hookEvent === 'SessionStart');
    const other = clineDialect.parse({ hookName: 'something_new' });
    assert.ok(!other.ok && /something_new.*fails closed/.test(other.message));
    assert.equal(clineDialect.parse({ taskId: 'x' }).ok, false);
  });

  it('run_commands: every command, run in the working directory', () => {
    assert.deepEqual(calls(map('run_commands', { commands: ['ls', 'echo x > a'] })), [
      { tool: 'run_command', input: { command: 'ls', cwd: root } },
      { tool: 'run_command', input: { command: 'echo x > a', cwd: root } },
    ]);
    assert.match(reason(map('run_commands', { commands: [] })), /no command/);
  });

  it('editor: create is a write, old_text → new_text an edit, insert_line an edit judged on its path; relative paths from the root', () => {
    assert.deepEqual(calls(map('editor', { path: 'src/a.ts', new_text: 'x' })), [{ tool: 'write_file', input: { path: join(root, 'src/a.ts'), content: 'x' } }]);
    assert.deepEqual(calls(map('editor', { path: join(root, 'src/a.ts'), old_text: 'a', new_text: 'b' })), [{ tool: 'edit_file', input: { path: join(root, 'src/a.ts') }, edits: [{ search: 'a', replace: 'b', all: false }] }]);
    assert.deepEqual(calls(map('editor', { path: 'src/a.ts', new_text: 'b', insert_line: 2 })), [{ tool: 'edit_file', input: { path: join(root, 'src/a.ts') }, edits: [] }]);
    assert.match(reason(map('editor', { new_text: 'b' })), /no path/);
  });

  it("apply_patch (GPT models): Codex's grammar, each file judged", () => {
    const input = { input: '*** Begin Patch\n*** Add File: src/auth/t.ts\n+x\n*** Update File: src/auth/login.ts\n@@\n-a\n+b\n*** End Patch\n' };
    assert.deepEqual(calls(map('apply_patch', input)), [
      { tool: 'write_file', input: { path: join(root, 'src/auth/t.ts'), content: 'x\n' } },
      { tool: 'edit_file', input: { path: join(root, 'src/auth/login.ts') }, edits: [{ search: 'a', replace: 'b', all: false }] },
    ]);
  });

  it("the extension's tools: write_to_file, replace_in_file's SEARCH/REPLACE blocks, execute_command", () => {
    assert.deepEqual(calls(map('write_to_file', { path: 'a.ts', content: 'x' })), [{ tool: 'write_file', input: { path: join(root, 'a.ts'), content: 'x' } }]);
    const diff = '------- SEARCH\nreturn false;\n=======\nreturn true;\n+++++++ REPLACE\n------- SEARCH\nconst a = 1;\n=======\nconst a = 2;\n+++++++ REPLACE\n';
    assert.deepEqual(calls(map('replace_in_file', { path: 'a.ts', diff })), [
      { tool: 'edit_file', input: { path: join(root, 'a.ts') }, edits: [{ search: 'return false;', replace: 'return true;', all: false }, { search: 'const a = 1;', replace: 'const a = 2;', all: false }] },
    ]);
    assert.deepEqual(searchReplaceBlocks('<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE'), [{ search: 'x', replace: 'y', all: false }]);
    assert.match(reason(map('replace_in_file', { path: 'a.ts', diff: 'no blocks here' })), /cannot find a SEARCH\/REPLACE block/);
    assert.deepEqual(calls(map('execute_command', { command: 'ls' })), [{ tool: 'run_command', input: { command: 'ls', cwd: root } }]);
  });

  it('passes the read-only tools through; refuses subagents, teams, the browser and any tool it does not know', () => {
    for (const tool of PASSED) assert.deepEqual(map(tool, {}), { kind: 'passthrough' }, tool);
    assert.match(reason(map('spawn_agent', { task: 'x' })), /spawn_agent starts another agent/);
    assert.match(reason(map('team_spawn_teammate', {})), /team_spawn_teammate starts another agent/);
    assert.match(reason(map('browser_action', {})), /browser_action drives a browser/);
    assert.match(reason(map('some_mcp_tool', {})), /does not know Cline's tool 'some_mcp_tool'/);
  });

  it("renders a deny and an ask as a cancel with the reason, an allow's rewritten input as overrideInput, context as contextModification", () => {
    const pre = parsed('pre-editor');
    const out = (answer: Parameters<typeof clineDialect.render>[1], event = pre) => {
      const reply = clineDialect.render(event, answer);
      assert.equal(reply.exitCode, 0);
      return reply.stdout === '' ? {} : JSON.parse(reply.stdout);
    };
    assert.deepEqual(out({ decision: 'deny', reason: '[SCOPE_VIOLATION] no' }), { cancel: true, errorMessage: '[SCOPE_VIOLATION] no' });
    assert.match(out({ decision: 'ask', reason: 'A human must approve.' }).errorMessage, /^A human must approve\. Cline cannot ask a person from a hook/);
    assert.deepEqual(out({ decision: 'allow', updatedInput: { path: 'b', new_text: 'y' } }), { overrideInput: { path: 'b', new_text: 'y' } });
    assert.deepEqual(out({ decision: 'allow' }), {});
    assert.deepEqual(out({ decision: 'allow', context: 'note' }, parsed('post-editor')), { contextModification: 'note' });
    assert.deepEqual(out({ decision: 'allow', stop: 'halt' }, parsed('post-editor')), { cancel: true, errorMessage: 'halt' });
    const failure = clineDialect.renderFailure('timed out');
    assert.equal(failure.exitCode, 0, 'Cline ignores an exit code: the cancel must be in the JSON');
    assert.deepEqual(JSON.parse(failure.stdout), { cancel: true, errorMessage: 'Intent Governor blocked this call: timed out' });
  });

  it("installs a script per event running the shared hook command, never over a user's file; uninstall removes only ours", () => {
    const command = hookCommandFor('cline', '/x/hook.js');
    const written = installClineHook(undefined, '.clinerules/hooks/PreToolUse.sh', command);
    assert.ok(written.ok && written.text);
    assert.equal(written.ok && written.text, clineHookScript(command));
    assert.equal(clineHookScript(command), `#!/bin/sh\n${clineHookScript('').split('\n')[1]}\n${command}\n`);
    assert.doesNotMatch(clineHookScript(command), /\/x\/hook\.js/, 'the launcher, not this machine’s path');
    assert.equal(installClineHook('#!/bin/sh\necho mine\n', '.clinerules/hooks/PreToolUse.sh', command).ok, false);
    assert.deepEqual(uninstallClineHook(clineHookScript(command)), { ok: true, text: null });
    assert.deepEqual(uninstallClineHook('#!/bin/sh\necho mine\n'), { ok: true, text: '#!/bin/sh\necho mine\n' });
  });

  it('the script prints a cancel when the hook cannot run (no launcher for this user), saying what to install', async () => {
    const script = join(root, 'PreToolUse.sh');
    await writeFile(script, clineHookScript(hookCommandFor('cline', '/x/hook.js')));
    const run = spawnSync('sh', [script], { input: '{}', encoding: 'utf8', env: { ...process.env, INTENT_GOVERNOR_HOME: join(root, 'no-governor-home') } });
    assert.equal(run.status, 0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { cancel: boolean; errorMessage: string };
    assert.equal(out.cancel, true);
    assert.match(out.errorMessage, /Intent Governor blocked this call: its hook launcher is not installed for this user\. Install Intent Governor/);
  });
});
