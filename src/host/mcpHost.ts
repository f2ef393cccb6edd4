import * as vscode from 'vscode';
import type { Governor } from '../core/governor';
import type { Logger } from '../core/logger';
import { removeDiscoveryFile, writeDiscoveryFile } from '../core/mcp/discoveryFile';
import { startHttpMcpServer, type HookHandler, type HttpMcpServer } from '../core/mcp/httpMcpServer';

const TOKEN_SECRET = 'intentGovernor.mcpToken';
const PORT_STATE = 'intentGovernor.mcpPort';
export const MCP_PROVIDER_ID = 'intent-governor.mcp';

export interface McpHostOptions {
  governor: Governor;
  version: string;
  logger: Logger;
  secrets: vscode.SecretStorage;
  state: vscode.Memento;
  workspaceFolders: string[];
  /** Serves the hook bridge (POST /hook) on the same server, token and guards. */
  hookHandler?: HookHandler;
}

/** The running MCP server, as the Connect command and tests see it. */
export interface McpHost extends vscode.Disposable {
  readonly server: HttpMcpServer;
  readonly discoveryFile: string;
  /**
   * Stops advertising (provider, discovery file), then closes the server, which cancels the calls still
   * running and waits until they are recorded. Once, however often it is called; `dispose` starts it.
   */
  close(): Promise<void>;
}

/**
 * Serves the governed tools over MCP in the extension host, advertises the server to VS Code's agent and
 * in the discovery file. Token and port are kept across restarts so agent configs written once keep working.
 */
export async function startMcpHost(options: McpHostOptions): Promise<McpHost> {
  const savedToken = await options.secrets.get(TOKEN_SECRET);
  const server = await startHttpMcpServer({
    governor: options.governor,
    name: 'intent-governor',
    version: options.version,
    token: savedToken,
    port: options.state.get<number>(PORT_STATE),
    logger: options.logger,
    hookHandler: options.hookHandler,
  });
  if (server.token !== savedToken) await options.secrets.store(TOKEN_SECRET, server.token);
  await options.state.update(PORT_STATE, server.port);
  const discoveryFile = await writeDiscoveryFile({ port: server.port, token: server.token, pid: process.pid, workspaceFolders: options.workspaceFolders, url: server.url });
  options.logger.info(`MCP server on ${server.url} (discovery: ${discoveryFile})`);

  const provider = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
    provideMcpServerDefinitions: () => [
      new vscode.McpHttpServerDefinition('Intent Governor', vscode.Uri.parse(server.url), { Authorization: `Bearer ${server.token}` }, options.version),
    ],
  });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      provider.dispose();
      try {
        removeDiscoveryFile(discoveryFile);
      } catch (error) {
        options.logger.warn(`could not remove the discovery file ${discoveryFile}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await server.close();
    })());
  return {
    server,
    discoveryFile,
    close,
    dispose() {
      void close();
    },
  };
}
