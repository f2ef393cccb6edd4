import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Harness } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** `node dist/hook.js hook copilot` as GitHub Copilot CLI runs it (the command `governor hooks install --agent copilot` writes), headless. */
describe('governor hook copilot (headless, as GitHub Copilot CLI runs it)', () => {
  let workspace: HeadlessHookWorkspace;
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => ({ h, env } = workspace = await headlessHookWorkspace()));
  afterEach(() => workspace.dispose());

  const hook = (fixture: string, args = ['--intent', 'auth-refactor']) => runHook('copilot', hookFixture('copilot', fixture, h.root), args, env);
  const answer = (stdout: string) => JSON.parse(stdout) as { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string; modifiedArgs?: unknown };

  it('lets an in-scope create through by saying nothing, and its postToolUse traces the new file as copilot-cli', async () => {
    const pre = await hook('pre-create-in-scope');
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n'); // Copilot CLI writes the file
    const post = await hook('post-create');
    assert.equal(post.code, 0, post.stderr);
    const [record] = workspace.traceRecords();
    assert.equal(record.files[0].path, 'src/auth/token.ts');
    assert.equal(record.metadata.agent, 'copilot-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
  });

  it('denies an out-of-scope create with permissionDecision "deny" and the reason the model reads, and logs it', async () => {
    const run = await hook('pre-create-out-of-scope');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(answer(run.stdout)), ['permissionDecision', 'permissionDecisionReason', 'hookSpecificOutput']);
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
    const [entry] = await workspace.governanceLog();
    assert.deepEqual([entry.decision, entry.code, entry.agent], ['deny', 'SCOPE_VIOLATION', { name: 'copilot-cli' }]);
  });

  it('judges a relative path where Copilot CLI resolves it: against the payload cwd', async () => {
    const run = await hook('pre-create-relative');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^\[SCOPE_VIOLATION\] "src\/other\/src\/auth\/x\.ts"/);
  });

  it("denies a write to Copilot CLI's repository settings, where `disableAllHooks` would switch the governor off", async () => {
    const run = await hook('pre-create-protected');
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^\[PROTECTED_PATH\] "\.github\/copilot\/settings\.local\.json" is protected/);
  });

  it('denies a shell redirect out of scope before the shell runs it, and lets a safe command through', async () => {
    const run = await hook('pre-bash-redirect-out-of-scope');
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /\[SCOPE_VIOLATION\] "src\/billing\/y\.ts"/);
    const safe = await hook('pre-bash-safe');
    assert.equal(safe.code, 0, safe.stderr);
    // Allowed; where a sandbox starts (bubblewrap here), rewritten to run confined.
    const allowed = safe.stdout === '' ? undefined : answer(safe.stdout);
    assert.ok(allowed === undefined || allowed.permissionDecision === 'allow', safe.stdout);
    if (allowed) assert.match(JSON.stringify(allowed), /bwrap .* -- \/bin\/sh -c 'ls src'/u);
  });

  it('lets a view and an edit that applies through, and denies an edit whose text is not in the file', async () => {
    for (const fixture of ['pre-view', 'pre-edit']) {
      const run = await hook(fixture);
      assert.equal(run.code, 0, `${fixture}: ${run.stderr}`);
      assert.equal(run.stdout, '', fixture);
    }
    await h.file('src/auth/login.ts', 'export function login() {\n  return 42;\n}\n');
    const stale = answer((await hook('pre-edit')).stdout);
    assert.equal(stale.permissionDecision, 'deny');
  });

  it("judges every file of an apply_patch (GPT models' edit tool), and refuses a patch that deletes a file", async () => {
    const run = await hook('pre-apply-patch');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    const deleting = answer((await hook('pre-apply-patch-delete')).stdout);
    assert.equal(deleting.permissionDecision, 'deny');
    assert.match(deleting.permissionDecisionReason ?? '', /deletes src\/auth\/login\.ts.*delete the file with the bash tool/);
  });

  it("governs a subagent's call in the session that started it, and refuses it out of scope", async () => {
    const run = await hook('pre-subagent-create');
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    const [entry] = await workspace.governanceLog();
    assert.equal(entry.session_id, 'copilot:2d906b8e-c8f7-4987-8096-b4eff854c5f7');
  });

  it("denies another MCP server's tool and audits the refusal; the governor's own MCP tools pass", async () => {
    const run = await hook('pre-other-mcp-tool');
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /'github-mcp-server-create_or_update_file' is a tool of another MCP server, and its name does not say where the server's name ends \('-' may be in either\): it reads as 'github\/mcp-server-create_or_update_file', 'github-mcp\/server-create_or_update_file', 'github-mcp-server\/create_or_update_file', and a plan must allow every reading \(it allows none of them\)/);
    const log = await workspace.governanceLog();
    assert.deepEqual(log.map((r) => [r.decision, r.code, r.tool_name]), [['deny', 'INVALID_INPUT', 'github-mcp-server-create_or_update_file']]);
    const own = await hook('pre-own-mcp-tool');
    assert.equal(own.stdout, '');
  });

  it('denies a write when no intent is bound, saying how to get one', async () => {
    const run = await hook('pre-create-in-scope', []);
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^\[NO_ACTIVE_INTENT\]/);
  });

  it('gives sessionStart the intent handshake as additionalContext', async () => {
    const run = await hook('session-start');
    assert.equal(run.code, 0, run.stderr);
    assert.match(answer(run.stdout).additionalContext ?? '', /# Active intent: `auth-refactor`/);
  });

  it('answers the other lifecycle events and a failed tool without blocking anything', async () => {
    for (const fixture of ['agent-stop', 'subagent-start', 'subagent-stop', 'pre-compact', 'session-end', 'post-view-failure']) {
      const run = await hook(fixture);
      assert.equal(run.code, 0, `${fixture}: ${run.stderr}`);
      assert.ok(run.stdout === '' || answer(run.stdout).permissionDecision === undefined, `${fixture}: ${run.stdout}`);
    }
    assert.equal(existsSync(join(h.root, '.orchestration', 'agent_trace.jsonl')), false);
  });

  it('denies unreadable input with the reason as a permissionDecision (Copilot CLI takes unparseable output as no opinion)', async () => {
    for (const stdin of ['', 'not json', '[]', '{"sessionId":"s","toolName":"create"}']) {
      const run = await runHook('copilot', stdin, ['--intent', 'auth-refactor'], env);
      assert.equal(run.code, 0, stdin);
      assert.equal(answer(run.stdout).permissionDecision, 'deny', stdin);
      assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^Intent Governor blocked this call: /);
    }
  });

  it("denies a payload in VS Code's format when VS Code's own entry is not installed: the copilot entry cannot read VS Code's tools", async () => {
    const run = await hook('pre-write-vscode-format');
    assert.equal(answer(run.stdout).permissionDecision, 'deny');
    assert.match(answer(run.stdout).permissionDecisionReason ?? '', /^\[INVALID_INPUT\] VS Code's agent ran Intent Governor's hook for another agent/);
  });
});
