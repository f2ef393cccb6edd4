import { wildcardMatch } from '../wildcardMatch';

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
  server: (name: string) => boolean;
  tool: (name: string) => boolean;
}

const PART = /^[A-Za-z0-9_.*-]+$/u;

/** The pattern, or why it is not one (a loader problem: the file says what to write instead). */
export function parseMcpToolPattern(text: unknown): McpToolPattern | string {
  if (typeof text !== 'string' || text.trim() === '') return 'must be a non-empty string such as "github/create_issue" or "mcp__github__get_*"';
  const parts = doubleUnderscoreTool(text) ?? slashTool(text);
  if (!parts) return `'${text}' is not <server>/<tool> (e.g. "github/create_issue") or mcp__<server>__<tool>`;
  const { server, tool } = parts;
  if (!PART.test(server) || !PART.test(tool)) return `'${text}': server and tool names are letters, digits, '_', '.', '-', with '*' for any run of them`;
  return { text, parts: { server, tool }, server: wildcardTest(server), tool: wildcardTest(tool) };
}

export function mcpToolMatches(pattern: McpToolPattern, call: { server: string; tool: string }): boolean {
  return pattern.server(call.server) && pattern.tool(call.tool);
}

/**
 * A tool named Claude Code's way, `mcp__<server>__<tool>` (Codex CLI names them so too); undefined for any other name.
 * What `/^mcp__(.+?)__(.+)$/u` reads, found with indexOf: that regex backtracks quadratically on a long name with a
 * line break, and names come from agents.
 */
export function doubleUnderscoreTool(name: string): ForeignMcpTool | undefined {
  if (!name.startsWith('mcp__') || LINE_BREAK.test(name)) return undefined;
  const at = name.indexOf('__', 6); // the server has at least one character
  return at > 0 && at + 2 < name.length ? { server: name.slice(5, at), tool: name.slice(at + 2) } : undefined;
}

/** `<server>/<tool>`, both non-empty and without another '/'. */
function slashTool(text: string): ForeignMcpTool | undefined {
  const at = text.indexOf('/');
  return at > 0 && at + 1 < text.length && text.indexOf('/', at + 1) === -1 ? { server: text.slice(0, at), tool: text.slice(at + 1) } : undefined;
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

// What '.' refuses to match under the 'u' flag: a name holding one matched no pattern with a '*' before, nor any without.
const LINE_BREAK = /[\n\r\u2028\u2029]/u;

/**
 * `*` for any run of characters, the rest literal (parts hold only PART's characters), matched with the classic
 * two-pointer wildcard algorithm: a regex of `.*` runs backtracks polynomially in their number, for every call.
 */
function wildcardTest(glob: string): (name: string) => boolean {
  return (name) => !LINE_BREAK.test(name) && wildcard(glob, name);
}

function wildcard(glob: string, name: string): boolean {
  return wildcardMatch(glob, name, (c) => c === '*', (c, unit) => c === unit);
}
