import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordSigner } from '../../../src/core/signing/recordSignature';
import { generateSigningKey, recordSignerFor } from '../../../src/core/signing/signingKey';
import { publishSigner, revokeSigner } from '../../../src/core/signing/workspaceSigners';
import { ensureOrchestrationGitFiles } from '../../../src/core/trace/orchestrationGitFiles';
import { sealSignedRecord, traceChainFields } from '../../../src/core/trace/traceChain';
import { TRACE_FILE } from '../../../src/core/trace/traceFiles';
import { buildMutationRecord } from '../../../src/core/trace/traceRecord';
import { runGovernor } from '../../support/runGovernor';
import { writeSyntheticTrace } from '../../support/syntheticTrace';

const BASE_RECORDS = 20;
const INTENTS = `active_intents:
${['INT-001', 'INT-002', 'INT-003', 'INT-004'].map((id) => `  - id: ${id}\n    name: ${id}\n    status: IN_PROGRESS\n    owned_scope: ['src/**']\n`).join('')}`;

/**
 * `check --base` judges only what a branch appended after the base's log, so it must still catch every bad added
 * record; the count it says it verified shows the base's records were not verified again.
 */
describe('check --base verifies the records the branch added', function () {
  this.timeout(60_000);
  let root: string;
  let anchorDir: string;
  let alice: RecordSigner;
  let sequence = 0;

  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const check = (...flags: string[]) => runGovernor(['check', '--workspace', root, '--base', 'main', ...flags], { anchorDir, env: { CI: '' } });
  const traceLines = () => readFileSync(join(root, TRACE_FILE), 'utf8').split('\n').filter(Boolean);

  /** One record appended after the log's last, signed by `signer`, changing `path` under `intent`. */
  function append(signer: RecordSigner, path = 'src/added.ts', intent = 'INT-001'): void {
    const last = JSON.parse(traceLines().at(-1) as string) as { metadata: { hash: string } };
    sequence += 1;
    const record = buildMutationRecord(
      { timestamp: new Date().toISOString(), invocation_id: `added-${sequence}`, session_id: 's', agent: { name: 'claude-code', model_id: 'm' }, intent_id: intent, tool: 'edit_file', mutation_class: 'edit', files: [{ path, before: 'a\n', after: `a${sequence}\n` }], decision: 'allow' },
      { workspaceRoot: root, toolVersion: 'test', revision: 'f'.repeat(40) },
    ) as unknown as Record<string, unknown>;
    appendFileSync(join(root, TRACE_FILE), `${sealSignedRecord(record, last.metadata.hash, traceChainFields, signer.keyId, signer.sign)}\n`);
    // Committed, as a pull request's records are: a base that is HEAD itself has every record verified.
    git('commit', '-qam', `record ${sequence}`);
  }

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'ig-check-added-'));
    anchorDir = join(root, '..', `${root.split('/').at(-1)}-anchors`);
    mkdirSync(join(root, '.orchestration'), { recursive: true });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'lead@example.com');
    git('config', 'user.name', 'lead');
    writeFileSync(join(root, '.orchestration/active_intents.yaml'), INTENTS);
    await ensureOrchestrationGitFiles(root);
    const key = generateSigningKey('alice');
    alice = recordSignerFor(key);
    await publishSigner(root, 'alice', key.public_key);
    await writeSyntheticTrace(join(root, TRACE_FILE), BASE_RECORDS, { signers: [alice] });
    git('add', '.orchestration');
    git('commit', '-q', '-m', 'base');
    git('checkout', '-q', '-b', 'pr');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(anchorDir, { recursive: true, force: true });
  });

  it('says how many added records it verified, and that the base\'s were not verified again', async () => {
    for (let i = 0; i < 3; i += 1) append(alice);
    const run = await check('--require-signatures');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}\.orchestration\/agent_trace\.jsonl: verified 3 records the branch added \(1 chain\); the base's 20 are the base's, byte for byte, and not verified again$/m);
    assert.match(run.stdout, /^ok {4}\.orchestration\/agent_trace\.jsonl signatures: 3 signed by a known signer/m);
    assert.match(run.stdout, /^ok {4}scope: 3 traced change\(s\) the branch added checked/m);
  });

  it('fails on an added record edited after it was written', async () => {
    for (let i = 0; i < 3; i += 1) append(alice);
    const lines = traceLines();
    lines[BASE_RECORDS + 1] = lines[BASE_RECORDS + 1].replace('"session_id":"s"', '"session_id":"t"');
    writeFileSync(join(root, TRACE_FILE), `${lines.join('\n')}\n`);
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, new RegExp(`^FAIL  \\.orchestration/agent_trace\\.jsonl: TAMPERED at line ${BASE_RECORDS + 2}: line ${BASE_RECORDS + 2} does not match its hash`, 'm'));
  });

  it('fails on an added record outside its intent\'s scope, naming its line', async () => {
    append(alice);
    append(alice, 'lib/outside.ts');
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, new RegExp(`trace line ${BASE_RECORDS + 2}: lib/outside\\.ts is outside INT-001`));
    assert.match(run.stdout, /scope: 1 traced change\(s\) outside/);
  });

  it('fails under --require-signatures on an added record signed by a key no .pub holds', async () => {
    append(alice);
    append(recordSignerFor(generateSigningKey('mallory')));
    const run = await check('--require-signatures');
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /^FAIL  \.orchestration\/agent_trace\.jsonl signatures: 1 signed by a known signer.*1 .*UNKNOWN/im);
    assert.match(run.stdout, /check failed: .*agent_trace\.jsonl has records not signed by a known signer/);
  });

  it('fails on an added record that does not continue the base\'s last record', async () => {
    append(alice);
    const lines = traceLines();
    // The branch's record moved before the base's last: the head no longer starts with the base's log.
    [lines[BASE_RECORDS - 1], lines[BASE_RECORDS]] = [lines[BASE_RECORDS], lines[BASE_RECORDS - 1]];
    writeFileSync(join(root, TRACE_FILE), `${lines.join('\n')}\n`);
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.doesNotMatch(run.stdout, /the branch added \(/);
  });

  it('verifies every record when the base is HEAD itself (CI on the default branch): no earlier gate vouched for it', async () => {
    git('checkout', '-q', 'main');
    const run = await check();
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /^ok {4}\.orchestration\/agent_trace\.jsonl: verified \(20 records/m);
  });

  it('verifies every record when the branch revoked a signer, whose verdicts on the base change', async () => {
    append(alice);
    await revokeSigner(root, 'alice');
    const run = await check('--require-signatures');
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /^info  every record verified: the signers changed since the base/m);
    assert.match(run.stdout, /signatures: .*21 /);
  });
});
