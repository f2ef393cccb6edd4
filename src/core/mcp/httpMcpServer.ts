import type { AddressInfo } from 'node:net';
import { startLocalServer, type LocalServerOptions } from '../localServer/localServer';
import type { LocalRoute } from '../localServer/routeTable';
import { MCP_PATH, mcpRoute, type McpRouteOptions } from './mcpRoute';

export { MCP_PATH };

export interface HttpMcpServerOptions extends McpRouteOptions, Omit<LocalServerOptions, 'entryPath' | 'routes'> {
  /** Further routes on the same server, token and guards (the hook bridge's, the relay's). */
  routes?: readonly LocalRoute[];
}

export interface HttpMcpServer {
  port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  token: string;
  /** Live MCP sessions (for status displays and tests). */
  sessionCount(): number;
  /** The listener's bound address, as the OS reports it (always 127.0.0.1). */
  address(): AddressInfo;
  /** Closes every session transport (and every other route), then the listener. */
  close(): Promise<void>;
}

/**
 * A local server whose entry is the MCP route, with any other routes given: what the tests and benchmarks start
 * (the extension's host registers the same routes on its server in mcpHost.ts).
 */
export async function startHttpMcpServer(options: HttpMcpServerOptions): Promise<HttpMcpServer> {
  const mcp = mcpRoute(options);
  const server = await startLocalServer({
    logger: options.logger,
    token: options.token,
    port: options.port,
    allowedOrigins: options.allowedOrigins,
    entryPath: MCP_PATH,
    routes: [mcp, ...(options.routes ?? [])],
  });
  return { port: server.port, url: server.url, token: server.token, sessionCount: () => mcp.sessionCount(), address: () => server.address(), close: () => server.close() };
}
