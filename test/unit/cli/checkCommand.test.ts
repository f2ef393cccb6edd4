import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sealRecord, traceChainFields } from '../../../src/core/trace/traceChain';
import { runGovernor } from '../../support/runGovernor';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../support/traceFixtures';

const INTENTS = `active_intents:
  - id: auth-refactor
    name: Refactor authentication
    status: IN_PROGRESS
    owned_scope:
      - src/auth/**
  - id: docs
    name: Document the API
    status: DONE
    owned_scope:
      - docs/**
`;

describe('governor check', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;
  const check = () => runGovernor(['check', '--workspace', ws.root], { anchorDir: ws.anchorDir });
  const intents = async (text: string) => {
    const file = join(ws.root, '.orchestration', 'active_intents.yaml');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  };

  beforeEach(async () => {
    ws = await traceWorkspace();
    await intents(INTENTS);
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({ intent_id: 'auth-refactor', files: [{ path: 'src/auth/login.ts', after: 'x\n' }] }));
    await sink.recordMutation(mutationEvent({ intent_id: 'docs', files: [{ path: 'docs/api.md', after: '# API\n' }] }));
    await sink.close();
  });
  afterEach(() => ws.dispose());

  it('passes when intents are valid, the trace verifies and every change is in scope', async () => {
    const run = await check();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}intents: 2 intent\(s\)/m);
    assert.match(run.stdout, /^ok {4}\.orchestration\/agent_trace\.jsonl: verified/m);
    assert.match(run.stdout, /^ok {4}scope: 2 traced change\(s\) checked/m);
    assert.match(run.stdout, /check passed\n$/);
  });

  it('fails naming the trace line and path of a change outside its intent scope', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({ intent_id: 'auth-refactor', files: [{ path: 'src/billing/pay.ts', after: 'y\n' }] }));
    await sink.close();
    const run = await check();
    assert.equal(run.code, 1);
    assert.match(run.stdout, /trace line 3: src\/billing\/pay\.ts is outside auth-refactor \(src\/auth\/\*\*\)/);
    assert.match(run.stdout, /check failed: scope violations/);
  });

  it('judges a change by the scope its intent had at the time, recorded in the trace', async () => {
    const sink = ws.sink();
    // written while auth-refactor also owned src/shared/**, a scope a human has narrowed since
    await sink.recordMutation(mutationEvent({ intent_id: 'auth-refactor', intent_scope: ['src/auth/**', 'src/shared/**'], files: [{ path: 'src/shared/util.ts', after: 'u\n' }] }));
    // recorded under a scope that never covered it
    await sink.recordMutation(mutationEvent({ intent_id: 'auth-refactor', intent_scope: ['src/auth/**'], files: [{ path: 'src/billing.ts', after: 'b\n' }] }));
    await sink.close();
    const run = await check();
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.stdout, /src\/shared\/util\.ts is outside/);
    assert.match(run.stdout, /trace line 4: src\/billing\.ts is outside auth-refactor \(src\/auth\/\*\*\)/);
  });

  it('fails with line and column when the intents file is invalid', async () => {
    await intents('active_intents:\n  - id: x\n    status: MAYBE\n');
    const run = await check();
    assert.equal(run.code, 1);
    assert.match(run.stdout, /FAIL {2}intents: \.orchestration\/active_intents\.yaml is invalid\n\s+\.orchestration\/active_intents\.yaml:\d+:\d+: /);
    assert.match(run.stdout, /skip {2}scope/);
  });

  it('fails when the trace was tampered with', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    await writeFile(ws.trace, [lines[1], lines[0], ''].join('\n'));
    const run = await check();
    assert.equal(run.code, 1);
    assert.match(run.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl: TAMPERED at line 1/);
  });

  it('fails when a forged record with a correct prev_hash was inserted mid-log', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).split('\n');
    const forged = JSON.parse(lines[0]) as { id: string; metadata: Record<string, unknown> };
    forged.id = 'forged';
    forged.metadata.agent = 'forger';
    const line = sealRecord(forged as unknown as Record<string, unknown>, JSON.parse(lines[0]).metadata.hash, traceChainFields);
    await writeFile(ws.trace, [lines[0], line, lines[1], ''].join('\n'));
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl: TAMPERED at line 2: the anchored head \S+ was line 2 .* line 2 was inserted before it/);
    assert.match(run.stdout, /check failed: \.orchestration\/agent_trace\.jsonl tampered/);
  });

  it('warns about records whose intent left the intents file, without failing', async () => {
    await intents(INTENTS.split('  - id: docs')[0]);
    const run = await check();
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /warn {2}trace line 2: intent docs is not in the intents file/);
  });
});
