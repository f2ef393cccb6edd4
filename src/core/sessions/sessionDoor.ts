/**
 * Which door a governance session came through, read from the session id each door mints
 * (`mcp-http:<uuid>`, `vscode-lm`, `claude:<agent's session>`…): the doors already name their sessions, so
 * no door has to say it twice. The CLI's doors are among them: `governor mcp` (stdio, or resident with --agent)
 * and `governor hook <agent>` (the hook bridge).
 */
export type SessionDoor =
  | { kind: 'mcp'; label: 'MCP' }
  | { kind: 'mcp-stdio'; label: 'MCP (stdio)' }
  | { kind: 'language-model-tools'; label: 'language model tools' }
  | { kind: 'resident'; label: string; agent: string }
  | { kind: 'hook-bridge'; label: string; agent: string }
  /** Any other id: a call through the extension's API (another extension, a test). */
  | { kind: 'api'; label: 'extension API' };


/** An agent's name for people by its id (`claude` → Claude Code), from the agent registry above this layer; undefined for an id that names no agent. */
export type AgentLabeller = (agentId: string) => string | undefined;

const NO_LABELS: AgentLabeller = () => undefined;

export function sessionDoor(sessionId: string, agentLabel: AgentLabeller = NO_LABELS): SessionDoor {
  if (sessionId === 'vscode-lm') return { kind: 'language-model-tools', label: 'language model tools' };
  const colon = sessionId.indexOf(':');
  const prefix = colon < 0 ? '' : sessionId.slice(0, colon);
  if (prefix === 'mcp-http') return { kind: 'mcp', label: 'MCP' };
  if (prefix === 'mcp-stdio') return { kind: 'mcp-stdio', label: 'MCP (stdio)' };
  if (prefix.endsWith('-resident')) {
    const agent = agentLabelOr(prefix.slice(0, -'-resident'.length), agentLabel);
    return { kind: 'resident', label: `resident governor (${agent})`, agent };
  }
  const hookAgent = agentLabel(prefix);
  if (hookAgent !== undefined) return { kind: 'hook-bridge', label: `hook bridge (${hookAgent})`, agent: hookAgent };
  return { kind: 'api', label: 'extension API' };
}

function agentLabelOr(id: string, agentLabel: AgentLabeller): string {
  return agentLabel(id) ?? id;
}
