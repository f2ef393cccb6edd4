import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/**
 * Another MCP server's tool through the agents' real hook command, headless: refused unless the plan's mcp_tools
 * names it; allowed ones run and are a line in the governance log; the managed file's deny wins over any plan.
 */
const withIntentRules = (rules: string) => SAMPLE_INTENTS.replace('    constraints:\n      - Keep the public login() signature', `    mcp_tools:\n${rules}\n    constraints:\n      - Keep the public login() signature`);

describe("other MCP servers' tools by policy (governor hook, headless)", () => {
  let workspace: HeadlessHookWorkspace;
  afterEach(() => workspace.dispose());

  const claude = async (intents: string, env: NodeJS.ProcessEnv = {}) => {
    workspace = await headlessHookWorkspace({ intents });
    const run = await runHook('claude', hookFixture('claude', 'pre-mcp-github-create-issue', workspace.h.root), ['--intent', 'auth-refactor'], { ...workspace.env, ...env });
    assert.equal(run.code === 0 || run.code === 2, true, run.stderr);
    const out = run.stdout.trim() ? (JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }) : {};
    return { decision: out.hookSpecificOutput?.permissionDecision ?? (run.code === 2 ? 'deny' : 'none'), reason: out.hookSpecificOutput?.permissionDecisionReason ?? run.stderr };
  };
  const log = async () => (await workspace.governanceLog()).map((r) => [r.decision, r.code, r.tool_name]);

  it('Claude Code: a tool no plan names is refused, saying where to allow it', async () => {
    const answer = await claude(SAMPLE_INTENTS);
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason, /\[INVALID_INPUT\] 'mcp__github__create_issue' is a tool of another MCP server \('github'\) that no plan allows/);
    assert.match(answer.reason, /mcp_tools: \{ allow: \["github\/create_issue"\] \}/);
    assert.deepEqual(await log(), [['deny', 'INVALID_INPUT', 'mcp__github__create_issue']]);
  });

  it("Claude Code: the intent's mcp_tools.allow lets it run, recorded with the rule; ask asks the agent's person", async () => {
    const allowed = await claude(withIntentRules('      allow: ["mcp__github__create_issue", "github/get_*"]'));
    assert.equal(allowed.decision, 'none', 'Claude Code runs the tool when the hook answers nothing');
    const [line] = await workspace.governanceLog();
    assert.deepEqual([line.decision, line.code, line.tool_name, line.intent_id], ['allow', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue', 'auth-refactor']);
    assert.match(String(line.message), /mcp_tools\.allow 'mcp__github__create_issue' of intent 'auth-refactor'/);
    await workspace.dispose();

    const asked = await claude(`mcp_tools:\n  ask: ["github/*"]\n${SAMPLE_INTENTS}`);
    assert.equal(asked.decision, 'ask');
    assert.match(asked.reason, /the MCP server 'github' the plan lets run once a person agrees/);
    assert.deepEqual(await log(), [['ask', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue']]);
  });

  it("the managed file's mcpTools.deny wins over the plan; a pattern that is not one makes the plan invalid", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ig-managed-'));
    const file = join(dir, 'managed.json');
    try {
      await writeFile(file, JSON.stringify({ mcpTools: { deny: ['github/*'] } }));
      const denied = await claude(withIntentRules('      allow: ["github/create_issue"]'), { INTENT_GOVERNOR_MANAGED_FILE: file });
      assert.equal(denied.decision, 'deny');
      assert.match(denied.reason, /which the administrator's managed file \(.*managed\.json\) denies \('github\/\*'\); no plan can allow it/);
      assert.deepEqual(await log(), [['deny', 'INVALID_INPUT', 'mcp__github__create_issue']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await workspace.dispose();

    const broken = await claude(withIntentRules('      allow: ["github"]'));
    assert.equal(broken.decision, 'deny');
    assert.match(broken.reason, /mcp_tools\.allow item 1 'github' is not <server>\/<tool>/);
  });

  it("Gemini CLI: a tool the plan's top level allows runs and is recorded; the intent's own list is not needed", async () => {
    workspace = await headlessHookWorkspace({ intents: `mcp_tools:\n  allow: ["other/echo"]\n${SAMPLE_INTENTS}` });
    const run = await runHook('gemini', hookFixture('gemini', 'before-other-mcp-tool', workspace.h.root), ['--intent', 'auth-refactor'], workspace.env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '', 'Gemini CLI runs the tool when the hook says nothing');
    assert.deepEqual(await log(), [['allow', 'MCP_TOOL_BY_POLICY', 'mcp_other_echo']]);
  });
});
