/**
 * `node dist/hook.js hook cursor` as Cursor runs it (the command `governor hooks install --agent cursor` writes into
 * .cursor/hooks.json), headless, fed the payloads of Cursor's hook documentation (test/fixtures/hooks/cursor/,
 * sources in its README.md).
 *
 * No Cursor binary can be installed here (it is a desktop editor with a sign-in; its CLI agent needs Cursor's
 * servers), so unlike Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode and Cline there is no real-agent test:
 * what Cursor does with an answer (exit 2 and `permission: "deny"` block) is taken from its documentation.
 */
import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, LOGIN, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

interface CursorAnswer {
  permission?: string;
  decision?: string;
  reason?: string;
  user_message?: string;
  agent_message?: string;
  userMessage?: string;
  agentMessage?: string;
  continue?: boolean;
  additional_context?: string;
  followup_message?: string;
  updated_input?: Record<string, unknown>;
}

/** A documented payload with changes to its top level and to its tool_input. */
function payload(fixture: string, root: string, top: Record<string, unknown> = {}, toolInput: Record<string, unknown> = {}): string {
  const base = JSON.parse(hookFixture('cursor', fixture, root)) as Record<string, unknown> & { tool_input?: Record<string, unknown> };
  const input = base.tool_input !== undefined && typeof base.tool_input === 'object' ? { tool_input: { ...base.tool_input, ...toolInput } } : {};
  return JSON.stringify({ ...base, ...input, ...top });
}

