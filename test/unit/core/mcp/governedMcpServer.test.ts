import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import type { GovernanceEvent } from '../../../../src/core/trace/traceSink';
import { createHarness, type Harness } from '../../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../../support/stdioMcpClient';
import { eventually, LateApprover } from '../../../support/lateApprover';

const LOGIN = 'export function login() {\n  return true;\n}\n';



async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The governance record of a cancelled call, once the post-chain has written it. */
function cancelledRecord(h: Harness, tool: string): Promise<GovernanceEvent> {
  return eventually(() => h.trace.governance.find((e) => e.tool === tool && /cancelled: the agent stopped waiting/i.test(e.message)), `a cancelled ${tool} in the governance log`);
}

describe('governed MCP server: a call the agent stopped waiting for is cancelled', function () {
  this.timeout(30_000);

  describe('over HTTP', () => {
    let h: Harness;
    let server: HttpMcpServer;
    let late: LateApprover;
    let client: Client;
    let transport: StreamableHTTPClientTransport;

    beforeEach(async () => {
      h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
      late = new LateApprover();
      h.governor.services.approver = late;
      server = await startHttpMcpServer({ governor: h.governor, name: 'intent-governor', version: 'test', logger: h.logger });
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
      client = new Client({ name: 'impatient-agent', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    });
    afterEach(async () => {
      late.approveNow(); // never leave a handler waiting
      await client.close().catch(() => undefined);
      await server.close();
      await h.dispose();
      assert.deepEqual(h.logger.lines.filter((l) => l.startsWith('error')), [], 'a cancellation is no crash');
    });

    it('a client request timeout cancels a delete waiting for approval: the late Approve is never used', async () => {
      const call = client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } }, undefined, { timeout: 1500 });
      await assert.rejects(call, /timed out/i);
      // The client's notifications/cancelled reaches the server an instant after it gave up; then the human clicks.
      const record = await cancelledRecord(h, 'delete_file');
      late.approveNow();
      await new Promise((r) => setTimeout(r, 100)); // give a wrongly used approval the chance to delete
      assert.equal(record.code, 'HITL_REJECT');
      assert.deepEqual(record.paths, ['src/auth/login.ts']);
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN, 'the file is still there');
      assert.equal(h.trace.mutations.length, 0);
    });

    it('an AbortSignal on the client cancels it the moment the agent gives up', async () => {
      const controller = new AbortController();
      const call = client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } }, undefined, { signal: controller.signal });
      await late.asked;
      controller.abort();
      await assert.rejects(call);
      await cancelledRecord(h, 'delete_file');
      late.approveNow();
      await new Promise((r) => setTimeout(r, 100)); // give a wrongly used approval the chance to delete
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
      assert.equal(h.trace.mutations.length, 0);
    });

    it('a client that disconnects without a word cancels its pending call', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'delete_file', arguments: { path: 'src/auth/login.ts' } } });
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/mcp',
        agent: false,
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
          'content-length': String(Buffer.byteLength(body)),
        },
      });
      req.on('error', () => undefined); // we hang up on purpose
      req.end(body);
      await late.asked;
      req.destroy();
      const record = await cancelledRecord(h, 'delete_file');
      late.approveNow();
      assert.equal(record.code, 'HITL_REJECT');
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
      assert.equal(h.trace.mutations.length, 0);
    });

    it('closing the server cancels the calls still waiting, and their refusals are logged before close() returns', async () => {
      const call = client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
      call.catch(() => undefined);
      await late.asked;
      await server.close();
      assert.ok(h.trace.governance.some((e) => e.tool === 'delete_file' && /cancelled: the agent stopped waiting/i.test(e.message)), JSON.stringify(h.trace.governance));
      late.approveNow();
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
    });
  });

  describe('over stdio (governor mcp)', () => {
    let h: Harness;
    let anchorDir: string;
    let client: Client | undefined;
    beforeEach(async () => {
      h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
      anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    });
    afterEach(async () => {
      await client?.close();
      await h.dispose();
      await rm(anchorDir, { recursive: true, force: true });
    });

    it('a cancelled run_command has its process group killed: it never gets to write', async () => {
      client = await connectGovernorMcp(h.root, anchorDir, ['--approve', 'always']);
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const pidFile = join(h.root, 'src/auth/pid.txt');
      const marker = join(h.root, 'src/auth/marker.txt');
      const controller = new AbortController();
      const call = client.callTool({ name: 'run_command', arguments: { command: `echo $$ > src/auth/pid.txt; sleep ${SLEEP}; echo done > src/auth/marker.txt`, timeout_ms: 60_000 } }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      });
      call.catch(() => undefined);
      await waitForPid(pidFile);
      const pid = sleepingPid();
      controller.abort();
      await assert.rejects(call);
      await waitUntilGone(pid);
      assert.equal(await exists(marker), false, 'the command was killed before it could write');
      // The session still works after a cancellation.
      const read = await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
      assert.equal(resultErrorCode(read), undefined, resultText(read));
    });

    it('a client that closes mid-command: the command is killed and what it did is traced before the process exits', async () => {
      client = await connectGovernorMcp(h.root, anchorDir, ['--approve', 'always']);
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const pidFile = join(h.root, 'src/auth/pid.txt');
      const call = client.callTool({ name: 'run_command', arguments: { command: `echo $$ > src/auth/pid.txt; sleep ${SLEEP}; echo done > src/auth/marker.txt`, timeout_ms: 60_000 } }, undefined, { timeout: 120_000 });
      call.catch(() => undefined);
      await waitForPid(pidFile);
      const pid = sleepingPid();
      await client.close(); // ends governor mcp's stdin: it closes the session and exits
      client = undefined;
      await waitUntilGone(pid);
      assert.equal(await exists(join(h.root, 'src/auth/marker.txt')), false);
      const trace = await readFile(join(h.root, '.orchestration/agent_trace.jsonl'), 'utf8').catch(() => '');
      const records = trace.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { metadata: Record<string, unknown>; files: { path: string }[] });
      const killed = records.find((r) => r.metadata.tool_name === 'run_command');
      assert.ok(killed, `no run_command record in the trace:\n${trace}`);
      assert.deepEqual(killed.files.map((f) => f.path), ['src/auth/pid.txt']);
    });
  });
});

/** A sleep no other process runs: the command's, found by its argument (in the sandbox, $$ is a pid of its own namespace). */
const SLEEP = `30.${process.pid}`;

/** The host pid of the command's `sleep ${SLEEP}`, from /proc (Linux; elsewhere the shell's $$ is the host pid anyway). */
function sleepingPid(): number {
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/u.test(name))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${SLEEP}\0`) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no process runs sleep ${SLEEP}`);
}

async function waitForPid(file: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const pid = Number(text.trim());
    if (pid > 0) return pid;
    if (Date.now() > deadline) throw new Error(`no pid in ${file}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for the shell to be gone; before cancellation reached the process, it slept for 30 s and then wrote. */
async function waitUntilGone(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after the call was cancelled`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
