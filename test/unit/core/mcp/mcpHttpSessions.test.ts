import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, ApprovalRequest } from '../../../../src/core/approval/approver';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
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
