import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export type AgentKind = 'claude-code' | 'cursor' | 'cline' | 'roo-code' | 'other-mcp' | 'stdio';

export interface ServerEndpoint {
  url: string;
  token: string;
}

/** What a terminal agent runs to get its own governor over stdio: the bundled CLI and the governed folder. */
export interface StdioLaunch {
  cliPath: string;
  workspaceRoot: string;
}

/** How one agent is pointed at the running server: a user-level config file to merge, or a command to run. */
export type AgentConnection =
  | { kind: 'file'; agent: AgentKind; label: string; file: string; serverKey: string; entry: Record<string, unknown> }
  | { kind: 'command'; agent: AgentKind; label: string; command: string }
  /** Settings to paste into a client we do not know: copied, with what to do with them. */
  | { kind: 'copy'; agent: AgentKind; label: string; text: string; hint: string };

export const SERVER_KEY = 'intent-governor';

export interface ConnectionPlaces {
  home: string;
  /** VS Code's globalStorage folder for all extensions (Cline and Roo Code keep their MCP settings there). */
  globalStorageRoot: string;
  /** For `stdio`: how to start the governor as a process. */
  stdio?: StdioLaunch;
}

function bearer(endpoint: ServerEndpoint): Record<string, string> {
  return { Authorization: `Bearer ${endpoint.token}` };
}

/**
 * Where each agent reads MCP servers from. Every place is user-level (home or editor storage), never a file in
 * the repository, because the entry carries the bearer token.
 */
export function agentConnection(agent: AgentKind, endpoint: ServerEndpoint, places: ConnectionPlaces = { home: homedir(), globalStorageRoot: '' }): AgentConnection {
  switch (agent) {
    case 'claude-code':
      return {
        kind: 'command',
        agent,
        label: 'Claude Code',
        command: `claude mcp add --scope user --transport http ${SERVER_KEY} ${endpoint.url} --header "Authorization: Bearer ${endpoint.token}"`,
      };
    case 'cursor':
      return { kind: 'file', agent, label: 'Cursor', file: join(places.home, '.cursor', 'mcp.json'), serverKey: SERVER_KEY, entry: { url: endpoint.url, headers: bearer(endpoint) } };
    case 'cline':
      return {
        kind: 'file',
        agent,
        label: 'Cline',
        file: join(places.globalStorageRoot, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
        serverKey: SERVER_KEY,
        entry: { type: 'streamableHttp', url: endpoint.url, headers: bearer(endpoint), disabled: false },
      };
    case 'roo-code':
      return {
        kind: 'file',
        agent,
        label: 'Roo Code',
        file: join(places.globalStorageRoot, 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'),
        serverKey: SERVER_KEY,
        entry: { type: 'streamable-http', url: endpoint.url, headers: bearer(endpoint) },
      };
    case 'other-mcp':
      return {
        kind: 'copy',
        agent,
        label: 'Other MCP client',
        text: `URL: ${endpoint.url}\nHeader: Authorization: Bearer ${endpoint.token}`,
        hint: "Add a Streamable HTTP server with this URL and header in your client's MCP settings (user-level: the header is a secret).",
      };
    case 'stdio': {
      const launch = places.stdio;
      // The CLI's path JSON-quoted, so paths with spaces work.
      const command = launch ? `node ${JSON.stringify(launch.cliPath)} mcp --workspace ${JSON.stringify(launch.workspaceRoot)}` : 'governor mcp';
      return {
        kind: 'copy',
        agent,
        label: 'Terminal agent over stdio',
        text: command,
        hint: 'Give this command to your agent as a stdio MCP server: it starts its own governor on this folder, with the same plan, scope and trace.',
      };
    }
  }
}

/**
 * Adds or replaces our entry under `mcpServers`, keeping every other server and key of the user's file.
 * A file that is not valid JSON is left alone and reported, never overwritten.
 */
export async function mergeAgentConfig(connection: Extract<AgentConnection, { kind: 'file' }>): Promise<{ ok: true } | { ok: false; message: string }> {
  let config: Record<string, unknown> = {};
  const text = await readFile(connection.file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (text !== undefined && text.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the top level is not an object');
      config = parsed as Record<string, unknown>;
    } catch (error) {
      return { ok: false, message: `${connection.file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it, then connect again.` };
    }
  }
  const servers = typeof config.mcpServers === 'object' && config.mcpServers !== null ? (config.mcpServers as Record<string, unknown>) : {};
  config.mcpServers = { ...servers, [connection.serverKey]: connection.entry };
  await mkdir(dirname(connection.file), { recursive: true, mode: 0o700 });
  const temp = `${connection.file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, connection.file);
  return { ok: true };
}
