import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from './governorHarness';
import { connectGovernorMcp } from './stdioMcpClient';

/** A harness workspace an agent reaches over a real `governor mcp` (stdio), with its own anchors; one client at a time. */
export interface McpClientWorkspace {
  h: Harness;
  anchorDir: string;
  /** Starts `governor mcp` on the workspace and connects a real MCP client to it. */
  connect(): Promise<Client>;
  /** Closes the client (its session ends), keeping the workspace for what a test reads afterwards. */
  disconnect(): Promise<void>;
  dispose(): Promise<void>;
}

export async function mcpClientWorkspace(files: Record<string, string>): Promise<McpClientWorkspace> {
  const h = await createHarness({ files });
  const anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  let client: Client | undefined;
  const disconnect = async () => {
    await client?.close();
    client = undefined;
  };
  return {
    h,
    anchorDir,
    async connect() {
      await disconnect();
      client = await connectGovernorMcp(h.root, anchorDir);
      return client;
    },
    disconnect,
    async dispose() {
      await disconnect();
      await h.dispose();
      await rm(anchorDir, { recursive: true, force: true });
    },
  };
}
