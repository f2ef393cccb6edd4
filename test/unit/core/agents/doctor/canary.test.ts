import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanaryCall, CanaryReading } from '../../../../../src/core/agents/common/canary';
import type { HookEvent } from '../../../../../src/core/agents/common/hookDialect';
import { matcherCovers, runDoctor, scriptArgv } from '../../../../../src/core/agents/doctor/doctor';
import type { DoctorPorts } from '../../../../../src/core/agents/doctor/doctorPorts';
import { AGENTS, agentById } from '../../../../../src/core/agents/registry';
import { removeTree } from '../../../../support/removeTree';

/**
 * Each agent's canary, read against the agent's own dialect: the payload it sends is a pre-tool write of the canary
 * file in that dialect, and its `blocks` reads the dialect's deny as a refusal (with the governor's reason), its allow
 * as none, and its failure answer as a refusal that did not come from the governor.
 */
describe("agents' doctor canaries", () => {
  let root: string;
  let call: CanaryCall;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ig-canary-')));
    call = { workspace: root, path: join(root, '.intent-governor-doctor', 'canary-1.txt'), relativePath: '.intent-governor-doctor/canary-1.txt', sessionId: 'doctor:1', callId: 'doctor-canary-1', content: 'x\n' };
  });
  afterEach(() => removeTree(root));

  /** The hook payload the agent's door hands the governor (OpenCode's plugin builds it from the hook's arguments). */
  const hookPayload = (agent: (typeof AGENTS)[number]): unknown => {
    const payload = agent.canary.payload(call);
    if (agent.canary.door.kind !== 'plugin') return payload;
    const { input, output } = payload as { input: Record<string, unknown>; output: { args: unknown } };
    return { event: 'tool.execute.before', sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: output.args, directory: root, worktree: root };
  };
  const preEvent = (agent: (typeof AGENTS)[number]): Extract<HookEvent, { kind: 'tool' }> => {
    const parsed = agent.dialect.parse(hookPayload(agent));
    assert.ok(parsed.ok, parsed.ok ? '' : `${agent.id}: ${parsed.message}`);
    assert.ok(parsed.event.kind === 'tool' && parsed.event.phase === 'pre', `${agent.id}: not a pre-tool event`);
    return parsed.event as Extract<HookEvent, { kind: 'tool' }>;
  };
  /** What the agent's door gives back for a dialect reply (a plugin throws on anything but allow). */
  const read = (agent: (typeof AGENTS)[number], reply: { exitCode: number; stdout: string; stderr: string }): CanaryReading => {
    if (agent.canary.door.kind !== 'plugin') return agent.canary.blocks({ via: 'process', ...reply });
    const answer = JSON.parse(reply.stdout) as { decision: string; reason?: string };
    return agent.canary.blocks({ via: 'plugin', threw: answer.decision !== 'allow', message: answer.reason ?? '' });
  };

  it('every registered agent sends a pre-tool write of the canary file, in its own dialect', () => {
    for (const agent of AGENTS) {
      const event = preEvent(agent);
      assert.match(event.sessionId, /doctor:1$/, agent.id);
      const mapping = agent.dialect.mapTool(event.toolName, event.toolInput, { cwd: root, workspace: root });
      assert.equal(mapping.kind, 'governed', `${agent.id}: ${JSON.stringify(mapping)}`);
      if (mapping.kind !== 'governed') continue;
      assert.deepEqual(
        mapping.calls.map((c) => [c.tool, 'path' in c.input ? c.input.path : undefined]),
        [['write_file', call.path]],
        agent.id,
      );
      if (agent.canary.door.kind === 'json') assert.equal(agent.canary.door.tool, event.toolName, `${agent.id}: the door's tool is the one the payload names`);
    }
  });

  it("reads each dialect's deny as a refusal with the governor's reason, its allow as none, its failure as a refusal without a code", () => {
    const reason = '[SCOPE_VIOLATION] ".intent-governor-doctor/canary-1.txt" is outside the owned scope of intent a.';
    for (const agent of AGENTS) {
      const event = preEvent(agent);
      const denied = read(agent, agent.dialect.render(event, { decision: 'deny', reason }));
      assert.ok(denied.blocked, `${agent.id}: a deny must block`);
      if (denied.blocked) assert.ok(denied.reason.includes('[SCOPE_VIOLATION]'), `${agent.id}: ${denied.reason}`);
      const allowed = read(agent, agent.dialect.render(event, { decision: 'allow' }));
      assert.equal(allowed.blocked, false, `${agent.id}: an allow must not block`);
      const failed = read(agent, agent.dialect.renderFailure('the hook crashed'));
      assert.ok(failed.blocked, `${agent.id}: its failure answer must block`);
      if (failed.blocked) assert.doesNotMatch(failed.reason, /\[[A-Z_]+\]/u, agent.id);
    }
  });

  it('a hook that crashes with exit 1 and no answer does not block, except where the agent says it must (Cursor with failClosed)', () => {
    const crash = { via: 'process' as const, exitCode: 1, stdout: '', stderr: 'Error: Cannot find module' };
    for (const agent of AGENTS.filter((a) => a.canary.door.kind !== 'plugin')) assert.equal(agent.canary.blocks(crash).blocked, false, agent.id);
    assert.equal(agentById('cursor').canary.blocks({ ...crash, entry: { command: 'x', failClosed: true } }).blocked, true);
    // Codex runs the tool on an exit 2 that says nothing.
    assert.equal(agentById('codex').canary.blocks({ via: 'process', exitCode: 2, stdout: '', stderr: '' }).blocked, false);
    // Claude Code's mcp_tool hook that fails blocks only with onFailure "block".
    const claude = agentById('claude').canary;
    assert.equal(claude.blocks({ via: 'mcp_tool', text: 'server gone', isError: true, onFailure: 'block' }).blocked, true);
    assert.equal(claude.blocks({ via: 'mcp_tool', text: 'server gone', isError: true }).blocked, false);
  });

  it("fills Claude Code's mcp_tool input template from the payload: objects as JSON text, missing fields as ''", () => {
    const args = agentById('claude').canary.mcpToolArguments?.({ tool_input: '${tool_input}', session_id: '${session_id}', prompt: '${prompt}' }, { tool_input: { a: 1 }, session_id: 's' });
    assert.deepEqual(args, { tool_input: '{"a":1}', session_id: 's', prompt: '' });
  });

  it("matches hook matchers as the agents do, and runs a hook file with its #! line's interpreter", () => {
    assert.ok(matcherCovers(undefined, 'Write') && matcherCovers('*', 'Write') && matcherCovers('', 'Write'));
    assert.ok(matcherCovers('Write|Edit', 'Write'));
    assert.ok(!matcherCovers('Read', 'Write'));
    assert.ok(!matcherCovers('Writer', 'Write'));
    assert.deepEqual(scriptArgv('#!/bin/sh\necho', '/w/h.sh'), ['/bin/sh', '/w/h.sh']);
    assert.deepEqual(scriptArgv('#!/usr/bin/env bash\n', '/w/h.sh'), ['/usr/bin/env', 'bash', '/w/h.sh']);
    assert.deepEqual(scriptArgv('echo hi\n', '/w/h.sh'), ['bash', '/w/h.sh']);
  });

  describe('runDoctor', () => {
    const never = (): never => {
      throw new Error('not expected');
    };
    const ports = (over: Partial<DoctorPorts>): DoctorPorts => ({ run: never, mcpTool: never, plugin: never, version: async () => ({ found: false }), ...over });

    it('picks a canary file no intent owns: under .orchestration/ (protected) when an intent owns the hidden folder', async () => {
      mkdirSync(join(root, '.orchestration'));
      writeFileSync(join(root, '.orchestration', 'active_intents.yaml'), 'active_intents:\n  - id: all\n    name: All\n    status: IN_PROGRESS\n    owned_scope: [".intent-governor-doctor/**", "src/**"]\n');
      const report = await runDoctor(root, ports({}), { agents: [] });
      assert.match(report.canary.path, /^\.orchestration\/doctor-canary-[0-9a-f]{8}\.txt$/);
      assert.match(report.canary.sessionId, /^doctor:[0-9a-f-]{36}$/);
      writeFileSync(join(root, '.orchestration', 'active_intents.yaml'), 'active_intents: []\n');
      assert.match((await runDoctor(root, ports({}), { agents: [] })).canary.path, /^\.intent-governor-doctor\/canary-[0-9a-f]{8}\.txt$/);
    });

    it('reports a hook that does not answer in time as broken, and an agent with no hook file as not installed', async () => {
      mkdirSync(join(root, '.gemini'));
      writeFileSync(join(root, '.gemini', 'settings.json'), JSON.stringify({ hooks: { BeforeTool: [{ matcher: '*', hooks: [{ type: 'command', command: 'node "/x/hook.js" hook gemini' }] }] } }));
      const report = await runDoctor(root, ports({ run: async () => ({ exitCode: null, stdout: '', stderr: '', timedOut: true }) }), { agents: [agentById('gemini'), agentById('codex')], timeoutMs: 1000 });
      assert.equal(report.ok, false);
      const [gemini, codex] = report.agents;
      assert.equal(gemini.verdict, 'broken');
      assert.match(gemini.detail, /did not answer within 1 s/);
      assert.equal(gemini.fix, 'run `governor hooks install --agent gemini`');
      assert.equal(gemini.version, 'not found');
      assert.deepEqual([codex.verdict, codex.fix], ['not installed', 'governor hooks install --agent codex']);
    });

    it("reports an installed door of an agent whose adapter says it can only trace as trace-only, which fails the run", async () => {
      mkdirSync(join(root, '.gemini'));
      writeFileSync(join(root, '.gemini', 'settings.json'), JSON.stringify({ hooks: { BeforeTool: [{ matcher: '*', hooks: [{ type: 'command', command: 'node "/x/hook.js" hook gemini' }] }] } }));
      const tracing = { ...agentById('gemini'), enforcement: 'trace-only' as const };
      const report = await runDoctor(root, ports({ run: async () => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false }) }), { agents: [tracing] });
      assert.equal(report.agents[0].verdict, 'trace-only');
      assert.match(report.agents[0].detail, /can only trace its calls, not refuse them/);
      assert.equal(report.ok, false);
    });

    it('reports a hook file that is not JSON as broken, and one whose matcher skips the canary tool', async () => {
      mkdirSync(join(root, '.claude'));
      writeFileSync(join(root, '.claude', 'settings.local.json'), '{ "hooks": ');
      const [bad] = (await runDoctor(root, ports({}), { agents: [agentById('claude')] })).agents;
      assert.equal(bad.verdict, 'broken');
      assert.match(bad.detail, /is not valid JSON/);
      writeFileSync(join(root, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node "/x/hook.js" hook claude' }] }] } }));
      const [skipped] = (await runDoctor(root, ports({}), { agents: [agentById('claude')] })).agents;
      assert.equal(skipped.verdict, 'broken');
      assert.match(skipped.detail, /matcher \("Read"\) does not cover Write/);
    });
  });
});
