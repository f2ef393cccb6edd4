import { foreignToolText, mcpToolMatches, parseMcpToolPattern, type ForeignMcpTool } from '../approval/mcpToolPattern';
import type { Intent, McpToolRules } from '../intents/intent';

/**
 * Whether another MCP server's tool may run: the governor cannot see what it reads or changes, so only a tool a
 * person named runs. The managed file's `mcpTools.deny` first (nobody can lift it), then the bound intent's
 * `mcp_tools` and the plan's top-level one: a match in `ask` asks the agent's person, one in `allow` runs; anything
 * else is refused, saying where to allow it.
 */

export type ForeignToolDecision =
  | { decision: 'allow' | 'ask'; /** The pattern and where it is written, for the record. */ rule: string }
  | { decision: 'deny'; reason: string };

export interface ForeignToolPolicy {
  /** The intent the session works under, when it resolves. */
  intent?: Pick<Intent, 'id' | 'mcp_tools'>;
  /** The plan's top-level `mcp_tools`. */
  plan?: McpToolRules;
  /** The plan's file, for messages. */
  planFile: string;
  managed: { file: string; state: 'absent' | 'present' | 'broken'; problem?: string; mcpToolsDeny: readonly string[] };
}

export function foreignToolDecision(call: ForeignMcpTool, name: string, policy: ForeignToolPolicy): ForeignToolDecision {
  const seen = `'${name}' is a tool of another MCP server ('${call.server}')`;
  if (policy.managed.state === 'broken') return { decision: 'deny', reason: `${seen}, and the administrator's managed file (${policy.managed.file}) cannot be read (${policy.managed.problem ?? 'broken'}), so it is refused (fail closed).` };
  const denied = firstMatch(policy.managed.mcpToolsDeny, call);
  if (denied) return { decision: 'deny', reason: `${seen}, which the administrator's managed file (${policy.managed.file}) denies ('${denied}'); no plan can allow it.` };
  const places: [string, McpToolRules | undefined][] = [
    [policy.intent ? `intent '${policy.intent.id}' in ${policy.planFile}` : '', policy.intent?.mcp_tools],
    [`the top-level mcp_tools of ${policy.planFile}`, policy.plan],
  ];
  for (const kind of ['ask', 'allow'] as const) {
    for (const [where, rules] of places) {
      const match = rules ? firstMatch(rules[kind], call) : undefined;
      if (match) return { decision: kind, rule: `mcp_tools.${kind} '${match}' of ${where}` };
    }
  }
  const example = `mcp_tools: { allow: ["${foreignToolText(call)}"] }`;
  const under = policy.intent ? `under intent '${policy.intent.id}'` : 'under the intent it belongs to';
  return {
    decision: 'deny',
    reason: `${seen} that no plan allows: Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). A person can allow it in ${policy.planFile}, ${under} or at the top level for every intent: ${example} (or ask: to be asked each time).`,
  };
}

function firstMatch(patterns: readonly string[], call: ForeignMcpTool): string | undefined {
  return patterns.find((text) => {
    const pattern = parseMcpToolPattern(text);
    return typeof pattern !== 'string' && mcpToolMatches(pattern, call);
  });
}
