import { strict as assert } from 'node:assert';
import { parseMcpToolPattern } from '../../../../src/core/approval/mcpToolPattern';
import { parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { foreignToolDecision, type ForeignToolPolicy } from '../../../../src/core/policy/foreignMcpTools';
import type { McpToolRules } from '../../../../src/core/intents/intent';
import { logEntryOf } from '../../../../src/core/telemetry/otlpLogEntry';
import { agentById } from '../../../../src/core/agents/registry';

const call = { server: 'github', tool: 'create_issue' };
const base: ForeignToolPolicy = { planFile: '.orchestration/active_intents.yaml', managed: { file: '/etc/intent-governor/managed.json', state: 'absent', mcpToolsDeny: [] } };

/** Rules as the intents file reads them, from the map form. */
const rules = (map: Record<string, 'read' | 'write' | 'ask'>): McpToolRules => Object.entries(map).map(([pattern, cls]) => ({ pattern, class: cls, written: `mcp_tools '${pattern}': ${cls}` }));

describe('foreign MCP tools by policy', () => {
  it('reads both spellings, * in either part, and nothing wider than written', () => {
    for (const text of ['github/create_issue', 'mcp__github__create_issue', 'github/create_*', 'mcp__git*__*']) {
      assert.equal(foreignToolDecision(call, 'mcp__github__create_issue', { ...base, plan: rules({ [text]: 'read' }) }).decision, 'read', text);
    }
    for (const text of ['github/create', 'gitlab/*', 'github/get_*', 'mcp__github__create_issue_x']) {
      assert.equal(foreignToolDecision(call, 'mcp__github__create_issue', { ...base, plan: rules({ [text]: 'read' }) }).decision, 'deny', text);
    }
    for (const bad of ['github', '', '*', 'a/b/c', 'git hub/x']) assert.equal(typeof parseMcpToolPattern(bad), 'string', bad);
    const dashed = { server: 'github-mcp-server', tool: 'create-issue' };
    assert.equal(foreignToolDecision(dashed, 'x', { ...base, plan: rules({ 'github-mcp-server/create-*': 'read' }) }).decision, 'read', "a '-' in a pattern is the character itself");
    assert.equal(foreignToolDecision(dashed, 'x', { ...base, plan: rules({ 'github-mcp-serve/create-issue': 'read' }) }).decision, 'deny');
  });

  it('the most specific pattern decides whatever the order or the place; equally specific ones, the stricter class', () => {
    const decide = (intent: McpToolRules | undefined, plan: McpToolRules | undefined) => {
      const verdict = foreignToolDecision(call, 'x', { ...base, ...(intent ? { intent: { id: 'auth-refactor', mcp_tools: intent } } : {}), ...(plan ? { plan } : {}) });
      return verdict.decision === 'deny' ? 'deny' : `${verdict.decision} by ${verdict.rule}`;
    };
    const file = base.planFile;
    // An exact name beats a pattern, written before or after it, in the intent or at the top level.
    assert.equal(decide(undefined, rules({ 'github/*': 'ask', 'github/create_issue': 'read' })), `read by mcp_tools 'github/create_issue': read of the top level of ${file}`);
    assert.equal(decide(undefined, rules({ 'github/create_issue': 'read', 'github/*': 'ask' })), `read by mcp_tools 'github/create_issue': read of the top level of ${file}`);
    assert.equal(decide(rules({ 'github/*': 'read' }), rules({ 'github/create_issue': 'ask' })), `ask by mcp_tools 'github/create_issue': ask of the top level of ${file}`);
    assert.equal(decide(rules({ 'mcp__github__create_issue': 'write' }), rules({ 'github/*': 'ask' })), `write by mcp_tools 'mcp__github__create_issue': write of intent 'auth-refactor' in ${file}`);
    // Among patterns, the one with more characters besides '*'.
    assert.equal(decide(rules({ '*/*': 'ask', 'github/create_*': 'read', 'github/*': 'write' }), undefined), `read by mcp_tools 'github/create_*': read of intent 'auth-refactor' in ${file}`);
    // Equally specific: ask over write over read, wherever each is written.
    assert.equal(decide(rules({ 'github/*': 'read' }), rules({ 'github/*': 'write' })), `write by mcp_tools 'github/*': write of the top level of ${file}`);
    assert.equal(decide(rules({ 'github/*': 'ask' }), rules({ 'mcp__github__*': 'read' })), `ask by mcp_tools 'github/*': ask of intent 'auth-refactor' in ${file}`);
  });

  it('a name that reads several ways runs only when every reading is allowed, as the strictest; a managed deny of any reading refuses it', () => {
    const twoWays = { server: 'github', tool: 'create_issue', ambiguous: { separator: '_', others: [{ server: 'github_create', tool: 'issue' }] } };
    const decide = (plan: McpToolRules, deny: string[] = []) => foreignToolDecision(twoWays, 'github_create_issue', { ...base, plan, managed: { ...base.managed, state: deny.length ? 'present' : 'absent', mcpToolsDeny: deny } });
    const partly = decide(rules({ 'github/*': 'read' }));
    assert.equal(partly.decision, 'deny');
    assert.match(partly.decision === 'deny' ? partly.reason : '', /it reads as 'github\/create_issue', 'github_create\/issue', and a plan must allow every reading \(it does not allow 'github_create\/issue'\)/);
    const both = decide(rules({ 'github/*': 'read', 'github_create/issue': 'write' }));
    assert.deepEqual(both, { decision: 'write', rule: `mcp_tools 'github_create/issue': write of the top level of ${base.planFile}` });
    const denied = decide(rules({ 'github*/*': 'read' }), ['github_create/*']);
    assert.equal(denied.decision, 'deny');
    assert.match(denied.decision === 'deny' ? denied.reason : '', /\(read as 'github_create\/issue'\), which the administrator's managed file .* denies \('github_create\/\*'\)/);
  });

  it('the managed deny wins over any class, and a broken managed file refuses', () => {
    const intent = { id: 'auth-refactor', mcp_tools: rules({ 'github/create_issue': 'read' }) };
    const denied = foreignToolDecision(call, 'x', { ...base, intent, managed: { ...base.managed, state: 'present', mcpToolsDeny: ['github/create_*'] } });
    assert.equal(denied.decision, 'deny');
    assert.equal(foreignToolDecision(call, 'x', { ...base, intent, managed: { ...base.managed, state: 'broken', problem: 'not JSON' } }).decision, 'deny');
  });

  it('a tool no rule names is refused with where and how to allow it', () => {
    const verdict = foreignToolDecision(call, 'mcp__github__create_issue', { ...base, intent: { id: 'auth-refactor' }, plan: rules({ 'gitlab/*': 'read' }) });
    assert.equal(verdict.decision, 'deny');
    assert.match(verdict.reason, /in \.orchestration\/active_intents\.yaml, under intent 'auth-refactor' or at the top level for every intent: mcp_tools: \{ "github\/create_issue": read \} if it only reads, write if it changes something/);
  });

  it('the intents file: the map form and the lists (allow is write) per intent and at the top level, in the order written', () => {
    const ok = parseIntentsFile('mcp_tools:\n  "github/get_*": read\n  db/query: ask\nactive_intents:\n  - id: a\n    name: A\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    mcp_tools:\n      ask: ["mcp__github__create_issue"]\n      allow: ["github/update_*"]\n      "mcp__jira__*": write\n', 'f.yaml');
    assert.ok(ok.valid, JSON.stringify(ok));
    assert.deepEqual(ok.mcp_tools, [
      { pattern: 'github/get_*', class: 'read', written: "mcp_tools 'github/get_*': read" },
      { pattern: 'db/query', class: 'ask', written: "mcp_tools 'db/query': ask" },
    ]);
    assert.deepEqual(ok.intents[0].mcp_tools?.map((r) => [r.pattern, r.class, r.written]), [
      ['mcp__github__create_issue', 'ask', "mcp_tools.ask 'mcp__github__create_issue'"],
      ['github/update_*', 'write', "mcp_tools.allow 'github/update_*'"],
      ['mcp__jira__*', 'write', "mcp_tools 'mcp__jira__*': write"],
    ]);
  });

  it('the intents file: a key that is no pattern, a class that is not read/write/ask or a bad list item is a problem at its line', () => {
    const bad = parseIntentsFile('mcp_tools:\n  "github/*": allow\nactive_intents:\n  - id: a\n    name: A\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    mcp_tools:\n      alow: ["github/x"]\n      allow: ["github"]\n      "db/query": reads\n      "db/drop": [write]\n', 'f.yaml');
    assert.ok(!bad.valid);
    assert.deepEqual(bad.problems.map((p) => [p.line, p.message]), [
      [2, "the file: mcp_tools 'github/*' is 'allow', not one of read, write, ask (allow is written write)"],
      [9, `intent 'a': mcp_tools 'alow' is not <server>/<tool> (e.g. "github/create_issue") or mcp__<server>__<tool>; write "<server>/<tool>": read, write or ask (or the lists allow: and ask:)`],
      [10, `intent 'a': mcp_tools.allow item 1 'github' is not <server>/<tool> (e.g. "github/create_issue") or mcp__<server>__<tool>`],
      [11, "intent 'a': mcp_tools 'db/query' is 'reads', not one of read, write, ask"],
      [12, "intent 'a': mcp_tools 'db/drop' is a list, not one of read, write, ask"],
    ]);
  });

  it('an allowed call exported over OTLP is not a warning; a refusal still is', () => {
    assert.equal(logEntryOf('governance_log', { decision: 'allow', code: 'MCP_TOOL_BY_POLICY', tool_name: 'mcp__github__create_issue' }).warning, false);
    assert.equal(logEntryOf('governance_log', { decision: 'deny', code: 'INVALID_INPUT' }).warning, true);
  });

  it("Claude Code's, Codex CLI's and Gemini CLI's dialects name a foreign tool's server and tool; their own server's tools pass", () => {
    const place = { cwd: '/w', workspace: '/w' };
    const foreign = (agent: string, name: string) => {
      const mapping = agentById(agent)?.dialect.mapTool(name, {}, place);
      return mapping?.kind === 'refused' ? mapping.foreign : mapping?.kind;
    };
    assert.deepEqual(foreign('claude', 'mcp__github__create_issue'), { server: 'github', tool: 'create_issue' });
    assert.deepEqual(foreign('codex', 'mcp__db__run__query'), { server: 'db', tool: 'run__query' });
    assert.deepEqual(foreign('gemini', 'mcp_other_echo'), { server: 'other', tool: 'echo' });
    assert.equal(foreign('claude', 'mcp__intent-governor__write_file'), 'passthrough');
    assert.equal(foreign('claude', 'NotebookEdit'), undefined, 'an unknown tool is refused with no server to allow');
  });

  it("every other agent's dialect reads a foreign tool's server and tool where its name tells them apart, and every reading where it does not", () => {
    const place = { cwd: '/w', workspace: '/w' };
    const foreign = (agent: string, name: string, input: Record<string, unknown> = {}) => {
      const mapping = agentById(agent)?.dialect.mapTool(name, input, place);
      return mapping?.kind === 'refused' ? mapping.foreign : mapping?.kind;
    };
    // Cline's use_mcp_tool and Cursor's named server: apart, one reading.
    assert.deepEqual(foreign('cline', 'use_mcp_tool', { server_name: 'github', tool_name: 'get_issue', arguments: '{}' }), { server: 'github', tool: 'get_issue' });
    assert.equal(foreign('cline', 'use_mcp_tool', { server_name: 'intent-governor', tool_name: 'write_file' }), 'passthrough');
    assert.equal(foreign('cline', 'use_mcp_tool', { tool_name: 'get_issue' }), undefined, 'no server: refused, nothing to allow');
    assert.deepEqual(foreign('cursor', 'MCP:github:get_issue'), { server: 'github', tool: 'get_issue' });
    assert.equal(foreign('cursor', 'MCP:get_issue'), undefined, "preToolUse without the server: nothing a plan can name");
    assert.deepEqual(foreign('cursor', 'beforeMCPExecution', { tool_name: 'get_issue', server_name: 'github', command: 'npx server-github' }), { server: 'github', tool: 'get_issue' });
    assert.equal(foreign('cursor', 'beforeMCPExecution', { tool_name: 'get_issue', command: 'npx server-github' }), undefined);
    // Joined names: every split, the server at most 13 characters in VS Code's (it cuts server names there).
    assert.deepEqual(foreign('vscode', 'mcp_db_query'), { server: 'db', tool: 'query' });
    assert.deepEqual(foreign('vscode', 'mcp_my_server_x_tool_with_long_name'), {
      server: 'my',
      tool: 'server_x_tool_with_long_name',
      ambiguous: { separator: '_', others: [{ server: 'my_server', tool: 'x_tool_with_long_name' }, { server: 'my_server_x', tool: 'tool_with_long_name' }] },
    });
    assert.equal(foreign('vscode', 'mcp_intent-govern_write_file'), 'passthrough');
    assert.deepEqual(foreign('gemini', 'mcp_other_list_intents'), { server: 'other', tool: 'list_intents', ambiguous: { separator: '_', others: [{ server: 'other_list', tool: 'intents' }] } });
    assert.deepEqual(foreign('copilot', 'db-query'), { server: 'db', tool: 'query' });
    assert.deepEqual(foreign('opencode', 'db_query'), { server: 'db', tool: 'query' });
    assert.equal(foreign('opencode', 'apply_patch', { patchText: '' }), undefined, "OpenCode's own tools are not read as MCP tools");
    assert.equal(foreign('copilot', 'write_bash', {}), undefined, "nor Copilot CLI's");
  });
});
