import { strict as assert } from 'node:assert';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningKey, recordSignerFor } from '../../../../src/core/signing/signingKey';
import { judgeRecordSignature } from '../../../../src/core/signing/signatureAudit';
import { loadWorkspaceSigners, publishSigner } from '../../../../src/core/signing/workspaceSigners';
import { traceChainFields } from '../../../../src/core/trace/traceChain';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { verifyWorkspaceLogs } from '../../../../src/core/trace/workspaceVerify';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

describe('signature audit', () => {
  let ws: TraceWorkspace;
  const key = generateSigningKey('alice');
  const signer = recordSignerFor(key);
  const cacheDir = () => join(ws.anchorDir, '..', 'verified-signatures');

  beforeEach(async () => {
    ws = await traceWorkspace();
    await publishSigner(ws.root, key.name, key.public_key);
    const sink = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: () => signer });
    for (let i = 0; i < 3; i++) await sink.recordMutation(mutationEvent());
    await sink.close();
  });
  afterEach(() => ws.dispose());

  const traceReport = async () => {
    const [trace] = await verifyWorkspaceLogs(ws.root, ws.anchors, { signers: await loadWorkspaceSigners(ws.root), cacheDir: cacheDir() });
    return trace;
  };

  it('checks a signature once per machine, yet a signature changed since is caught', async () => {
    const first = await traceReport();
    assert.equal(first.signatures?.checked, 3);
    assert.equal(first.signatures?.counts.signed, 3);
    const second = await traceReport();
    assert.equal(second.signatures?.checked, 0, 'all three were found valid before');
    assert.equal(second.signatures?.counts.signed, 3);

    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const record = JSON.parse(lines[1]);
    const other = JSON.parse(lines[2]).metadata.signature.sig;
    record.metadata.signature.sig = other;
    lines[1] = JSON.stringify(record);
    await writeFile(ws.trace, `${lines.join('\n')}\n`);
    const third = await traceReport();
    assert.equal(third.signatures?.counts.invalid, 1);
    assert.deepEqual(third.signatures?.runs.map((r) => [r.from, r.to, r.verdict]), [[1, 1, 'signed'], [2, 2, 'invalid'], [3, 3, 'signed']]);
  });

  it('accepts a signed record whose line is valid JSON but not canonical (keys in another order, spaces)', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const record = JSON.parse(lines[0]);
    const reordered = Object.fromEntries(Object.entries(record).reverse());
    reordered.metadata = Object.fromEntries(Object.entries(record.metadata).reverse());
    lines[0] = JSON.stringify(reordered, null, 1).replace(/\n/g, '');
    await writeFile(ws.trace, `${lines.join('\n')}\n`);
    const report = await traceReport();
    assert.equal(report.signatures?.counts.signed, 3);
    assert.equal(report.result.chainProblem, undefined, 'its hash still matches (only the anchor sees the bytes moved)');
  });

  it('a key published and also revoked is revoked; a .pub that is a link is not trusted', async () => {
    await mkdir(join(ws.root, '.orchestration/signers/revoked'), { recursive: true });
    await writeFile(join(ws.root, '.orchestration/signers/revoked/alice-old.pub'), key.public_key);
    assert.equal((await traceReport()).signatures?.counts.revoked, 3);

    await rename(join(ws.root, '.orchestration/signers/revoked/alice-old.pub'), join(ws.anchorDir, '..', 'outside.pub'));
    await rename(join(ws.root, '.orchestration/signers/alice.pub'), join(ws.anchorDir, '..', 'alice.pub'));
    await symlink(join(ws.anchorDir, '..', 'alice.pub'), join(ws.root, '.orchestration/signers/alice.pub'));
    const signers = await loadWorkspaceSigners(ws.root);
    assert.deepEqual(signers.problems, [{ file: '.orchestration/signers/alice.pub', problem: 'not a regular file (a link or a folder): not trusted' }]);
    assert.equal((await traceReport()).signatures?.counts.unknown_key, 3);
  });

  it('judges one record on its own for the inspector\'s detail pane', async () => {
    const [first] = (await readFile(ws.trace, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const signers = await loadWorkspaceSigners(ws.root);
    assert.deepEqual(judgeRecordSignature(first, traceChainFields, signers), { verdict: 'signed', text: `signed by alice (${key.key_id})` });
    const edited = { ...first, metadata: { ...first.metadata, intent_id: 'other' } };
    assert.match(judgeRecordSignature(edited, traceChainFields, signers).text, /^BAD SIGNATURE: claims alice/);
    const { signature: _gone, ...bare } = first.metadata;
    assert.equal(judgeRecordSignature({ ...first, metadata: bare }, traceChainFields, signers).verdict, 'unsigned');
    assert.match(judgeRecordSignature(first, traceChainFields, { byKeyId: new Map(), signers: [], problems: [] }).text, /^signed by an UNKNOWN key ed25519:/);
  });
});
