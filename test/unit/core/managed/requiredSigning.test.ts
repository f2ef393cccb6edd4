import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { generateSigningKey, recordSignerFor } from '../../../../src/core/signing/signingKey';
import { createTraceStack } from '../../../../src/core/trace/traceStack';
import { RecordingLogger, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';
import { runGovernor } from '../../../support/runGovernor';

/** Issue 23: requireSigning in the managed file: no unsigned record, so no change whose record cannot be signed. */
describe('issue 23: managed requireSigning', function () {
  this.timeout(60_000);
  const saved = process.env.INTENT_GOVERNOR_MANAGED_FILE;
  const dirs: string[] = [];
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ig-reqsign-'));
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-reqsign-ws-')));
    dirs.push(base, root);
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    process.env.INTENT_GOVERNOR_MANAGED_FILE = join(base, 'managed.json');
    await writeFile(join(base, 'managed.json'), JSON.stringify({ requireSigning: true }));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.INTENT_GOVERNOR_MANAGED_FILE;
    else process.env.INTENT_GOVERNOR_MANAGED_FILE = saved;
  });
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function governorWith(signer: ReturnType<typeof recordSignerFor> | undefined): Promise<Governor> {
    const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: 'test', anchorDir: join(base, 'anchors'), governorHome: join(base, 'home'), fsync: 'never', signer: () => signer });
    const services = await createNodeServices({ root, approver: new ScriptedApprover(), trace: sink, logger: new RecordingLogger(), policy: { approval: 'destructive-only' } });
    services.sessions.bindIntent('s1', 'auth-refactor');
    return new Governor(services);
  }
  const write = (governor: Governor, path: string) => governor.run({ tool: 'write_file', input: { path, content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });

  it('without a key: the change is refused before it is made (SIGNING_REQUIRED, saying how to make a key) and nothing unsigned is written', async () => {
    const refused = await write(await governorWith(undefined), 'src/auth/a.ts');
    assert.equal(!refused.ok && refused.error.code, 'SIGNING_REQUIRED', JSON.stringify(refused));
    assert.match(!refused.ok ? refused.error.message : '', /requireSigning in .*managed\.json.*governor keys init.*Initialize Signing Key/s);
    await assert.rejects(readFile(join(root, 'src', 'auth', 'a.ts')), 'the file was not written');
    await assert.rejects(readFile(join(root, '.orchestration', 'agent_trace.jsonl'), 'utf8'), 'no trace record');
    const governance = await readFile(join(root, '.orchestration', 'governance_log.jsonl'), 'utf8').catch(() => '');
    assert.ok(!governance.includes('"unsigned"') && !governance.includes('no signing key'), 'no unsigned governance record either');

    const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: 'test', anchorDir: join(base, 'anchors'), governorHome: join(base, 'home'), fsync: 'never' });
    await assert.rejects(
      sink.recordAhead({ timestamp: new Date().toISOString(), invocation_id: 'i', session_id: 's', agent: { name: 'a' }, tool: 'write_file', mutation_class: 'write', files: [{ path: 'src/auth/b.ts', after: 'x' }], decision: 'allow' }, []),
      /requireSigning/,
      'the writer itself refuses an unsigned record, whoever calls it',
    );
  });

  it('with a key: the change lands and its record is signed', async () => {
    const signer = recordSignerFor(generateSigningKey('ci-bot'));
    const done = await write(await governorWith(signer), 'src/auth/a.ts');
    assert.ok(done.ok, JSON.stringify(done));
    const record = JSON.parse((await readFile(join(root, '.orchestration', 'agent_trace.jsonl'), 'utf8')).trim().split('\n').pop() as string) as Record<string, unknown>;
    assert.ok(JSON.stringify(record).includes(signer.keyId), 'signed by the key');
  });

  it('governor check requires signatures when the managed file says so, without --require-signatures', async () => {
    const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: 'test', anchorDir: join(base, 'anchors'), governorHome: join(base, 'home'), fsync: 'never' });
    process.env.INTENT_GOVERNOR_MANAGED_FILE = join(base, 'none.json');
    await sink.recordMutation({ timestamp: new Date().toISOString(), invocation_id: 'i', session_id: 's', agent: { name: 'a' }, intent_id: 'auth-refactor', intent_scope: ['src/auth/**'], tool: 'write_file', mutation_class: 'write', files: [{ path: 'src/auth/b.ts', after: 'x\n' }], decision: 'allow' });
    await sink.close();
    const env = { INTENT_GOVERNOR_HOME: join(base, 'home'), INTENT_GOVERNOR_SIGNING: 'off' };
    const open = await runGovernor(['check', '--workspace', root], { anchorDir: join(base, 'anchors'), env: { ...env, INTENT_GOVERNOR_MANAGED_FILE: join(base, 'none.json') } });
    assert.equal(open.code, 0, open.stdout + open.stderr);
    const gated = await runGovernor(['check', '--workspace', root], { anchorDir: join(base, 'anchors'), env: { ...env, INTENT_GOVERNOR_MANAGED_FILE: join(base, 'managed.json') } });
    assert.equal(gated.code, 1, gated.stdout + gated.stderr);
    assert.match(gated.stdout, /signatures required by the administrator's managed file .*managed\.json \(requireSigning\)/);
    assert.match(gated.stdout, /FAIL  .orchestration\/agent_trace\.jsonl signatures: 1 UNSIGNED/);
  });
});
