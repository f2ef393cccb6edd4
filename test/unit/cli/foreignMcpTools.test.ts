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

  const claude = async (intents: string, env: NodeJS.ProcessEnv = {}, options: { bound?: boolean; approvalSetting?: 'every-change' | 'destructive-only' } = {}) => {
    workspace = await headlessHookWorkspace({ intents, ...(options.approvalSetting ? { approvalSetting: options.approvalSetting } : {}) });
    const run = await runHook('claude', hookFixture('claude', 'pre-mcp-github-create-issue', workspace.h.root), options.bound === false ? [] : ['--intent', 'auth-refactor'], { ...workspace.env, ...env });
    assert.equal(run.code === 0 || run.code === 2, true, run.stderr);
    const out = run.stdout.trim() ? (JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }) : {};
    return { decision: out.hookSpecificOutput?.permissionDecision ?? (run.code === 2 ? 'deny' : 'none'), reason: out.hookSpecificOutput?.permissionDecisionReason ?? run.stderr };
  };
  const log = async () => (await workspace.governanceLog()).map((r) => [r.decision, r.code, r.tool_name]);

  it('Claude Code: a tool no plan names is refused, saying where to allow it', async () => {
    const answer = await claude(SAMPLE_INTENTS);
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason, /\[INVALID_INPUT\] 'mcp__github__create_issue' is a tool of another MCP server \('github'\) that no plan allows/);
    assert.match(answer.reason, /under intent 'auth-refactor' or at the top level for every intent: mcp_tools: \{ "github\/create_issue": read \} if it only reads, write if it changes something/);
    assert.deepEqual(await log(), [['deny', 'INVALID_INPUT', 'mcp__github__create_issue']]);
  });

  it("Claude Code: the intent's mcp_tools.allow lets it run, recorded with the rule; ask asks the agent's person", async () => {
    const allowed = await claude(withIntentRules('      allow: ["mcp__github__create_issue", "github/get_*"]'));
    assert.equal(allowed.decision, 'none', 'Claude Code runs the tool when the hook answers nothing');
    const [line] = await workspace.governanceLog();
    assert.deepEqual([line.decision, line.code, line.tool_name, line.intent_id], ['allow', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue', 'auth-refactor']);
    assert.match(String(line.message), /class write; .* by mcp_tools\.allow 'mcp__github__create_issue' of intent 'auth-refactor'/);
    await workspace.dispose();

    const asked = await claude(`mcp_tools:\n  ask: ["github/*"]\n${SAMPLE_INTENTS}`);
    assert.equal(asked.decision, 'ask');
    assert.match(asked.reason, /the MCP server 'github'\. The plan lets this tool run once a person agrees \(mcp_tools\.ask 'github\/\*' of the top level of /);
    assert.deepEqual(await log(), [['ask', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue']]);
  });

  it('the map form: read runs with no intent bound, recorded with its class and rule; write needs an intent', async () => {
    const read = await claude(`mcp_tools:\n  "github/*": ask\n  "github/create_*": read\n${SAMPLE_INTENTS}`, {}, { bound: false });
    assert.equal(read.decision, 'none', 'Claude Code runs the tool when the hook answers nothing');
    const [line] = await workspace.governanceLog();
    assert.deepEqual([line.decision, line.code, line.tool_name, line.intent_id], ['allow', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue', undefined]);
    assert.match(String(line.message), /class read; .* by mcp_tools 'github\/create_\*': read of the top level of /);
    await workspace.dispose();

    const write = await claude(`mcp_tools:\n  "github/create_issue": write\n${SAMPLE_INTENTS}`, {}, { bound: false });
    assert.equal(write.decision, 'deny');
    assert.match(write.reason, /\[NO_ACTIVE_INTENT\] mcp__github__create_issue \(the MCP server 'github'\) may change things only under an intent \(mcp_tools 'github\/create_issue': write of the top level of .*\)\. No intent is selected for this session/);
    assert.deepEqual(await log(), [['deny', 'NO_ACTIVE_INTENT', 'mcp__github__create_issue']]);
  });

  it('the map form: write under every-change asks, under destructive-only runs; ask always asks', async () => {
    const everyChange = await claude(withIntentRules('      "github/create_issue": write'), {}, { approvalSetting: 'every-change' });
    assert.equal(everyChange.decision, 'ask');
    assert.match(everyChange.reason, /under intent 'auth-refactor' \(mcp_tools 'github\/create_issue': write of intent 'auth-refactor' in .*\), and approval mode every-change \(set by the intentGovernor\.approval setting\) asks before every change/);
    assert.deepEqual(await log(), [['ask', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue']]);
    await workspace.dispose();

    const destructiveOnly = await claude(withIntentRules('      "github/create_issue": write'), {}, { approvalSetting: 'destructive-only' });
    assert.equal(destructiveOnly.decision, 'none');
    assert.deepEqual(await log(), [['allow', 'MCP_TOOL_BY_POLICY', 'mcp__github__create_issue']]);
    await workspace.dispose();

    const asked = await claude(withIntentRules('      "github/*": ask'), {}, { approvalSetting: 'destructive-only', bound: false });
    assert.equal(asked.decision, 'deny', 'an intent rule does not apply with no intent bound');
    await workspace.dispose();
    const askedTop = await claude(`mcp_tools:\n  "github/*": ask\n${SAMPLE_INTENTS}`, {}, { approvalSetting: 'destructive-only', bound: false });
    assert.equal(askedTop.decision, 'ask');
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
    await workspace.dispose();

    const badClass = await claude(`mcp_tools:\n  "github/*": reads\n${SAMPLE_INTENTS}`);
    assert.equal(badClass.decision, 'deny');
    assert.match(badClass.reason, /active_intents\.yaml:2:\d+: the file: mcp_tools 'github\/\*' is 'reads', not one of read, write, ask/);
  });

  it("Gemini CLI: a tool the plan's top level allows runs and is recorded; the intent's own list is not needed", async () => {
    workspace = await headlessHookWorkspace({ intents: `mcp_tools:\n  other/echo: read\n${SAMPLE_INTENTS}` });
    const run = await runHook('gemini', hookFixture('gemini', 'before-other-mcp-tool', workspace.h.root), ['--intent', 'auth-refactor'], workspace.env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '', 'Gemini CLI runs the tool when the hook says nothing');
    assert.deepEqual(await log(), [['allow', 'MCP_TOOL_BY_POLICY', 'mcp_other_echo']]);
  });

  describe("every agent's door: the same plan, each agent's payload", () => {
    /** Runs `fixture` (or `payload`) through `governor hook <agent>` with `rules` as the plan's top-level mcp_tools, no intent bound. */
    const door = async (agent: string, fixture: string, rules: string, edit: (payload: Record<string, unknown>) => void = () => {}) => {
      workspace = await headlessHookWorkspace({ intents: `mcp_tools:\n${rules}\n${SAMPLE_INTENTS}` });
      const payload = JSON.parse(hookFixture(agent, fixture, workspace.h.root)) as Record<string, unknown>;
      edit(payload);
      const run = await runHook(agent, JSON.stringify(payload), ['--workspace', workspace.h.root], workspace.env);
      return { ...run, text: `${run.stdout}${run.stderr}` };
    };
    const lastLine = async () => {
      const lines = await workspace.governanceLog();
      const line = lines[lines.length - 1];
      return [line.decision, line.code, line.tool_name, String(line.message)] as [unknown, unknown, unknown, string];
    };

    it("Copilot CLI: '<server>-<tool>' allowed as read runs and is traced; one '-' more reads several ways, each of which the plan must allow", async () => {
      const single = await door('copilot', 'pre-other-mcp-tool', '  "other/list_*": read', (p) => (p.toolName = 'other-list_intents'));
      assert.equal(single.stdout, '', single.text);
      const [decision, code, tool, message] = await lastLine();
      assert.deepEqual([decision, code, tool], ['allow', 'MCP_TOOL_BY_POLICY', 'other-list_intents']);
      assert.match(message, /class read; .* by mcp_tools 'other\/list_\*': read of the top level of /);
      await workspace.dispose();

      const partly = await door('copilot', 'pre-other-mcp-tool', '  "github-mcp-server/*": read');
      assert.match(partly.text, /"permissionDecision":"deny"/);
      assert.match(partly.text, /it reads as 'github\/mcp-server-create_or_update_file', 'github-mcp\/server-create_or_update_file', 'github-mcp-server\/create_or_update_file', and a plan must allow every reading \(it does not allow 'github\/mcp-server-create_or_update_file', 'github-mcp\/server-create_or_update_file'\)/);
      await workspace.dispose();

      const covered = await door('copilot', 'pre-other-mcp-tool', '  "github*/*": read\n  "github-mcp-server/create_*": ask');
      assert.match(covered.text, /"permissionDecision":"ask"/, 'every reading allowed: the strictest class of them decides');
      assert.deepEqual((await lastLine()).slice(0, 3), ['ask', 'MCP_TOOL_BY_POLICY', 'github-mcp-server-create_or_update_file']);
    });

    it("VS Code's agent: 'mcp_<server>_<tool>' goes to the same plan; not listed, it is refused with where to allow it", async () => {
      const refused = await door('vscode', 'pre-other-mcp-tool', '  "gitlab/*": read');
      assert.match(refused.text, /"permissionDecision":"deny"/);
      assert.match(refused.text, /it reads as 'github\/create_or_update_file', 'github_create\/or_update_file', and a plan must allow every reading \(it allows none of them\).*mcp_tools: \{ \\"github\*\/\*\\": read \}/);
      await workspace.dispose();

      const asked = await door('vscode', 'pre-other-mcp-tool', '  "github*/*": ask');
      assert.match(asked.text, /"permissionDecision":"ask"/);
      assert.deepEqual((await lastLine()).slice(0, 3), ['ask', 'MCP_TOOL_BY_POLICY', 'mcp_github_create_or_update_file']);
    });

    it("Cline: use_mcp_tool names server and tool apart; allowed as read it runs and is traced, not listed it stops the task with the message", async () => {
      const allowed = await door('cline', 'pre-use-mcp-tool', '  "github/get_*": read');
      assert.equal(allowed.stdout, '', allowed.text);
      const [decision, code, tool, message] = await lastLine();
      assert.deepEqual([decision, code, tool], ['allow', 'MCP_TOOL_BY_POLICY', 'use_mcp_tool']);
      assert.match(message, /allowed use_mcp_tool github\/get_issue \(the MCP server 'github', class read;/);
      await workspace.dispose();

      const refused = await door('cline', 'pre-use-mcp-tool', '  "github/create_*": read');
      const answer = JSON.parse(refused.stdout) as { cancel?: boolean; errorMessage?: string };
      assert.equal(answer.cancel, true);
      assert.match(answer.errorMessage ?? '', /'use_mcp_tool github\/get_issue' is a tool of another MCP server \('github'\) that no plan allows.*mcp_tools: \{ "github\/get_issue": read \}/);
    });

    it("OpenCode: '<server>_<tool>' reads every way it splits at '_'; a rule covering each runs it, traced", async () => {
      const refused = await door('opencode', 'pre-mcp-tool', '  "github/*": read');
      assert.match(refused.text, /"decision":"deny"/);
      assert.match(refused.text, /it reads as 'github\/get_issue', 'github_get\/issue', and a plan must allow every reading \(it does not allow 'github_get\/issue'\)/);
      await workspace.dispose();

      const allowed = await door('opencode', 'pre-mcp-tool', '  "github/*": read\n  "github_get/issue": read');
      assert.match(allowed.stdout, /"decision":"allow"/, allowed.text);
      assert.deepEqual((await lastLine()).slice(0, 3), ['allow', 'MCP_TOOL_BY_POLICY', 'github_get_issue']);
    });

    it("Cursor: beforeMCPExecution that names the server goes to the plan; one that names only a command is refused, saying so", async () => {
      const allowed = await door('cursor', 'before-mcp-execution-named', '  "github/get_*": read');
      assert.equal(allowed.code, 0, allowed.text);
      assert.match(allowed.stdout, /"permission":"allow"/);
      assert.deepEqual((await lastLine()).slice(0, 2), ['allow', 'MCP_TOOL_BY_POLICY']);
      await workspace.dispose();

      const unnamed = await door('cursor', 'before-mcp-execution-other', '  "*/database_query": read');
      assert.equal(unnamed.code, 2);
      assert.match(unnamed.text, /'database_query' is a tool of an MCP server other than Intent Governor's, and Cursor did not name its server here, so no rule of the plan's mcp_tools can be matched to it/);
    });
  });
});
