import { strict as assert } from 'node:assert';
import { MemoryBeforeStash } from '../../../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../../../src/core/bridge/nativeToolBridge';
import type { ApprovalMode } from '../../../../src/core/approval/approvalMode';
import { createHarness, SAMPLE_INTENTS, type Harness } from '../../../support/governorHarness';

/**
 * Another MCP server's tool where a person can be asked (VS Code's extension serves the call, askHuman): `ask`
 * raises the modal every time, `write` raises it when the approval mode asks before every change.
 */
describe("other MCP servers' tools where the modal can ask", () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  const PLAN = `mcp_tools:\n  "github/create_*": ask\n  "github/update_*": write\n  "github/get_*": read\n${SAMPLE_INTENTS}`;
  const setUp = async (approval: ApprovalMode) => {
    h = await createHarness({ intents: PLAN, policy: { approval } });
    await h.call('select_active_intent', { intent_id: 'auth-refactor' }, 'claude:abc');
    return new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
  };
  const call = (bridge: NativeToolBridge, tool: string) =>
    bridge.handle({ phase: 'pre', session_id: 'claude:abc', agent: { name: 'claude-code' }, key: `k-${tool}`, calls: [], unmapped: { tool: `mcp__github__${tool}`, reason: 'another server', foreign: { server: 'github', tool } } });
  const lastLine = () => h.trace.governance.at(-1);

  it('ask raises the modal; approved, the tool runs and the log names the class, the rule and who approved', async () => {
    const bridge = await setUp('destructive-only');
    h.approver.script(true);
    const answer = await call(bridge, 'create_issue');
    assert.equal(answer.decision, 'allow');
    assert.equal(h.approver.requests[0]?.title, "Run mcp__github__create_issue, a tool of the MCP server 'github'?");
    assert.match(h.approver.requests[0]?.reasons?.join(' ') ?? '', /once a person agrees \(mcp_tools 'github\/create_\*': ask of the top level of /);
    assert.deepEqual([lastLine()?.decision, lastLine()?.code, lastLine()?.approver], ['allow', 'MCP_TOOL_BY_POLICY', 'test-human']);
    assert.match(String(lastLine()?.message), /class ask; .*, approved by test-human$/);
  });

  it('ask rejected at the modal: refused, recorded as the rejection', async () => {
    const bridge = await setUp('destructive-only');
    h.approver.script(false);
    const answer = await call(bridge, 'create_issue');
    assert.equal(answer.decision, 'deny');
    assert.match(answer.reason ?? '', /^\[HITL_REJECT\] test-human rejected mcp__github__create_issue/);
  });

  it('write asks at the modal under every-change and runs without it under destructive-only; read never asks', async () => {
    const everyChange = await setUp('every-change');
    h.approver.script(true);
    assert.equal((await call(everyChange, 'update_issue')).decision, 'allow');
    assert.match(h.approver.requests[0]?.reasons?.join(' ') ?? '', /change things under intent 'auth-refactor' \(mcp_tools 'github\/update_\*': write of the top level of .*\), and approval mode every-change/);
    assert.equal((await call(everyChange, 'get_issue')).decision, 'allow');
    assert.equal(h.approver.requests.length, 1, 'read asked nobody');
    await h.dispose();

    const destructiveOnly = await setUp('destructive-only');
    assert.equal((await call(destructiveOnly, 'update_issue')).decision, 'allow');
    assert.equal(h.approver.requests.length, 0);
    assert.match(String(lastLine()?.message), /class write; .* by mcp_tools 'github\/update_\*': write of the top level of /);
  });
});
