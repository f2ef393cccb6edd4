import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** `node dist/hook.js hook gemini` as Gemini CLI runs it (the command `governor hooks install --agent gemini` writes), headless. */
describe('governor hook gemini (headless, as Gemini CLI runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => ({ h, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  const hook = (fixture: string, args = ['--intent', 'auth-refactor']) => runHook('gemini', hookFixture('gemini', fixture, h.root), args, env);
  const answer = (stdout: string) => JSON.parse(stdout) as { decision?: string; reason?: string; hookSpecificOutput?: Record<string, unknown> };

  it('lets an in-scope write_file through by saying nothing, and its AfterTool traces the new file as gemini-cli', async () => {
    const pre = await hook('before-write-file-in-scope');
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n'); // Gemini CLI writes the file
    const post = await hook('after-write-file');
    assert.equal(post.code, 0, post.stderr);
    const [record] = workspace.traceRecords();
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'gemini-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('denies an out-of-scope write_file with decision "deny" and the reason the model reads', async () => {
    const run = await hook('before-write-file-out-of-scope');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(answer(run.stdout)), ['decision', 'reason']);
    assert.equal(answer(run.stdout).decision, 'deny');
    assert.match(answer(run.stdout).reason ?? '', /^\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
  });

  it("denies a write to Gemini CLI's own settings (where its hooks live): .gemini/ is protected", async () => {
    const run = await hook('before-write-file-protected');
    assert.equal(answer(run.stdout).decision, 'deny');
    assert.match(answer(run.stdout).reason ?? '', /^\[PROTECTED_PATH\] "\.gemini\/settings\.json" is protected/);
  });

  it('denies a shell redirect out of scope before the shell runs it', async () => {
    const run = await hook('before-shell-redirect-out-of-scope');
    assert.equal(answer(run.stdout).decision, 'deny');
    assert.match(answer(run.stdout).reason ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
  });

  it("lets a read and an edit that applies through, and denies an edit whose text is not in the file", async () => {
    for (const fixture of ['before-read-file', 'before-replace']) {
      const run = await hook(fixture);
      assert.equal(run.code, 0, `${fixture}: ${run.stderr}`);
      assert.equal(run.stdout, '', fixture);
    }
    await h.file('src/auth/login.ts', 'export function login() {\n  return 42;\n}\n');
    assert.equal(answer((await hook('before-replace')).stdout).decision, 'deny');
  });

  it("denies another MCP server's tool and audits the refusal", async () => {
    const run = await hook('before-other-mcp-tool');
    assert.equal(answer(run.stdout).decision, 'deny');
    assert.match(answer(run.stdout).reason ?? '', /'mcp_other_echo' is a tool of another MCP server \('other'\) that no plan allows/);
    const log = await workspace.governanceLog();
    assert.deepEqual(log.map((r) => [r.decision, r.code, r.tool_name]), [['deny', 'INVALID_INPUT', 'mcp_other_echo']]);
  });

  it('denies a write when no intent is bound, saying how to get one', async () => {
    const run = await hook('before-write-file-in-scope', []);
    assert.equal(answer(run.stdout).decision, 'deny');
    assert.match(answer(run.stdout).reason ?? '', /^\[NO_ACTIVE_INTENT\]/);
  });

  it('adds the intent handshake to SessionStart and to each prompt (BeforeAgent)', async () => {
    for (const [fixture, event] of [['session-start', 'SessionStart'], ['before-agent', 'BeforeAgent']]) {
      const run = await hook(fixture);
      assert.equal(run.code, 0, run.stderr);
      const specific = answer(run.stdout).hookSpecificOutput as { hookEventName: string; additionalContext: string };
      assert.equal(specific.hookEventName, event);
      assert.match(specific.additionalContext, /# Active intent: `auth-refactor`/);
    }
  });

  it('answers AfterAgent, SessionEnd and a failed tool without blocking anything', async () => {
    for (const fixture of ['after-agent', 'session-end', 'after-replace-failed', 'notification']) {
      const run = await hook(fixture);
      assert.equal(run.code, 0, `${fixture}: ${run.stderr}`);
      assert.equal(run.stdout, '', fixture);
    }
  });

  it('blocks unreadable or foreign input with exit 2 and the reason on stderr, which Gemini CLI hands the model', async () => {
    for (const stdin of ['', 'not json', '[]', '{"hook_event_name":"BeforeTool","session_id":"s"}']) {
      const run = await runHook('gemini', stdin, ['--intent', 'auth-refactor'], env);
      assert.equal(run.code, 2, stdin);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^Intent Governor blocked this call: /);
    }
  });
});
