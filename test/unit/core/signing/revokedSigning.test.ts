import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { generateSigningKey, recordSignerFor } from '../../../../src/core/signing/signingKey';
import { RevokedKeyWatch } from '../../../../src/core/signing/revokedKeyWatch';
import { publishSigner } from '../../../../src/core/signing/workspaceSigners';
import { createTraceStack } from '../../../../src/core/trace/traceStack';
import { RecordingLogger, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

/** Issue 41: a key the workspace revoked is never used to sign, even by a governor that was running when it was revoked. */
describe('a revoked signing key', function () {
  this.timeout(30_000);
  let base: string;
  let root: string;
  const key = generateSigningKey('bob@laptop');
  const signer = recordSignerFor(key);
  const traceFile = () => join(root, '.orchestration', 'agent_trace.jsonl');
  const governanceFile = () => join(root, '.orchestration', 'governance_log.jsonl');
  const lines = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'ig-revoked-'));
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-revoked-ws-')));
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    await publishSigner(root, key.name, key.public_key);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  async function runningGovernor() {
    const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: 'test', anchorDir: join(base, 'anchors'), governorHome: join(base, 'home'), fsync: 'never', signer: () => signer });
    const services = await createNodeServices({ root, approver: new ScriptedApprover(), trace: sink, logger: new RecordingLogger(), policy: { approval: 'destructive-only' } });
    services.sessions.bindIntent('s1', 'auth-refactor');
    const governor = new Governor(services);
    const write = (path: string) => governor.run({ tool: 'write_file', input: { path, content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });
    return { sink, write };
  }
  /** What `git pull` of `governor keys revoke` does to the checkout: the .pub moves into revoked/. */
  const revokeByPull = async () => {
    await mkdir(join(root, '.orchestration', 'signers', 'revoked'), { recursive: true });
    await rename(join(root, '.orchestration', 'signers', `${key.name}.pub`), join(root, '.orchestration', 'signers', 'revoked', `${key.name}.pub`));
  };

  it('refuses the next write of a running governor with SIGNING_KEY_REVOKED, naming the key, its .pub and the command; nothing is written or signed', async () => {
    const { sink, write } = await runningGovernor();
    const first = await write('src/auth/a.ts');
    assert.ok(first.ok, JSON.stringify(first));
    const traceBefore = await lines(traceFile());
    const governanceBefore = await lines(governanceFile());
    await revokeByPull();

    const refused = await write('src/auth/b.ts');
    assert.equal(!refused.ok && refused.error.code, 'SIGNING_KEY_REVOKED', JSON.stringify(refused));
    const message = !refused.ok ? refused.error.message : '';
    assert.ok(message.includes(`bob@laptop (${key.key_id})`), message);
    assert.ok(message.includes('.orchestration/signers/revoked/bob@laptop.pub'), message);
    assert.match(message, /governor keys init --rotate.*commit the new \.orchestration\/signers\/<name>\.pub/);
    assert.deepEqual(!refused.ok && refused.error.meta, { signer: 'bob@laptop', key_id: key.key_id, file: '.orchestration/signers/revoked/bob@laptop.pub' });
    await assert.rejects(readFile(join(root, 'src', 'auth', 'b.ts')), 'the file was not written');
    await sink.flush();
    assert.deepEqual(await lines(traceFile()), traceBefore, 'no trace record after the revocation');
    const signedAfter = (await lines(governanceFile())).slice(governanceBefore.length).filter((line) => line.includes(key.key_id));
    assert.deepEqual(signedAfter, [], 'no governance record signed with the revoked key either');
    await sink.close();
  });

  it('the writer itself refuses to sign with it, whoever calls it', async () => {
    const { sink } = await runningGovernor();
    await revokeByPull();
    await assert.rejects(
      sink.recordAhead({ timestamp: new Date().toISOString(), invocation_id: 'i', session_id: 's', agent: { name: 'a' }, tool: 'write_file', mutation_class: 'write', files: [{ path: 'src/auth/c.ts', after: 'x' }], decision: 'allow' }, []),
      /bob@laptop .* is revoked in this workspace \(\.orchestration\/signers\/revoked\/bob@laptop\.pub\)/,
    );
    await sink.close();
    assert.deepEqual((await lines(traceFile())).filter((line) => line.includes(key.key_id)), []);
  });

  it('reads the revoked folder again only when it changed, and sees a revocation made right after a question', () => {
    const watch = new RevokedKeyWatch(root);
    assert.equal(watch.revoked(key.key_id), undefined, 'no revoked folder: not revoked');
    return revokeByPull().then(() => {
      assert.equal(watch.revoked(key.key_id)?.file, '.orchestration/signers/revoked/bob@laptop.pub');
      assert.equal(watch.revoked(signer.keyId)?.name, 'bob@laptop', 'asked again, same answer');
      assert.equal(watch.revoked(recordSignerFor(generateSigningKey('alice')).keyId), undefined, 'another key is not revoked');
    });
  });
});
