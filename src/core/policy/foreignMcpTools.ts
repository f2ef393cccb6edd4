import { foreignToolText, mcpToolMatches, parseMcpToolPattern, readingsOf, type ForeignMcpTool, type McpToolPattern } from '../approval/mcpToolPattern';
import type { Intent, McpToolClass, McpToolRule, McpToolRules } from '../intents/intent';

/**
 * Whether another MCP server's tool may run, and as what: the governor cannot see what it reads or changes, so only
 * a tool a person named runs. The managed file's `mcpTools.deny` first (nobody can lift it), then the rules of the
 * bound intent's `mcp_tools` and the plan's top-level one, weighed together: the most specific pattern decides (a
 * name without `*` beats any with one; else the more characters besides `*`), and between equally specific ones
 * the stricter class (ask, then write, then read), so the order rules are written in never matters. Anything no
 * rule names is refused, saying where to allow it. A name that reads several ways (ForeignMcpTool.ambiguous) runs
 * only when every reading is allowed, as the strictest of their classes, and is refused when any reading is denied.
 */

export type ForeignToolDecision =
  | { decision: McpToolClass; /** The rule and where it is written, for the record. */ rule: string }
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

const STRICTNESS: Record<McpToolClass, number> = { read: 0, write: 1, ask: 2 };

export function foreignToolDecision(call: ForeignMcpTool, name: string, policy: ForeignToolPolicy): ForeignToolDecision {
  const seen = `'${name}' is a tool of another MCP server ('${call.server}')`;
  if (policy.managed.state === 'broken') return { decision: 'deny', reason: `${seen}, and the administrator's managed file (${policy.managed.file}) cannot be read (${policy.managed.problem ?? 'broken'}), so it is refused (fail closed).` };
  // A name that reads several ways is each of them as far as a refusal goes.
  const readings = readingsOf(call);
  for (const reading of readings) {
    const denied = policy.managed.mcpToolsDeny.find((text) => matching(text, reading));
    const as = call.ambiguous ? `'${name}' is a tool of another MCP server (read as '${foreignToolText(reading)}')` : seen;
    if (denied) return { decision: 'deny', reason: `${as}, which the administrator's managed file (${policy.managed.file}) denies ('${denied}'); no plan can allow it.` };
  }
  const places: [string, McpToolRules | undefined][] = [
    [policy.intent ? `intent '${policy.intent.id}' in ${policy.planFile}` : '', policy.intent?.mcp_tools],
    [`the top level of ${policy.planFile}`, policy.plan],
  ];
  const decided = readings.map((reading) => ({ reading, best: bestRule(reading, places) }));
  const unnamed = decided.filter((d) => !d.best).map((d) => d.reading);
  const under = policy.intent ? `under intent '${policy.intent.id}'` : 'under the intent it belongs to';
  if (call.ambiguous && unnamed.length) {
    const list = (rs: { server: string; tool: string }[]) => rs.map((r) => `'${foreignToolText(r)}'`).join(', ');
    const missing = unnamed.length === readings.length ? 'it allows none of them' : `it does not allow ${list(unnamed)}`;
    return {
      decision: 'deny',
      reason: `'${name}' is a tool of another MCP server, and its name does not say where the server's name ends ('${call.ambiguous.separator}' may be in either): it reads as ${list(readings)}, and a plan must allow every reading (${missing}). Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). A person can allow it in ${policy.planFile}, ${under} or at the top level, with a rule that covers every reading: mcp_tools: { "${call.server}*/*": read } (or write, or ask).`,
    };
  }
  let chosen: { rule: McpToolRule; where: string } | undefined;
  for (const { best } of decided) if (best && (!chosen || STRICTNESS[best.rule.class] > STRICTNESS[chosen.rule.class])) chosen = best;
  if (chosen) return { decision: chosen.rule.class, rule: `${chosen.rule.written} of ${chosen.where}` };
  const example = `mcp_tools: { "${foreignToolText(call)}": read }`;
  return {
    decision: 'deny',
    reason: `${seen} that no plan allows: Intent Governor cannot see what it reads or changes, so it is refused (governance fails closed). A person can allow it in ${policy.planFile}, ${under} or at the top level for every intent: ${example} if it only reads, write if it changes something (runs under a bound intent, asked as the approval mode asks), or ask to be asked each time.`,
  };
}

/** The rule that decides for one reading of the name: the most specific, then the strictest (see above). */
function bestRule(reading: { server: string; tool: string }, places: [string, McpToolRules | undefined][]): { rule: McpToolRule; where: string } | undefined {
  let best: { rule: McpToolRule; where: string; rank: number[] } | undefined;
  for (const [where, rules] of places) {
    for (const rule of rules ?? []) {
      const pattern = matching(rule.pattern, reading);
      if (!pattern) continue;
      const rank = [...specificity(pattern), STRICTNESS[rule.class]];
      if (!best || outranks(rank, best.rank)) best = { rule, where, rank };
    }
  }
  return best;
}

/** The pattern `text` when it matches the call (patterns were validated at load; one that is not matches nothing). */
function matching(text: string, call: { server: string; tool: string }): McpToolPattern | undefined {
  const pattern = parseMcpToolPattern(text);
  return typeof pattern !== 'string' && mcpToolMatches(pattern, call) ? pattern : undefined;
}

/** [exact name?, characters besides `*`]: greater is more specific. */
function specificity(pattern: McpToolPattern): number[] {
  const parts = pattern.parts.server + pattern.parts.tool;
  return [parts.includes('*') ? 0 : 1, parts.replaceAll('*', '').length];
}

function outranks(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}
