import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

  it('finds the governed workspace above the current directory, as git finds its repository', async () => {
    await mkdir(join(ws.root, 'src', 'deep'), { recursive: true });
    const nested = await runGovernor(['trace', 'verify'], { anchorDir: ws.anchorDir, cwd: join(ws.root, 'src', 'deep') });
    assert.equal(nested.code, 0, nested.stderr);
    assert.match(nested.stdout, /^\.orchestration\/agent_trace\.jsonl: verified \(3 records, 1 chain, anchor matched\)$/m);
    const listed = await runGovernor(['trace', '--json'], { anchorDir: ws.anchorDir, cwd: join(ws.root, 'src') });
    assert.equal(listed.stdout.trim().split('\n').length, 3, listed.stderr);
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

  /** What `git pull --rebase` leaves: the other branch's new records first, then ours replayed after them. */
  const rebased = async () => {
    const base = await readFile(ws.trace, 'utf8');
    const record = (name: string) => (sink: JsonlTraceSink) => sink.recordMutation(mutationEvent({ agent: { name } }));
    const merged = await mergedBranches(ws, record('ours'), async (sink) => {
      await record('theirs')(sink);
      await record('theirs')(sink);
    });
    const ours = await readFile(ws.trace, 'utf8');
    return base + merged.slice(ours.length) + ours.slice(base.length);
  };

  it('reanchor: after a human checked a rebase that put another branch first, verify passes again', async () => {
    await writeFile(ws.trace, await rebased());
    const before = await governor('trace', 'verify');
    assert.equal(before.code, 1, before.stdout);
    assert.match(before.stdout, /TAMPERED at line 4: the anchored head \S+ was line 4 ending at byte \d+, but is now line 6 ending at byte \d+: lines 4-5 were inserted before it, or a rebase put another branch's records first\. If a human checked this .*governor trace reanchor/);

    const run = await governor('trace', 'reanchor');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^\.orchestration\/agent_trace\.jsonl: accepted on this machine:\n {2}- the anchored head \S+ was line 4 .* lines 4-5 were inserted before it, or a rebase/m);
    assert.match(run.stdout, /^ {2}anchor now at line 6 \(sha256:\S+, \d+ bytes\)$/m);
    assert.match(run.stdout, /^\.orchestration\/governance_log\.jsonl: nothing to accept;\n {2}anchor now at line 1 /m);
    const after = await governor('trace', 'verify');
    assert.equal(after.code, 0, after.stdout);
    assert.match(after.stdout, /agent_trace\.jsonl: merged \(6 records, 2 chains from line 6, anchor matched\)/);
  });

  it('reanchor: also accepts the discontinuity note a writer left before the human got to it', async () => {
    await writeFile(ws.trace, await rebased());
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({ invocation_id: 'after-rebase' }));
    await sink.close();
    const before = await governor('trace', 'verify');
    assert.equal(before.code, 1);
    assert.match(before.stdout, /TAMPERED at line 7: line 7 records that a writer found the anchored head missing or moved: the anchored head \S+ was line 4/);

    const run = await governor('trace', 'reanchor');
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /- line 7, a writer's discontinuity note: the anchored head \S+ was line 4/);
    const after = await governor('trace', 'verify');
    assert.equal(after.code, 0, after.stdout);
    assert.match(run.stdout, /agent_trace\.jsonl: appended an acceptance of 1 discontinuity note/);
    assert.match(after.stdout, /agent_trace\.jsonl: merged \(9 records, 2 chains from line 6, anchor matched, 1 discontinuity accepted by the acceptance record at line 9\)/);
    // The acceptance is in the log: a machine without this one's anchors (CI, a teammate) accepts the note too.
    const elsewhere = await runGovernor(['trace', 'verify', '--workspace', ws.root], { anchorDir: join(ws.anchorDir, 'elsewhere') });
    assert.equal(elsewhere.code, 0, elsewhere.stdout);
  });

  it('reanchor: refuses, changing nothing, when the chain itself is broken', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    lines[1] = lines[1].replace('"cursor"', '"nobody"');
    await writeFile(ws.trace, lines.join('\n'));
    const anchorFile = await ws.anchors.fileFor('.orchestration/agent_trace.jsonl');
    const anchorBefore = await readFile(anchorFile, 'utf8');
    const run = await governor('trace', 'reanchor');
    assert.equal(run.code, 1);
    assert.match(run.stdout, /agent_trace\.jsonl: NOT reanchored, the chain itself is broken: TAMPERED at line 2: line 2 does not match its hash/);
    assert.equal(await readFile(anchorFile, 'utf8'), anchorBefore);
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