describe('governor hook cursor (headless, as Cursor runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  let home: string;
  beforeEach(async () => {
    ({ h, env, home } = workspace = await headlessHookWorkspace({ intent: 'auth-refactor', files: { 'src/auth/login.ts': LOGIN, 'docs/guide.md': '# Draft\n' } }));
  });
  afterEach(() => workspace.dispose());

  const run = (stdin: string, args: string[] = []) => runHook('cursor', stdin, args, env);
  const hook = (fixture: string, args: string[] = []) => run(hookFixture('cursor', fixture, h.root), args);
  const answer = (stdout: string) => JSON.parse(stdout) as CursorAnswer;

  /** A refusal Cursor cannot miss: exit 2, and the JSON says deny with the reason for the agent and the person. */
  function refusal(result: { code: number | null; stdout: string; stderr: string }, reason: RegExp): CursorAnswer {
    assert.equal(result.code, 2, result.stderr);
    const body = answer(result.stdout);
    assert.equal(body.permission, 'deny');
    assert.match(body.agent_message ?? '', reason);
    assert.equal(body.user_message, body.agent_message);
    assert.equal(body.agentMessage, body.agent_message, 'the first docs’ camelCase spelling too');
    assert.match(result.stderr, reason);
    return body;
  }

  describe('preToolUse: refused before the tool runs', () => {
    it('a payload that starts with a byte order mark (Cursor on Windows) is read, and its out-of-scope Write refused', async () => {
      refusal(await run(`\uFEFF${hookFixture('cursor', 'pre-tool-use-write-out-of-scope', h.root)}`), /^\[SCOPE_VIOLATION\] "docs\/evil\.ts" is outside the owned scope/);
    });

    it('an out-of-scope Write, with the reason the agent reads', async () => {
      const body = refusal(await hook('pre-tool-use-write-out-of-scope'), /^\[SCOPE_VIOLATION\] "docs\/evil\.ts" is outside the owned scope of intent auth-refactor/);
      assert.equal(body.decision, 'deny', 'the first preToolUse schema');
      assert.equal(body.reason, body.agent_message);
    });

    it('an out-of-scope StrReplace', async () => {
      refusal(await hook('pre-tool-use-str-replace-out-of-scope'), /^\[SCOPE_VIOLATION\] "docs\/guide\.md" is outside the owned scope/);
    });

    it('a Shell redirect out of scope (echo x > docs/evil.ts)', async () => {
      refusal(await hook('pre-tool-use-shell-redirect'), /\[SCOPE_VIOLATION\] "docs\/evil\.ts"/);
    });

    it('a Shell redirect judged in the working directory the call names', async () => {
      await mkdir(join(h.root, 'src', 'billing'), { recursive: true });
      const stdin = payload('pre-tool-use-shell-redirect', h.root, {}, { command: 'echo x > invoice.ts', working_directory: join(h.root, 'src', 'billing') });
      refusal(await run(stdin), /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
    });

    it('a Delete out of scope', async () => {
      refusal(await hook('pre-tool-use-delete'), /\[SCOPE_VIOLATION\] "docs\/guide\.md"/);
    });

    it("a write to Cursor's own hook file (.cursor/ is protected)", async () => {
      const stdin = payload('pre-tool-use-write-in-scope', h.root, {}, { file_path: join(h.root, '.cursor', 'hooks.json'), content: '{}' });
      refusal(await run(stdin), /^\[PROTECTED_PATH\] "\.cursor\/hooks\.json" is protected/);
    });

    it('a write while no intent is bound, saying how to get one', async () => {
      const result = await runHook('cursor', hookFixture('cursor', 'pre-tool-use-write-in-scope', h.root), [], { ...env, INTENT_GOVERNOR_INTENT: '' });
      refusal(result, /^\[NO_ACTIVE_INTENT\]/);
    });

    it('a tool Intent Governor does not know, and audits the refusal', async () => {
      const stdin = payload('pre-tool-use-grep', h.root, { tool_name: 'NotebookEdit', tool_input: { notebook_path: join(h.root, 'src/auth/a.ipynb') } });
      refusal(await run(stdin), /does not know Cursor's tool 'NotebookEdit'/);
      const log = await workspace.governanceLog();
      assert.deepEqual(log.map((r) => [r.decision, r.code, r.tool_name ?? r.tool]), [['deny', 'INVALID_INPUT', 'NotebookEdit']]);
    });

    it("another MCP server's tool", async () => {
      refusal(await hook('pre-tool-use-mcp-other'), /'MCP:database_query' is a tool of an MCP server other than Intent Governor's/);
    });
  });

  describe('preToolUse: allowed, then traced after postToolUse', () => {
    it('an in-scope Write is allowed and, after postToolUse, traced as agent cursor under the intent', async () => {
      const pre = await hook('pre-tool-use-write-in-scope');
      assert.equal(pre.code, 0, pre.stderr);
      assert.deepEqual(answer(pre.stdout), { permission: 'allow', decision: 'allow' });
      await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n'); // Cursor writes the file
      const post = await hook('post-tool-use-write');
      assert.equal(post.code, 0, post.stderr);
      assert.deepEqual(answer(post.stdout), {});
      const [record] = workspace.traceRecords();
      assert.equal(record.files[0].path, 'src/auth/token.ts');
      assert.equal(record.metadata.agent, 'cursor');
      assert.equal(record.metadata.intent_id, 'auth-refactor');
      assert.equal(record.metadata.session_id, 'cursor:668320d2-2fd8-4888-b33c-2a466fec86e7');
    });

    it('an in-scope StrReplace is allowed and traced with the lines it changed', async () => {
      const pre = await hook('pre-tool-use-str-replace-in-scope');
      assert.equal(pre.code, 0, pre.stderr);
      assert.equal(answer(pre.stdout).permission, 'allow');
      await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;'));
      const post = await run(payload('pre-tool-use-str-replace-in-scope', h.root, { hook_event_name: 'postToolUse', tool_output: 'ok', duration: 3 }));
      assert.equal(post.code, 0, post.stderr);
      const records = workspace.traceRecords() as unknown as { files: { conversations: { ranges: { start_line: number; end_line: number }[] }[] }[] }[];
      assert.equal(records.length, 1);
      assert.deepEqual(records[0].files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
    });

    it('a StrReplace whose text is not in the file is refused (the tool would fail, or edit something else)', async () => {
      const stdin = payload('pre-tool-use-str-replace-in-scope', h.root, {}, { old_string: 'return 42;' });
      assert.equal(answer((await run(stdin)).stdout).permission, 'deny');
    });

    it('reads, searches and the governor’s own MCP tools pass; a safe command is allowed', async () => {
      for (const fixture of ['pre-tool-use-read', 'pre-tool-use-grep', 'pre-tool-use-mcp-own', 'pre-tool-use-shell-safe', 'before-mcp-execution-own']) {
        const result = await hook(fixture);
        assert.equal(result.code, 0, `${fixture}: ${result.stderr}`);
        assert.equal(answer(result.stdout).permission, 'allow', fixture);
      }
    });

    it('a failed tool call and the after… events are answered with an empty object, never silence', async () => {
      for (const fixture of ['post-tool-use-failure', 'after-shell-execution', 'after-mcp-execution']) {
        const result = await hook(fixture);
        assert.equal(result.code, 0, `${fixture}: ${result.stderr}`);
        assert.deepEqual(answer(result.stdout), {}, fixture);
      }
    });
  });

  describe('beforeMCPExecution', () => {
    it("refuses another server's tool (a stdio server) and audits it", async () => {
      refusal(await hook('before-mcp-execution-other'), /'database_query' is a tool of an MCP server other than Intent Governor's/);
      const log = await workspace.governanceLog();
      assert.deepEqual(log.map((r) => [r.decision, r.code]), [['deny', 'INVALID_INPUT']]);
    });

    it('refuses a tool named like one of ours on a server that is not the governor', async () => {
      refusal(await run(payload('before-mcp-execution-own', h.root, { url: 'https://mcp.example.com/mcp' })), /'select_active_intent' is a tool of an MCP server other than Intent Governor's/);
    });
  });

  describe('what Cursor sends that the governor cannot judge is refused', () => {
    it('an unknown event and a misspelled one (pretooluse)', async () => {
      for (const event of ['beforeFileDelete', 'pretooluse']) {
        const result = await run(payload('pre-tool-use-write-out-of-scope', h.root, { hook_event_name: event }));
        assert.equal(result.code, 2, event);
        assert.equal(answer(result.stdout).permission, 'deny', event);
        assert.match(answer(result.stdout).agent_message ?? '', new RegExp(`Cursor's hook event '${event}' is not one Intent Governor knows`), event);
      }
    });

    it('a payload missing the fields its event needs', async () => {
      const cases: [string, string, RegExp][] = [
        ['no conversation_id', payload('pre-tool-use-write-in-scope', h.root, { conversation_id: undefined }), /preToolUse input has no conversation_id/],
        ['no tool_name', payload('pre-tool-use-write-in-scope', h.root, { tool_name: undefined }), /preToolUse input has no tool_name/],
        ['no tool_input', payload('pre-tool-use-write-in-scope', h.root, { tool_input: undefined }), /preToolUse input has no tool_input/],
        ['no hook_event_name', payload('pre-tool-use-write-in-scope', h.root, { hook_event_name: undefined }), /no hook_event_name/],
        ['a Write without its path', JSON.stringify({ ...JSON.parse(payload('pre-tool-use-write-in-scope', h.root)), tool_input: { content: 'x' } }), /Write call has no file path/],
        ['a Shell call without its command', JSON.stringify({ ...JSON.parse(payload('pre-tool-use-shell-safe', h.root)), tool_input: { working_directory: h.root } }), /Shell call has no command/],
        ['two different paths', payload('pre-tool-use-write-in-scope', h.root, {}, { path: join(h.root, 'docs/evil.ts') }), /names file_path and path with different or non-text values/],
        ['beforeMCPExecution without its tool', payload('before-mcp-execution-other', h.root, { tool_name: undefined }), /beforeMCPExecution call has no tool_name/],
      ];
      for (const [what, stdin, reason] of cases) {
        const result = await run(stdin);
        assert.equal(result.code, 2, `${what}: ${result.stdout}`);
        assert.equal(answer(result.stdout).permission, 'deny', what);
        assert.match(answer(result.stdout).agent_message ?? '', reason, what);
      }
    });

    it('garbage on stdin', async () => {
      const result = await run('nope');
      assert.equal(result.code, 2);
      assert.equal(answer(result.stdout).permission, 'deny');
    });
  });

  describe('the session', () => {
    it('hands the intent handshake to the model at sessionStart, continues prompts, and answers the rest with JSON', async () => {
      const start = answer((await hook('session-start')).stdout);
      assert.equal(start.continue, true);
      assert.match(start.additional_context ?? '', /auth-refactor/);
      assert.deepEqual(answer((await hook('before-submit-prompt')).stdout), { continue: true });
      assert.deepEqual(answer((await hook('subagent-start')).stdout), { permission: 'allow', decision: 'allow' });
      for (const fixture of ['stop', 'subagent-stop', 'pre-compact', 'session-end']) {
        const result = await hook(fixture);
        assert.equal(result.code, 0, `${fixture}: ${result.stderr}`);
        assert.deepEqual(answer(result.stdout), {}, fixture);
      }
    });

    it("a user hook's refusal of a prompt blocks it, and its refusal of a stop keeps the agent going", async () => {
      const block = { type: 'command', command: `echo '{"decision":"block","reason":"finish the tests first"}'` };
      await writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [block] }], Stop: [{ hooks: [block] }] } }));
      const prompt = await hook('before-submit-prompt');
      assert.equal(prompt.code, 2, prompt.stderr);
      assert.equal(answer(prompt.stdout).continue, false);
      assert.match(answer(prompt.stdout).user_message ?? '', /finish the tests first/);
      const stop = await hook('stop');
      assert.equal(stop.code, 0, stop.stderr);
      assert.match(answer(stop.stdout).followup_message ?? '', /finish the tests first/);
    });
  });

  describe('the first events (Cursor 1.7)', () => {
    it('answers beforeShellExecution with allow, ask and deny, and messages in both spellings', async () => {
      assert.deepEqual(answer((await hook('before-shell-safe')).stdout), { permission: 'allow' });
      const ask = await hook('before-shell-destructive');
      assert.equal(ask.code, 0);
      assert.equal(answer(ask.stdout).permission, 'ask');
      assert.match(answer(ask.stdout).user_message ?? '', /rm -rf src\/auth/);
      assert.match(answer(ask.stdout).userMessage ?? '', /rm -rf src\/auth/);
      const deny = refusal(await hook('before-shell-out-of-scope'), /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
      assert.equal(deny.decision, undefined, 'decision is preToolUse’s alone');
    });

    it('judges beforeShellExecution in the cwd the event names', async () => {
      await mkdir(join(h.root, 'src', 'billing'), { recursive: true });
      const stdin = payload('before-shell-out-of-scope', h.root, { command: 'echo x > invoice.ts', cwd: join(h.root, 'src', 'billing') });
      refusal(await run(stdin), /^\[SCOPE_VIOLATION\] "src\/billing\/invoice\.ts"/);
    });

    it('allows beforeReadFile inside the workspace', async () => {
      assert.deepEqual(answer((await hook('before-read-file')).stdout), { permission: 'allow' });
    });

    it('traces afterFileEdit with the lines the edit changed', async () => {
      await writeFile(join(h.root, 'src/auth/login.ts'), LOGIN.replace('return false;', 'return true;'));
      const result = await hook('after-file-edit');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(answer(result.stdout), {});
      const records = workspace.traceRecords() as unknown as { files: { conversations: { ranges: { start_line: number; end_line: number }[] }[] }[]; metadata: { agent: string } }[];
      assert.deepEqual(records[0].files[0].conversations[0].ranges.map((r) => [r.start_line, r.end_line]), [[2, 2]]);
      assert.equal(records[0].metadata.agent, 'cursor');
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN.replace('return false;', 'return true;'));
    });
  });
});
