import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Governor } from '../../../src/core/governor';
import type { ApprovalDecision } from '../../../src/core/approval/approver';
import { startHttpMcpServer } from '../../../src/core/mcp/httpMcpServer';
import { createNodeServices } from '../../../src/core/nodeServices';
import { FileAnchorStore } from '../../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../../src/core/trace/traceWriter';
import { ShutdownSequence } from '../../../src/host/shutdownSequence';
import { RecordingLogger, SAMPLE_INTENTS } from '../../support/governorHarness';

describe('ShutdownSequence (what deactivate awaits)', function () {
  this.timeout(30_000);

  it('runs its steps last added first, each finished before the next starts, once however often it is asked', async () => {
    const order: string[] = [];
    const shutdown = new ShutdownSequence(new RecordingLogger());
    const step = (name: string) => async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`${name} done`);
    };
    shutdown.add('trace', step('trace'));
    shutdown.add('server', step('server'));
    shutdown.dispose(); // VS Code disposes subscriptions while deactivate's promise is pending
    await Promise.all([shutdown.run(), shutdown.run()]);
    assert.deepEqual(order, ['server start', 'server done', 'trace start', 'trace done']);
  });

  it('a failing step is logged and the later ones still run', async () => {
    const logger = new RecordingLogger();
    const shutdown = new ShutdownSequence(logger);
    let traceClosed = false;
    shutdown.add('trace', async () => void (traceClosed = true));
    shutdown.add('server', async () => {
      throw new Error('port gone');
    });
    await shutdown.run();
    assert.equal(traceClosed, true);
    assert.ok(logger.lines.some((l) => l.startsWith('error') && l.includes('server failed: port gone')));
  });

  it('a call cancelled by shutdown is on disk in the governance log once the sequence resolves', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-shutdown-')));
    const anchors = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    try {
      await mkdir(join(root, '.orchestration'), { recursive: true });
      await mkdir(join(root, 'src/auth'), { recursive: true });
      await writeFile(join(root, '.orchestration/active_intents.yaml'), SAMPLE_INTENTS);
      await writeFile(join(root, 'src/auth/login.ts'), 'export const login = 1;\n');
      const trace = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'test', anchors: new FileAnchorStore(root, anchors) });
      let asked!: () => void;
      const shown = new Promise<void>((resolve) => (asked = resolve));
      const approver = { approve: () => (asked(), new Promise<ApprovalDecision>(() => {})) }; // the human never answers
      const logger = new RecordingLogger();
      const governor = new Governor(await createNodeServices({ root, approver, trace, logger }));
      const server = await startHttpMcpServer({ governor, name: 'intent-governor', version: 'test', logger });
      const shutdown = new ShutdownSequence(logger);
      shutdown.add('trace', () => trace.close());
      shutdown.add('MCP server', () => server.close());

      const client = new Client({ name: 'agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
      client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } }).catch(() => undefined);
      await shown;

      await shutdown.run();
      const log = await readFile(join(root, '.orchestration/governance_log.jsonl'), 'utf8');
      assert.match(log, /cancelled: the agent stopped waiting/i);
      assert.equal(await readFile(join(root, 'src/auth/login.ts'), 'utf8'), 'export const login = 1;\n');
      await client.close().catch(() => undefined);
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(anchors, { recursive: true, force: true });
    }
  });
});
