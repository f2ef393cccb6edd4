// Child process for the MCP session tests: `<url> <token>` connects a real MCP client over Streamable HTTP, calls a
// tool, prints "called <session id>", then stays connected until it is killed (a client that never says goodbye).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

async function main(): Promise<void> {
  const [url, token] = process.argv.slice(2);
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'killed-agent', version: '1.0.0' });
  await client.connect(transport);
  await client.callTool({ name: 'list_intents', arguments: {} });
  process.stdout.write(`called ${transport.sessionId}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
