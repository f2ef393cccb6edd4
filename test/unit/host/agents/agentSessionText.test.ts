import { strict as assert } from 'node:assert';
import type { IntentBinding, LiveSession } from '../../../../src/core/sessions/sessionActivity';
import { sessionDoor } from '../../../../src/core/sessions/sessionDoor';
import { agentById } from '../../../../src/core/agents/registry';
import { callText, sessionDescription, withAgents } from '../../../../src/host/agents/agentSessionText';
import { intentStatus } from '../../../../src/host/intents/intentStatus';

/** The labels the host hands its session registry: the agent registry's. */
const labels = (id: string) => agentById(id)?.label;

function live(id: string, agent: string, intent: IntentBinding, pendingApprovals = 0): LiveSession {
  return { id, agent, door: sessionDoor(id, labels), started: '2026-01-01T00:00:00.000Z', lastActive: '2026-01-01T00:00:00.000Z', intent, calls: 1, recent: [], pendingApprovals };
}

describe('what the status bar and the Agent Sessions view say about live agents', () => {
  it("names the agent's intent while the human has picked none (it used to say only `no intent`)", () => {
    const shown = withAgents(intentStatus(undefined, undefined), undefined, [live('mcp-http:1', 'claude-desktop', { kind: 'own', intentId: 'INT-001' })]);
    assert.equal(shown.text, '$(shield) no intent · 1 agent on INT-001');
    assert.match(shown.tooltip, /Agent sessions:\n• claude-desktop \(MCP\): INT-001 \(its own\)$/);
  });

  it('counts the agents beside the human’s intent and lists them with door and intent in the tooltip', () => {
    const sessions = [
      live('mcp-http:1', 'sdk-agent', { kind: 'own', intentId: 'auth-refactor' }, 1),
      live('claude:abc', 'claude-code', { kind: 'default', intentId: 'auth-refactor' }),
      live('vscode-lm', 'vscode-agent', { kind: 'unbound' }),
    ];
    const shown = withAgents(intentStatus(undefined, 'auth-refactor'), 'auth-refactor', sessions);
    assert.equal(shown.text, '$(shield) auth-refactor · 3 agents');
    assert.match(shown.tooltip, /• sdk-agent \(MCP\): auth-refactor \(its own\), 1 approval pending\n• claude-code \(hook bridge \(Claude Code\)\): auth-refactor \(yours\)\n• vscode-agent \(language model tools\): unbound$/);
    assert.equal(withAgents(intentStatus(undefined, 'auth-refactor'), 'auth-refactor', [...sessions, live('mcp-http:2', 'other', { kind: 'own', intentId: 'docs' })]).text, '$(shield) auth-refactor · 4 agents (also on docs)');
  });

  it('leaves the status bar as it was when no agent is live', () => {
    assert.deepEqual(withAgents(intentStatus(undefined, undefined), undefined, []), intentStatus(undefined, undefined));
  });

  it('tells each door apart, and shows absolute paths of native tools relative to the workspace', () => {
    assert.equal(sessionDescription(live('codex-resident:1', 'codex-cli', { kind: 'default' }, 2)), 'resident governor (Codex CLI) · no intent · 2 pending');
    assert.equal(sessionDoor('opencode:s1', labels).label, 'hook bridge (OpenCode)');
    assert.equal(sessionDoor('mcp-stdio:1').label, 'MCP (stdio)');
    assert.equal(sessionDoor('host-test').label, 'extension API');
    assert.equal(sessionDoor('opencode:s1').label, 'extension API', 'without labels, no id is taken for an agent');
    assert.equal(callText({ tool: 'write_file', target: '/w/src/a.ts', decision: 'denied', code: 'SCOPE_VIOLATION', at: '' }, '/w'), 'write_file src/a.ts: denied SCOPE_VIOLATION');
    assert.equal(callText({ tool: 'delete_file', target: 'src/a.ts', decision: 'allowed', approver: 'modal', at: '' }), 'delete_file src/a.ts: allowed (approved by modal)');
  });
});
