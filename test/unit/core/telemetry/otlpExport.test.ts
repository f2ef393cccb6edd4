import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IAnyValue, IKeyValue } from '@opentelemetry/otlp-transformer/build/src/common/internal-types';
import type { IExportLogsServiceRequest, ILogRecord } from '@opentelemetry/otlp-transformer/build/src/logs/internal-types';
import { Governor } from '../../../../src/core/governor';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { telemetryReport } from '../../../../src/core/agents/doctor/telemetryCheck';
import { OtlpRecordExporter } from '../../../../src/core/telemetry/recordExporter';
import { readTelemetryProblems, telemetryStatsFile } from '../../../../src/core/telemetry/telemetryStats';
import { resolveTelemetryConfig } from '../../../../src/core/telemetry/telemetryConfig';
import { createTraceStack, type TraceStack } from '../../../../src/core/trace/traceStack';
import { RecordingLogger, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

/** A loopback OTLP/HTTP collector: keeps each request's headers and its body decoded as the OTLP JSON protocol. */
class LoopbackCollector {
  readonly requests: { headers: IncomingHttpHeaders; body: IExportLogsServiceRequest }[] = [];
  private server: Server | undefined;
  constructor(private readonly answer: 'ok' | 'hang' = 'ok') {}
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/logs') this.requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as IExportLogsServiceRequest });
        if (this.answer === 'hang') return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }
  records(): ILogRecord[] {
    return this.requests.flatMap((r) => r.body.resourceLogs ?? []).flatMap((rl) => rl.scopeLogs).flatMap((sl) => sl.logRecords ?? []);
  }
  resourceAttributes(): Record<string, unknown> {
    return attributesOf(this.requests[0]?.body.resourceLogs?.[0]?.resource?.attributes ?? []);
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function valueOf(value: IAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue ?? undefined;
}

function attributesOf(list: IKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => [kv.key.replace(/^intent_governor\./u, ''), valueOf(kv.value)]));
}

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('issue 23: OpenTelemetry export of both logs over OTLP/HTTP', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ig-otlp-'));
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-otlp-ws-')));
    dirs.push(base, root);
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  });
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const envFor = (endpoint: string): NodeJS.ProcessEnv => ({
    INTENT_GOVERNOR_MANAGED_FILE: join(base, 'no-managed.json'),
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-team=gov%20team',
    OTEL_SERVICE_NAME: 'governor-under-test',
    OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: '1500',
  });

  async function governorOn(env: NodeJS.ProcessEnv): Promise<{ governor: Governor; stack: TraceStack }> {
    const stack = createTraceStack({ workspaceRoot: root, toolVersion: '9.9.9', anchorDir: join(base, 'anchors'), governorHome: join(base, 'home'), fsync: 'never', env });
    const services = await createNodeServices({ root, approver: new ScriptedApprover(), trace: stack.sink, logger: new RecordingLogger(), policy: { approval: 'destructive-only' } });
    services.sessions.bindIntent('s1', 'auth-refactor');
    return { governor: new Governor(services), stack };
  }
  const call = (governor: Governor, tool: string, input: Record<string, unknown>) => governor.run({ tool, input, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });

  it('is off unless configured; the managed file wins over OTEL_* and the editor setting; OTEL_SDK_DISABLED turns only the user’s own off', async () => {
    const none = { INTENT_GOVERNOR_MANAGED_FILE: join(base, 'no-managed.json') };
    assert.equal(resolveTelemetryConfig(none), undefined);
    assert.equal(createTraceStack({ workspaceRoot: root, toolVersion: 't', anchorDir: join(base, 'a'), env: none }).exporter, undefined);
    assert.equal(resolveTelemetryConfig({ ...none, OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://c:4318/custom/logs' })?.url, 'http://c:4318/custom/logs');
    assert.equal(resolveTelemetryConfig({ ...none, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })?.url, 'http://c:4318/v1/logs');
    assert.equal(resolveTelemetryConfig(none, 'http://setting:4318')?.source, 'intentGovernor.telemetry.otlpEndpoint');
    assert.equal(resolveTelemetryConfig({ ...none, OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), undefined);
    const managed = join(base, 'managed.json');
    await writeFile(managed, JSON.stringify({ telemetry: { endpoint: 'https://siem.example:4318', headers: { authorization: 'Bearer t' } } }));
    const config = resolveTelemetryConfig({ INTENT_GOVERNOR_MANAGED_FILE: managed, OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://mine:4318' }, 'http://setting:4318');
    assert.deepEqual([config?.url, config?.headers, config?.source], ['https://siem.example:4318/v1/logs', { authorization: 'Bearer t' }, managed]);
  });

  it("the editor's setting intentGovernor.telemetry.otlpEndpoint is a machine setting (a repository cannot point the export elsewhere), off by default", async () => {
    const manifest = JSON.parse(await readFile(join(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } } };
    const setting = manifest.contributes.configuration.properties['intentGovernor.telemetry.otlpEndpoint'];
    assert.deepEqual([setting?.scope, setting?.default], ['machine', '']);
  });

  it('end to end: a change and a refusal arrive, decoded with the OTLP types, with intent, agent, decision, code, files and hashes, as written locally', async () => {
    const collector = new LoopbackCollector();
    const endpoint = await collector.start();
    try {
      const { governor, stack } = await governorOn(envFor(endpoint));
      assert.ok((await call(governor, 'write_file', { path: 'src/auth/a.ts', content: 'export const a = 1;\n' })).ok);
      const refused = await call(governor, 'write_file', { path: 'src/other/b.ts', content: 'x\n' });
      assert.equal(!refused.ok && refused.error.code, 'SCOPE_VIOLATION');
      await stack.exporter?.flush(5000);

      const records = collector.records();
      assert.equal(records.length, 2, JSON.stringify(collector.requests));
      assert.equal(collector.requests[0].headers['x-team'], 'gov team', 'OTEL_EXPORTER_OTLP_HEADERS sent, URL-decoded');
      assert.equal(collector.resourceAttributes()['service.name'], 'governor-under-test');
      const change = records.find((r) => r.eventName === 'intent_governor.change');
      const refusal = records.find((r) => r.eventName === 'intent_governor.governance');
      assert.ok(change && refusal);
      const c = attributesOf(change.attributes);
      assert.deepEqual([c.log, c.intent_id, c.agent, c.session_id, c.tool_name, c.decision, c.files], ['agent_trace', 'auth-refactor', 'test-agent', 's1', 'write_file', 'allow', ['src/auth/a.ts']]);
      assert.deepEqual(c.file_hashes, [`sha256:${createHash('sha256').update('export const a = 1;\n').digest('hex')}`]);
      const local = JSON.parse((await readFile(join(root, '.orchestration', 'agent_trace.jsonl'), 'utf8')).trim()) as { id: string };
      assert.equal(c.record_id, local.id, 'the record exported is the one written');
      assert.equal((JSON.parse(String(valueOf(change.body))) as { id: string }).id, local.id);
      const g = attributesOf(refusal.attributes);
      assert.deepEqual([g.log, g.intent_id, g.agent, g.decision, g.code, g.files], ['governance_log', 'auth-refactor', 'test-agent', 'deny', 'SCOPE_VIOLATION', ['src/other/b.ts']]);
      assert.equal(refusal.severityText, 'WARN');
      assert.deepEqual(stack.exporter?.stats(), { url: `${endpoint}/v1/logs`, queued: 0, exported: 2, dropped: 0, failed: 0 });
    } finally {
      await collector.stop();
    }
  });

  it('the endpoint down: every record stays in the local logs, calls go on, the failures are counted for governor doctor', async () => {
    const { governor, stack } = await governorOn(envFor(await closedPort()));
    for (let i = 0; i < 20; i += 1) assert.ok((await call(governor, 'write_file', { path: `src/auth/f${i}.ts`, content: `${i}\n` })).ok);
    await stack.exporter?.flush(5000);
    const lines = (await readFile(join(root, '.orchestration', 'agent_trace.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 20, 'nothing lost locally');
    const stats = stack.exporter?.stats();
    assert.equal(stats?.exported, 0);
    assert.equal(stats?.failed, 20);
    assert.match(stats?.lastError ?? '', /ECONNREFUSED/);
    const problems = readTelemetryProblems(join(base, 'home'));
    assert.equal(problems.failed, 20, telemetryStatsFile(join(base, 'home')));
    const doctor = telemetryReport({ ...envFor('http://127.0.0.1:1'), INTENT_GOVERNOR_HOME: join(base, 'home') });
    assert.equal(doctor.verdict, 'warning');
    assert.match(doctor.detail, /OTLP\/HTTP to http:\/\/127\.0\.0\.1:1\/v1\/logs \(set by OTEL_EXPORTER_OTLP_ENDPOINT; 1 header\(s\), not shown\).*0 record\(s\) dropped, 20 not taken by the collector.*ECONNREFUSED.*the local logs hold them all/);
  });

  it('a collector that does not answer: the queue is bounded and what it cannot hold is dropped and counted', async () => {
    const collector = new LoopbackCollector('hang');
    const endpoint = await collector.start();
    try {
      const config = resolveTelemetryConfig(envFor(endpoint));
      assert.ok(config);
      const exporter = new OtlpRecordExporter(config, { maxQueue: 5, batchSize: 1, delayMs: 1, exportTimeoutMs: 60_000 });
      const record = { id: 'r', timestamp: new Date().toISOString(), metadata: { intent_id: 'i', files: [] } };
      exporter.export('agent_trace', record);
      await exporter.flush(300); // one request now hangs at the collector
      const started = process.hrtime.bigint();
      for (let i = 0; i < 100; i += 1) exporter.export('agent_trace', { ...record, id: `r${i}` });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      assert.ok(ms < 200, `100 exports queued or dropped without waiting (${ms} ms)`);
      const stats = exporter.stats();
      assert.equal(stats.queued, 5);
      assert.equal(stats.dropped, 95);
    } finally {
      await collector.stop();
    }
  });

  it('a process about to exit sends what is queued; with a collector that does not answer it exits after the short flush, not the request timeout', async () => {
    const script = join(base, 'writer.ts');
    await writeFile(
      script,
      [
        `import { createTraceStack } from ${JSON.stringify(join(__dirname, '../../../../src/core/trace/traceStack'))};`,
        `const stack = createTraceStack({ workspaceRoot: ${JSON.stringify(root)}, toolVersion: 't', anchorDir: ${JSON.stringify(join(base, 'anchors'))}, governorHome: ${JSON.stringify(join(base, 'home'))}, fsync: 'never' });`,
        `void stack.sink.recordGovernance({ timestamp: new Date().toISOString(), invocation_id: 'i', session_id: 'exit-test', agent: { name: 'a' }, tool: 'write_file', decision: 'deny', code: 'SCOPE_VIOLATION', message: 'm', paths: ['x'] }).then(() => { process.exitCode = 3; });`,
      ].join('\n'),
    );
    const run = (env: NodeJS.ProcessEnv) =>
      new Promise<{ code: number | null; ms: number }>((resolve) => {
        const started = Date.now();
        const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: 'ignore' });
        child.on('exit', (code) => resolve({ code, ms: Date.now() - started }));
      });
    const collector = new LoopbackCollector();
    const hanging = new LoopbackCollector('hang');
    try {
      const sent = await run({ ...envFor(await collector.start()), INTENT_GOVERNOR_OTLP_EXIT_FLUSH_MS: '5000' });
      assert.equal(sent.code, 3, 'its exit code kept');
      assert.equal(collector.records().length, 1, 'the queued record went out before the exit');
      const cut = await run({ ...envFor(await hanging.start()), OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: '30000' });
      assert.equal(cut.code, 3);
      assert.ok(cut.ms < 12_000, `exited after the short flush (1 s), not the 30 s request timeout (${cut.ms} ms)`);
    } finally {
      await collector.stop();
      await hanging.stop();
    }
  });
});
