import { strict as assert } from 'node:assert';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningKey, recordSignerFor } from '../../../../src/core/signing/signingKey';
import { loadWorkspaceSigners, publishSigner } from '../../../../src/core/signing/workspaceSigners';
import { judgeRecordSignature } from '../../../../src/core/trace/signatureWords';
import { canonicalJson, recordLink, sealRecord, traceChainFields } from '../../../../src/core/trace/traceChain';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { verifyWorkspaceLogs } from '../../../../src/core/trace/workspaceVerify';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { describeInVerifyModes } from '../../../support/verifyModes';

describeInVerifyModes('signature audit', () => {
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

  it('checks one signature per run of a writer\'s records, once per machine, yet a signature changed since is caught', async () => {
    const first = await traceReport();
    assert.equal(first.signatures?.checked, 1, 'the last record vouches for the two before it');
    assert.equal(first.signatures?.counts.signed, 3);
    const second = await traceReport();
    assert.equal(second.signatures?.checked, 0, 'the run was found valid before');
    assert.equal(second.signatures?.counts.signed, 3);

    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const record = JSON.parse(lines[2]);
    record.metadata.signature.sig = JSON.parse(lines[1]).metadata.signature.sig;
    lines[2] = canonicalJson(record);
    await writeFile(ws.trace, `${lines.join('\n')}\n`);
    const third = await traceReport();
    assert.equal(third.signatures?.counts.invalid, 1);
    assert.deepEqual(third.signatures?.runs.map((r) => [r.from, r.to, r.verdict]), [[1, 2, 'signed'], [3, 3, 'invalid']]);
  });

  it('a forged record appended in the signer\'s name, vouching for the one before, is a bad signature; the signer\'s own records stay signed', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const last = JSON.parse(lines[2]);
    const forged = structuredClone(last);
    forged.id = 'forged-record';
    forged.metadata.prev_hash = last.metadata.hash;
    forged.metadata.prev_signed = true;
    delete forged.metadata.signature;
    sealRecord(forged, last.metadata.hash, traceChainFields, () => last.metadata.signature, true);
    await writeFile(ws.trace, `${[...lines, canonicalJson(forged)].join('\n')}\n`);
    const report = await traceReport();
    assert.deepEqual(report.signatures?.runs.map((r) => [r.from, r.to, r.verdict]), [[1, 3, 'signed'], [4, 4, 'invalid']]);
    assert.equal(report.signatures?.checked, 2, 'the forged one, then the run it claimed to extend');
  });

  it('a writer in another process names the last record of its key only after checking its signature; another key starts a chain of its own', async () => {
    const appendWith = async (recordSigner: typeof signer) => {
      const other = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: () => recordSigner });
      await other.recordMutation(mutationEvent());
      await other.close();
    };
    await appendWith(signer);
    const bob = generateSigningKey('bob');
    await publishSigner(ws.root, bob.name, bob.public_key);
    await appendWith(recordSignerFor(bob));
    await appendWith(signer);
    const records = async () => (await readFile(ws.trace, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).metadata);
    const link = (m: { hash: string; signature: { key_id: string; sig: string } }) => recordLink(m.hash, m.signature.key_id, m.signature.sig);
    let metadata = await records();
    assert.deepEqual(metadata.map((m) => m.signing.prev), [undefined, link(metadata[0]), link(metadata[1]), link(metadata[2]), undefined, link(metadata[3])]);
    assert.deepEqual(metadata.map((m) => m.prev_signed), [undefined, undefined, undefined, undefined, undefined, undefined], 'scheme 1 is only read, no longer written');
    const report = await traceReport();
    assert.deepEqual(report.signatures?.signers, { alice: 5, bob: 1 });
    assert.equal(report.signatures?.checked, 2, 'one per key chain: lines 1-4 and 6 (alice), line 5 (bob)');

    // A record of its key whose signature does not check out is not named by the next writer: it names the one before.
    const text = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const head = JSON.parse(text[5]);
    head.metadata.signature.sig = JSON.parse(text[0]).metadata.signature.sig;
    await writeFile(ws.trace, `${[...text.slice(0, 5), canonicalJson(head)].join('\n')}\n`);
    await appendWith(signer);
    metadata = await records();
    assert.equal(metadata[6].signing.prev, link(metadata[3]));
  });

  it('refuses a signed record whose line is valid JSON but not canonical (keys in another order, spaces): not what was signed', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const record = JSON.parse(lines[0]);
    const reordered = Object.fromEntries(Object.entries(record).reverse());
    reordered.metadata = Object.fromEntries(Object.entries(record.metadata).reverse());
    lines[0] = JSON.stringify(reordered, null, 1).replace(/\n/g, '');
    await writeFile(ws.trace, `${lines.join('\n')}\n`);
    const report = await traceReport();
    assert.equal(report.signatures?.counts.signed, 2);
    assert.equal(report.signatures?.counts.invalid, 1);
    assert.match(report.result.chainProblem?.reason ?? '', /^not canonical at line 1/);
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
