import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { assertAgentTraceRecord } from '../../support/agentTraceSchema';
import { runGovernor } from '../../support/runGovernor';
import { governanceEvent, mutationEvent, traceWorkspace, type TraceWorkspace } from '../../support/traceFixtures';
import { mergedBranches } from '../../support/unionMerge';
import type { JsonlTraceSink } from '../../../src/core/trace/traceWriter';

describe('governor trace', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;
  const governor = (...args: string[]) => runGovernor(args, { anchorDir: ws.anchorDir, cwd: ws.root });

  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-001',
      agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' },
      timestamp: '2026-02-01T10:00:00.000Z',
    }));
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-002',
      agent: { name: 'cursor' },
      timestamp: '2026-02-02T10:00:00.000Z',
      files: [{ path: 'docs/guide.md', after: '# Guide\n' }],
    }));
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-001',
      agent: { name: 'cline', model_id: 'gpt-5' },
      decision: 'approved',
      approver: 'alice',
      timestamp: '2026-02-03T10:00:00.000Z',
      mutation_class: 'delete',
      files: [{ path: 'src/old.ts', before: 'x\n' }],
    }));
    await sink.recordGovernance(governanceEvent());
    await sink.close();
  });
  afterEach(() => ws.dispose());

  it('prints usage for --help', async () => {
    const run = await governor('trace', '--help');
    assert.equal(run.code, 0);
    assert.match(run.stdout, /governor trace verify \[--json\] \[--workspace DIR\]/);
  });

  it('lists records as a table with the changed lines of each file', async () => {
    const run = await governor('trace');
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trim().split('\n');
    assert.match(rows[0], /^LINE\s+TIME\s+INTENT\s+AGENT\s+MODEL\s+DECISION\s+FILES/);
    assert.match(rows[1], /^1\s+2026-02-01T10:00:00Z\s+INT-001\s+claude-code\s+claude-sonnet-4-5\s+allow\s+src\/app\.ts:2,4$/);
    assert.match(rows[3], /INT-001\s+cline\s+gpt-5\s+approved\s+src\/old\.ts \(deleted\)$/);
    assert.equal(rows.at(-1), '3 records');
  });

  it('filters with --intent, --file, --agent, --model, --since and --until', async () => {
    const lines = async (...args: string[]) => {
      const run = await governor('trace', '--json', ...args);
      return run.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    };
    assert.deepEqual((await lines('--intent', 'INT-001')).map((r) => r.metadata.agent), ['claude-code', 'cline']);
    assert.deepEqual((await lines('--file', 'docs/**')).map((r) => r.metadata.agent), ['cursor']);
    assert.deepEqual((await lines('--agent', 'cline')).map((r) => r.metadata.intent_id), ['INT-001']);
    assert.deepEqual((await lines('--model', 'claude-sonnet-4-5')).map((r) => r.metadata.agent), ['claude-code']);
    assert.deepEqual((await lines('--since', '2026-02-02', '--until', '2026-02-02T23:59:59Z')).map((r) => r.metadata.agent), ['cursor']);
    for (const record of await lines()) assertAgentTraceRecord(record);
  });

  it('rejects a bad date or an unknown option with exit 2', async () => {
    const bad = await governor('trace', '--since', 'yesterday');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--since 'yesterday' is not an ISO date/);
    const unknown = await governor('trace', '--colour');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown option '--colour'/);
  });

  it('verify: exit 0 for an intact workspace, naming both logs', async () => {
    const run = await governor('trace', 'verify');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^\.orchestration\/agent_trace\.jsonl: verified \(3 records, 1 chain, anchor matched\)$/m);
    assert.match(run.stdout, /^\.orchestration\/governance_log\.jsonl: verified \(1 record, 1 chain, anchor matched\)$/m);
  });

  it('verify: exit 1 naming the first bad line and why', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    lines[1] = lines[1].replace('"cursor"', '"nobody"');
    await writeFile(ws.trace, lines.join('\n'));
    const run = await governor('trace', 'verify', '--workspace', ws.root);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /agent_trace\.jsonl: TAMPERED at line 2: line 2 does not match its hash/);
  });

  it('verify: exit 1 for a truncated trace, through the anchor', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    await writeFile(ws.trace, `${lines[0]}\n`);
    const run = await governor('trace', 'verify');
    assert.equal(run.code, 1);
    assert.match(run.stdout, /TAMPERED at line 2: the log ends after line 1, but the anchor recorded 3 lines/);
  });

  it('verify: exit 0 and "merged" after a union merge of two branches', async () => {
    const record = (sink: JsonlTraceSink) => sink.recordMutation(mutationEvent());
    await writeFile(ws.trace, await mergedBranches(ws, record, record));
    const run = await governor('trace', 'verify');
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /agent_trace\.jsonl: merged \(5 records, 2 chains from line 5, anchor matched\)/);
  });

  it('verify: exit 0 and "empty" for a workspace with no trace yet', async () => {
    const fresh = await traceWorkspace();
    try {
      const run = await runGovernor(['trace', 'verify', '--workspace', fresh.root], { anchorDir: fresh.anchorDir });
      assert.equal(run.code, 0);
      assert.match(run.stdout, /agent_trace\.jsonl: empty/);
    } finally {
      await fresh.dispose();
    }
  });
});
