import { homedir } from 'node:os';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { agentConnection, mergeAgentConfig, type AgentKind, type StdioLaunch } from '../../core/mcp/agentConnections';
import type { McpHost } from '../tools/mcpHost';

const AGENTS: Array<{ agent: AgentKind; label: string; description: string }> = [
  { agent: 'claude-code', label: 'Claude Code', description: 'copies a `claude mcp add --scope user` command' },
  { agent: 'cursor', label: 'Cursor', description: 'writes ~/.cursor/mcp.json' },
  { agent: 'cline', label: 'Cline', description: "writes Cline's MCP settings in VS Code storage" },
  { agent: 'roo-code', label: 'Roo Code', description: "writes Roo Code's MCP settings in VS Code storage" },
  { agent: 'other-mcp', label: 'Other MCP client', description: 'copies the URL and the Authorization header' },
  { agent: 'stdio', label: 'Terminal agent over stdio', description: 'copies the `governor mcp` command line' },
];

/**
 * Points another agent at the running MCP server. Everything written is user-level (home or editor storage):
 * the entry carries the bearer token, so it never goes into a file that lives in the repository.
 */
export async function connectAgent(mcp: McpHost | undefined, globalStorage: vscode.Uri, pick?: AgentKind, stdio?: StdioLaunch): Promise<string | undefined> {
  if (!mcp) {
    void vscode.window.showErrorMessage('Intent Governor: the MCP server is not running (open a folder first).');
    return undefined;
  }
  const choice = pick ?? (await vscode.window.showQuickPick(AGENTS, { title: 'Connect an agent to Intent Governor' }))?.agent;
  if (!choice) return undefined;
  // globalStorageUri is <storage>/<this extension id>; other extensions' folders are its siblings.
  const connection = agentConnection(choice, { url: mcp.server.url, token: mcp.server.token }, { home: homedir(), globalStorageRoot: dirname(globalStorage.fsPath), stdio });
  if (connection.kind === 'copy') {
    await vscode.env.clipboard.writeText(connection.text);
    void vscode.window.showInformationMessage(`${connection.label}: copied to the clipboard. ${connection.hint}`);
    return connection.text;
  }
  if (connection.kind === 'command') {
    await vscode.env.clipboard.writeText(connection.command);
    void vscode.window.showInformationMessage(`${connection.label}: the command to add Intent Governor is on the clipboard. Run it in a terminal.`);
    return connection.command;
  }
  const merged = await mergeAgentConfig(connection);
  if (!merged.ok) {
    void vscode.window.showErrorMessage(`Intent Governor: ${merged.message}`);
    return undefined;
  }
  void vscode.window.showInformationMessage(`${connection.label} now reaches Intent Governor at ${mcp.server.url} (${connection.file}). Restart its MCP servers to pick it up.`);
  return connection.file;
}

/** `Intent Governor: Connect an Agent…`; `mcp` is undefined while no MCP server runs (no folder open). */
export function registerConnectAgentCommand(mcp?: () => McpHost | undefined, globalStorage?: vscode.Uri, stdio?: StdioLaunch): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.connectAgent', (agent?: AgentKind) =>
    connectAgent(mcp?.(), globalStorage ?? vscode.Uri.file(homedir()), agent, stdio),
  );
}
