import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bundledScript } from './bundledScript';

/** A real MCP client talking to `governor mcp` (the bundled CLI) as a child process over stdio. */
export async function connectGovernorMcp(workspace: string, anchorDir: string, extra: string[] = [], name = 'mcp-test-agent', env: Record<string, string> = {}): Promise<Client> {
  const cli = bundledScript(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--workspace', workspace, ...extra],
    // Without a governor home of its own, a session must not make a signing key in the real one.
    env: { ...(process.env as Record<string, string>), INTENT_GOVERNOR_ANCHOR_DIR: anchorDir, ...(env.INTENT_GOVERNOR_HOME ? {} : { INTENT_GOVERNOR_SIGNING: 'off' }), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result, all parts joined. */
export function resultText(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The tool_error code of a failed call, undefined for a success. */
export function resultErrorCode(result: unknown): string | undefined {
  const r = result as CallToolResult;
  return r.isError ? (JSON.parse(resultText({ content: [r.content[0]] })) as { code: string }).code : undefined;
}
