import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../../../src/core/approval/approver';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { bundledScript } from '../../../support/bundledScript';
import { waitForOutput } from '../../../support/childProcesses';
import { createHarness, type Harness } from '../../../support/governorHarness';

function outcome(result: unknown): string {
  const r = result as CallToolResult;
  if (!r.isError) return 'ok';
  const first = r.content[0];
  return first.type === 'text' ? (JSON.parse(first.text) as { code: string }).code : 'error';
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('MCP sessions and Approve for this Session', function () {
  this.timeout(30_000);
  let h: Harness;
  let server: HttpMcpServer;
  const asked: ApprovalRequest[] = [];

  beforeEach(async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    asked.length = 0;
    h.governor.services.approver = {
      interactive: true,
      async approve(request): Promise<ApprovalDecision> {
        asked.push(request);
        return { approved: true, approver: 'modal:alice', for_session: true };
      },
    };
    server = await startHttpMcpServer({ governor: h.governor, name: 'intent-governor', version: 'test', logger: h.logger });
  });
  afterEach(async () => {
    await server.close();
    await h.dispose();
  });

  it('a real MCP client: the second write needs no modal, an out-of-scope one is refused, and closing the session ends the approval', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
    const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.equal(outcome(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
      assert.equal(outcome(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/a.ts', content: 'a\n' } })), 'ok');
      assert.equal(outcome(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/b.ts', content: 'b\n' } })), 'ok');
      assert.equal(outcome(await client.callTool({ name: 'write_file', arguments: { path: 'src/billing/c.ts', content: 'c\n' } })), 'SCOPE_VIOLATION');
      assert.equal(asked.length, 1, 'one modal for three writes');
      const [granted] = h.governor.services.standingApprovals.list();
      assert.equal(granted.session, asked[0].session_id);
      assert.equal(granted.intent, 'auth-refactor');
      await transport.terminateSession();
      await eventually(() => h.governor.services.standingApprovals.list().length === 0, 'the session’s standing approval to end');
    } finally {
      await client.close();
    }
  });
});

describe('MCP sessions end with their clients', function () {
  this.timeout(30_000);
  /** Short so the test waits little; the default is 30 s, and the 30 min idle limit is left as it is. */
  const LOST_MS = 300;
  let h: Harness;
  let server: HttpMcpServer;

  beforeEach(async () => {
    h = await createHarness();
    server = await startHttpMcpServer({ governor: h.governor, name: 'intent-governor', version: 'test', logger: h.logger, lostSessionMs: LOST_MS });
  });
  afterEach(async () => {
    await server.close();
    await h.dispose();
  });

  /** What the Agent Sessions view and the status bar count. */
  const listed = () => h.governor.services.sessions.activity.list().map((s) => s.id);

  async function connected(name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    await client.callTool({ name: 'list_intents', arguments: {} });
    return { client, transport };
  }

  it('a client that closes without DELETE is no longer listed once its stream is gone', async () => {
    const { client, transport } = await connected('closing-agent');
    const id = `mcp-http:${transport.sessionId}`;
    assert.deepEqual(listed(), [id]);
    await client.close();
    await eventually(() => server.sessionCount() === 0 && listed().length === 0, 'the closed client’s session to end');
  });

  it('a killed client (no close, no DELETE) is no longer listed', async () => {
    const child = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', '..', 'support', 'httpMcpClientChild.ts')), server.url, server.token], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitForOutput(child, 'called');
      assert.equal(listed().length, 1);
      assert.equal(server.sessionCount(), 1);
    } finally {
      child.kill('SIGKILL');
    }
    await eventually(() => server.sessionCount() === 0 && listed().length === 0, 'the killed client’s session to end');
  });

  it('DELETE ends the session at once', async () => {
    const { client, transport } = await connected('polite-agent');
    await transport.terminateSession();
    await eventually(() => server.sessionCount() === 0 && listed().length === 0, 'the terminated session to end');
    await client.close();
  });

  it('a connected client stays listed past the grace, however long it is quiet', async () => {
    const { client, transport } = await connected('quiet-agent');
    try {
      await new Promise((r) => setTimeout(r, LOST_MS * 4));
      assert.deepEqual(listed(), [`mcp-http:${transport.sessionId}`]);
      assert.equal(server.sessionCount(), 1);
      assert.equal((await client.listTools()).tools.length > 0, true, 'the session still answers');
    } finally {
      await client.close();
    }
  });
});
