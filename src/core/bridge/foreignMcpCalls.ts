import type { Governor } from '../governor';
import { managedPolicy } from '../managed/managedPolicy';
import { foreignToolDecision } from '../policy/foreignMcpTools';
import { foreignToolText } from '../approval/mcpToolPattern';
import { describeMode, modeInEffect, needsPerson } from '../approval/approvalPolicy';
import { resolveIntentForWrites } from '../intents/intentResolution';
import type { BridgeAnswer, BridgeRequest } from '../agents/common/nativeCall';
import { toolError, type ToolError } from '../toolError';

/**
 * The pre phase of another MCP server's tool (a request whose `unmapped.foreign` the dialect filled): run, asked
 * or refused by the class the plan's `mcp_tools` gives it and the managed file (policy/foreignMcpTools.ts). `read`
 * runs with no intent bound, as a file read does; `write` needs the session bound to an intent and asks as the
 * approval mode asks before a file write; `ask` asks a person every time. The governor cannot see what such a tool
 * changes, so the call itself is the record: a run or an ask is a line in the governance log naming the tool, its
 * class and the rule; a refusal is recorded like any other.
 */
export async function judgeForeignMcpCall(governor: Governor, request: BridgeRequest, options: { askHuman: boolean; signal?: AbortSignal }): Promise<BridgeAnswer> {
  const unmapped = request.unmapped;
  const foreign = unmapped?.foreign;
  if (!unmapped || !foreign) return { decision: 'deny', reason: 'Intent Governor received nothing it can check for this call, so it is refused (fail closed).' };
  const services = governor.services;
  // The agent's name for the call, with the server's tool when it does not say it (Cline's use_mcp_tool).
  const name = unmapped.tool.includes(foreign.tool) ? unmapped.tool : `${unmapped.tool} ${foreignToolText(foreign)}`;
  const snapshot = await services.intents.load();
  const intentId = services.sessions.boundIntentId(request.session_id);
  const resolved = resolveIntentForWrites(snapshot, intentId);
  const verdict = snapshot.valid
    ? foreignToolDecision(foreign, name, { ...(resolved.ok ? { intent: resolved.value } : {}), ...(snapshot.mcp_tools ? { plan: snapshot.mcp_tools } : {}), planFile: snapshot.file, managed: managedPolicy() })
    : { decision: 'deny' as const, reason: `'${name}' is a tool of another MCP server ('${foreign.server}'), and the plan cannot be used (${snapshot.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`).join('; ')}), so no plan allows it: refused (fail closed).` };
  const invocation = `${request.key}#0`;
  const refuse = async (refusal: ToolError): Promise<BridgeAnswer> => {
    await governor.run({ session_id: request.session_id, agent: request.agent, invocation_id: invocation, tool: unmapped.tool, input: {} }, { mode: 'authorize', askHuman: options.askHuman, signal: options.signal, refusal });
    return { decision: 'deny', reason: `[${refusal.code}] ${refusal.message}` };
  };
  if (verdict.decision === 'deny') return refuse(toolError('INVALID_INPUT', verdict.reason, { field: 'tool', tool: unmapped.tool }));
  // A tool that writes is a change like a file write: it needs an intent to be made under.
  if (verdict.decision === 'write' && !resolved.ok) {
    return refuse(toolError(resolved.error.code, `${name} (the MCP server '${foreign.server}') may change things only under an intent (${verdict.rule}). ${resolved.error.message}`, resolved.error.meta));
  }
  const intent = resolved.ok ? { intent_id: resolved.value.id } : {};
  let asking: string | undefined;
  if (verdict.decision === 'ask') asking = `The plan lets this tool run once a person agrees (${verdict.rule}); Intent Governor cannot see what it reads or changes.`;
  if (verdict.decision === 'write' && resolved.ok) {
    const effect = modeInEffect(resolved.value, services.policy);
    if (needsPerson('change', effect.mode, services.policy.trusted)) {
      const why = services.policy.trusted ? `${describeMode(effect)} asks before every change` : 'the workspace is not trusted, so every change asks';
      asking = `The plan lets this tool change things under intent '${resolved.value.id}' (${verdict.rule}), and ${why}; Intent Governor cannot see what it changes.`;
    }
  }
  let approver: string | undefined;
  if (asking && options.askHuman) {
    // Where a person can be asked here (VS Code's modal), they are; an agent's own prompt asks elsewhere.
    const answer = await services.approver.approve(
      { kind: 'destructive', title: `Run ${name}, a tool of the MCP server '${foreign.server}'?`, ...intent, tool: unmapped.tool, files: [], risk: 'medium', mutation_class: 'command', session_id: request.session_id, reasons: [asking] },
      { ...(options.signal ? { signal: options.signal } : {}) },
    );
    if (!answer.approved) return refuse(answer.refusal ?? toolError('HITL_REJECT', `${answer.approver} rejected ${name} (the MCP server '${foreign.server}')${answer.reason ? `: ${answer.reason}` : ''}.`));
    approver = answer.approver;
  }
  const decided = asking && !approver ? 'ask' : 'allow';
  const message = `${decided === 'allow' ? 'allowed' : "asked the agent's person about"} ${name} (the MCP server '${foreign.server}', class ${verdict.decision}; what it changes is not seen by the governor) by ${verdict.rule}${approver ? `, approved by ${approver}` : ''}`;
  await services.trace.recordGovernance({
    timestamp: services.clock().toISOString(),
    invocation_id: invocation,
    session_id: request.session_id,
    agent: request.agent,
    ...intent,
    tool: unmapped.tool,
    decision: decided,
    code: 'MCP_TOOL_BY_POLICY',
    message,
    paths: [],
    ...(approver ? { approver } : {}),
  });
  if (decided === 'ask') return { decision: 'ask', reason: `Intent Governor asks a human: ${name} is a tool of the MCP server '${foreign.server}'. ${asking}` };
  return { decision: 'allow' };
}
