import { strict as assert } from 'node:assert';
import { parseMcpToolPattern } from '../../../../src/core/approval/mcpToolPattern';
import { parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { foreignToolDecision, type ForeignToolPolicy } from '../../../../src/core/policy/foreignMcpTools';
import { logEntryOf } from '../../../../src/core/telemetry/otlpLogEntry';
import { agentById } from '../../../../src/core/agents/registry';

const call = { server: 'github', tool: 'create_issue' };
const base: ForeignToolPolicy = { planFile: '.orchestration/active_intents.yaml', managed: { file: '/etc/intent-governor/managed.json', state: 'absent', mcpToolsDeny: [] } };

describe('foreign MCP tools by policy', () => {
  it('reads both spellings, * in either part, and nothing wider than written', () => {
    for (const text of ['github/create_issue', 'mcp__github__create_issue', 'github/create_*', 'mcp__git*__*']) {
      assert.equal(foreignToolDecision(call, 'mcp__github__create_issue', { ...base, plan: { allow: [text], ask: [] } }).decision, 'allow', text);
    }
    for (const text of ['github/create', 'gitlab/*', 'github/get_*', 'mcp__github__create_issue_x']) {
      assert.equal(foreignToolDecision(call, 'mcp__github__create_issue', { ...base, plan: { allow: [text], ask: [] } }).decision, 'deny', text);
    }
    for (const bad of ['github', '', '*', 'a/b/c', 'git hub/x']) assert.equal(typeof parseMcpToolPattern(bad), 'string', bad);
  });

  it('ask wins over allow, the managed deny over both, and a broken managed file refuses', () => {
    const intent = { id: 'auth-refactor', mcp_tools: { allow: ['github/*'], ask: [] } };
    assert.equal(foreignToolDecision(call, 'x', { ...base, intent, plan: { allow: [], ask: ['github/create_issue'] } }).decision, 'ask');
    const denied = foreignToolDecision(call, 'x', { ...base, intent, managed: { ...base.managed, state: 'present', mcpToolsDeny: ['github/create_*'] } });
    assert.equal(denied.decision, 'deny');
    assert.equal(foreignToolDecision(call, 'x', { ...base, intent, managed: { ...base.managed, state: 'broken', problem: 'not JSON' } }).decision, 'deny');
  });

  it('the intents file: mcp_tools per intent and at the top level; an unknown key or a bad pattern is a problem at its line', () => {
    const ok = parseIntentsFile('mcp_tools:\n  allow: ["github/get_*"]\nactive_intents:\n  - id: a\n    name: A\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    mcp_tools:\n      ask: ["mcp__github__create_issue"]\n', 'f.yaml');
    assert.ok(ok.valid, JSON.stringify(ok));
    assert.deepEqual(ok.mcp_tools, { allow: ['github/get_*'], ask: [] });
    assert.deepEqual(ok.intents[0].mcp_tools, { allow: [], ask: ['mcp__github__create_issue'] });
    const bad = parseIntentsFile('active_intents:\n  - id: a\n    name: A\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n    mcp_tools:\n      alow: ["github/x"]\n      allow: ["github"]\n', 'f.yaml');
    assert.ok(!bad.valid);
    assert.deepEqual(bad.problems.map((p) => [p.line, p.message]), [
      [7, "intent 'a': mcp_tools takes 'allow' and 'ask', not 'alow'"],
      [8, `intent 'a': mcp_tools.allow item 1 'github' is not <server>/<tool> (e.g. "github/create_issue") or mcp__<server>__<tool>`],
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
});
