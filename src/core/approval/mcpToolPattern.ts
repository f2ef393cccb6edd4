/**
 * How a plan, a workspace or the managed file names another MCP server's tools (`mcp_tools`): `<server>/<tool>`,
 * or Claude Code's spelling `mcp__<server>__<tool>`, `*` matching any run of characters in either part
 * (`github/get_*`, `mcp__github__*`). Every agent's dialect reports a foreign tool as its server and tool, so one
 * pattern covers the tool whatever agent calls it.
 */

/** Another MCP server's tool, as the agent's dialect read it from its own name. */
export interface ForeignMcpTool {
  server: string;
  tool: string;
  /**
   * Set when the agent's name joins server and tool with a character either may hold (Copilot CLI's `-`, OpenCode's
   * and VS Code's `_`): the other ways the name reads. The policy allows such a call only when it allows every reading.
   */
  ambiguous?: { separator: string; others: { server: string; tool: string }[] };
}

export interface McpToolPattern {
  /** As written, for messages. */
  text: string;
  /** The server and tool as written (`*` kept), whichever spelling. */
  parts: ForeignMcpTool;
  server: RegExp;
  tool: RegExp;
}

const PART = /^[A-Za-z0-9_.*-]+$/u;

/** The pattern, or why it is not one (a loader problem: the file says what to write instead). */
export function parseMcpToolPattern(text: unknown): McpToolPattern | string {
  if (typeof text !== 'string' || text.trim() === '') return 'must be a non-empty string such as "github/create_issue" or "mcp__github__get_*"';
  const claude = /^mcp__(.+?)__(.+)$/u.exec(text);
  const slash = /^([^/]+)\/([^/]+)$/u.exec(text);
  const parts = claude ?? slash;
  if (!parts) return `'${text}' is not <server>/<tool> (e.g. "github/create_issue") or mcp__<server>__<tool>`;
  const [, server, tool] = parts;
  if (!PART.test(server) || !PART.test(tool)) return `'${text}': server and tool names are letters, digits, '_', '.', '-', with '*' for any run of them`;
  return { text, parts: { server, tool }, server: globRegExp(server), tool: globRegExp(tool) };
}

export function mcpToolMatches(pattern: McpToolPattern, call: { server: string; tool: string }): boolean {
  return pattern.server.test(call.server) && pattern.tool.test(call.tool);
}

/** A tool named Claude Code's way, `mcp__<server>__<tool>` (Codex CLI names them so too); undefined for any other name. */
export function doubleUnderscoreTool(name: string): ForeignMcpTool | undefined {
  const named = /^mcp__(.+?)__(.+)$/u.exec(name);
  return named ? { server: named[1], tool: named[2] } : undefined;
}

/**
 * A tool named `<server><separator><tool>` by an agent that does not mark where the server's name ends: every
 * split into a non-empty server (at most `maxServer` characters) and tool, the shortest server first; undefined
 * when there is none.
 */
export function joinedTool(name: string, separator: string, maxServer = Number.POSITIVE_INFINITY): ForeignMcpTool | undefined {
  const readings: { server: string; tool: string }[] = [];
  for (let at = name.indexOf(separator); at > 0; at = name.indexOf(separator, at + 1)) {
    const server = name.slice(0, at);
    const tool = name.slice(at + separator.length);
    if (server.length > maxServer) break;
    if (tool !== '') readings.push({ server, tool });
  }
  const [first, ...others] = readings;
  if (!first) return undefined;
  return others.length ? { ...first, ambiguous: { separator, others } } : first;
}

/** Every way the agent's name for the tool reads: the dialect's first reading, then the others. */
export function readingsOf(call: ForeignMcpTool): { server: string; tool: string }[] {
  return [{ server: call.server, tool: call.tool }, ...(call.ambiguous?.others ?? [])];
}

/** `<server>/<tool>`: how messages name a foreign tool. */
export function foreignToolText(call: { server: string; tool: string }): string {
  return `${call.server}/${call.tool}`;
}

/** Parts hold only letters, digits, '_', '.', '-' and '*' (PART); '-' stays unescaped, an escape the 'u' flag refuses. */
function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('.*')}$`, 'u');
}
