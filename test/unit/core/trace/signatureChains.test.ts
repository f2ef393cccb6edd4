import { strict as assert } from 'node:assert';
import { createPublicKey } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordSigner } from '../../../../src/core/signing/recordSignature';
import { generateSigningKey, recordSignerFor, type SigningKey } from '../../../../src/core/signing/signingKey';
import { loadWorkspaceSigners, publishSigner, type PublishedSigner } from '../../../../src/core/signing/workspaceSigners';
import { SignatureAudit } from '../../../../src/core/trace/signatureAudit';
import { canonicalJson, computeRecordHash, recordLink, sealSignedRecord, traceChainFields } from '../../../../src/core/trace/traceChain';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { readRecordLines, verifyLog } from '../../../../src/core/trace/traceVerify';
import { verifyWorkspaceLogs } from '../../../../src/core/trace/workspaceVerify';
import { writeSyntheticTrace } from '../../../support/syntheticTrace';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { describeInVerifyModes } from '../../../support/verifyModes';

type Metadata = { hash: string; prev_hash: string; intent_id?: string; signing?: { key_id: string; prev?: string; scheme: number }; signature: { key_id: string; sig: string } };
type Line = { id: string; metadata: Metadata };

const NAMES = ['alice', 'bob', 'carol', 'dave'];
const KEYS = Object.fromEntries(NAMES.map((name) => [name, generateSigningKey(name)])) as Record<string, SigningKey>;
const SIGNERS = Object.fromEntries(NAMES.map((name) => [name, recordSignerFor(KEYS[name])])) as Record<string, RecordSigner>;
const link = (m: Metadata) => recordLink(m.hash, m.signature.key_id, m.signature.sig);

/**
 * Signing scheme 2 on the log a team's merge leaves: records of several writers interleaved, each line written
 * by another writer than the line above. Each key's records still form a chain of their own (`signing.prev`),
 * so verify checks one signature per key, and every attack on a record or its signature is still caught.
 */
describeInVerifyModes('signature audit: key chains across interleaved writers (scheme 2)', () => {
  let ws: TraceWorkspace;
  const cacheDir = () => join(ws.anchorDir, '..', 'verified-signatures');
  const sinkFor = (name: string) => new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: () => SIGNERS[name] });
  const read = async (): Promise<Line[]> => (await readFile(ws.trace, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Line);
  const write = (lines: unknown[]) => writeFile(ws.trace, `${lines.map((l) => canonicalJson(l)).join('\n')}\n`);
  const report = async (anchored = true) => {
    const [trace] = await verifyWorkspaceLogs(ws.root, anchored ? ws.anchors : undefined, { signers: await loadWorkspaceSigners(ws.root), cacheDir: cacheDir() });
    return { result: trace.result, signatures: trace.signatures as NonNullable<typeof trace.signatures> };
  };
  const verdicts = (r: Awaited<ReturnType<typeof report>>) => r.signatures.runs.map((run) => [run.from, run.to, run.verdict, run.signer]);

  beforeEach(async () => {
    ws = await traceWorkspace();
    for (const name of NAMES) await publishSigner(ws.root, name, KEYS[name].public_key);
    // Four long-lived writers (four processes: each ChainedJsonlLog knows only what it wrote and read) in turn.
    const sinks = NAMES.map(sinkFor);
    for (let round = 0; round < 3; round += 1) for (const sink of sinks) await sink.recordMutation(mutationEvent());
    for (const sink of sinks) await sink.close();
  });
  afterEach(() => ws.dispose());

  it('every line from another writer: one check per key, every record keeps the key that wrote it', async () => {
    const lines = await read();
    assert.deepEqual(lines.map((l) => l.metadata.signing?.key_id), lines.map((_, i) => KEYS[NAMES[i % 4]].key_id));
    assert.deepEqual(lines.map((l) => l.metadata.signing?.prev), lines.map((_, i) => (i < 4 ? undefined : link(lines[i - 4].metadata))), 'each names its key\'s record four lines up');
    const first = await report();
    assert.equal(first.result.status, 'verified');
    assert.deepEqual(first.signatures.signers, { alice: 3, bob: 3, carol: 3, dave: 3 });
    assert.equal(first.signatures.counts.signed, 12);
    assert.equal(first.signatures.checked, 4, 'the newest record of each key vouches for the others');
    assert.deepEqual(verdicts(first), lines.map((_, i) => [i + 1, i + 1, 'signed', NAMES[i % 4]]));
    assert.equal((await report()).signatures.checked, 0, 'found valid before, on this machine');

    const sinks = NAMES.map(sinkFor);
    for (const sink of sinks) await sink.recordMutation(mutationEvent());
    for (const sink of sinks) await sink.close();
    const again = await report();
    assert.equal(again.signatures.counts.signed, 16);
    assert.equal(again.signatures.checked, 4, 'only the new heads');
  });

  it('a writer started for each record (a hook process) names its key\'s last record, found among the last records of the file', async () => {
    for (let round = 0; round < 2; round += 1) {
      for (const name of NAMES) {
        const sink = sinkFor(name);
        await sink.recordMutation(mutationEvent());
        await sink.close();
      }
    }
    const lines = await read();
    assert.deepEqual(lines.slice(12).map((l) => l.metadata.signing?.prev), lines.slice(12).map((_, i) => link(lines[8 + i].metadata)));
    const result = await report();
    assert.equal(result.signatures.counts.signed, 20);
    assert.equal(result.signatures.checked, 4);
  });

  it('a changed record: the chain reports the edit, and that record alone is a BAD signature', async () => {
    const lines = await read();
    lines[5].metadata.intent_id = 'INT-EDITED';
    await write(lines);
    const result = await report();
    assert.equal(result.result.status, 'tampered');
    assert.equal(result.result.firstBadLine, 6);
    assert.deepEqual(verdicts(result)[5], [6, 6, 'invalid', 'bob'], 'the next record of bob names its hash, which no longer matches its content');
    assert.equal(result.signatures.counts.signed, 11);
  });

  it('a removed record: the chain reports it; with the chain recomputed past it, every record after it is a BAD signature', async () => {
    const lines = await read();
    await write([...lines.slice(0, 5), ...lines.slice(6)]);
    const removed = await report();
    assert.equal(removed.result.status, 'tampered');
    assert.match(removed.result.reason ?? '', /line 6 links to a record that is not in the file/);
    assert.equal(removed.signatures.counts.signed, 11, 'the records left are genuine');

    // Hide the gap from the hash chain: recompute prev_hash and hash of every record after it.
    const rest = [...lines.slice(0, 5), ...lines.slice(6)];
    for (let i = 5; i < rest.length; i += 1) {
      rest[i].metadata.prev_hash = rest[i - 1].metadata.hash;
      rest[i].metadata.hash = computeRecordHash(rest[i], traceChainFields);
    }
    await write(rest);
    const hidden = await report(false);
    assert.equal(hidden.result.status, 'verified', 'without an anchor, the chain alone cannot tell');
    assert.deepEqual(verdicts(hidden).map(([from, to, verdict]) => [from, to, verdict]), [
      ...[1, 2, 3, 4, 5].map((n) => [n, n, 'signed']),
      ...[6, 7, 8, 9, 10, 11].map((n) => [n, n, 'invalid']),
    ]);
  });

  it('a record whose signature field alone was swapped, in the middle of its key\'s chain, is a BAD signature', async () => {
    const lines = await read();
    const genuine = lines[4].metadata.signature;
    lines[4].metadata.signature = lines[0].metadata.signature; // alice's second record gets her first one's signature
    await write(lines);
    const result = await report();
    assert.equal(result.result.status, 'verified', 'the signature is outside the hash, and as long as before: neither the chain nor the anchor sees it');
    assert.deepEqual(verdicts(result)[4], [5, 5, 'invalid', 'alice']);
    assert.equal(result.signatures.counts.signed, 11, 'alice\'s records before and after it stay signed');

    lines[4].metadata.signature = { key_id: lines[4].metadata.signature.key_id, sig: `${lines[8].metadata.signature.sig.slice(0, 80)}AAAAAA==` };
    await write(lines);
    assert.deepEqual(verdicts(await report())[4], [5, 5, 'invalid', 'alice'], 'any change to the signature bytes, not only another record\'s');

    lines[4].metadata.signature = { ...genuine, extra: 'x' } as Metadata['signature'];
    await write(lines);
    const extra = await report();
    assert.deepEqual(extra.signatures.runs[4], { from: 5, to: 5, verdict: 'invalid', reason: 'the signature field is malformed' }, 'a key beside key_id and sig, which nothing would vouch for');
  });

  it('a record claimed by a key that did not write it is a BAD signature; a forged record naming a signer\'s last one does not take it down', async () => {
    const original = await read();
    let lines = structuredClone(original);
    lines[5].metadata.signature = { key_id: KEYS.alice.key_id, sig: lines[5].metadata.signature.sig }; // bob's record, claimed for alice
    await write(lines);
    const claimed = await report();
    assert.equal(claimed.signatures.runs[5].verdict, 'invalid');
    assert.equal(claimed.signatures.runs[5].signer, 'alice');
    assert.equal(claimed.signatures.runs[5].reason, `the record names the key ${KEYS.bob.key_id}, its signature another`);
    assert.deepEqual(claimed.signatures.signers, { alice: 3, bob: 2, carol: 3, dave: 3 });

    // Claimed in full: note and signature both say alice, naming her last record, with her signature copied, hash recomputed.
    lines = structuredClone(original);
    lines[5].metadata.signing = { key_id: KEYS.alice.key_id, prev: link(lines[4].metadata), scheme: 2 };
    lines[5].metadata.signature = { key_id: KEYS.alice.key_id, sig: lines[4].metadata.signature.sig };
    lines[5].metadata.hash = computeRecordHash(lines[5], traceChainFields);
    await write(lines);
    const rewritten = await report(false);
    assert.equal(rewritten.result.status, 'tampered', 'the next line links to the hash it had');
    assert.equal(rewritten.signatures.runs[5].verdict, 'invalid');
    assert.deepEqual(rewritten.signatures.signers, { alice: 3, bob: 2, carol: 3, dave: 3 });

    // A forged record appended after the others, in alice's name, naming her last record, with a copied signature.
    lines = structuredClone(original);
    const forged = structuredClone(lines[8]);
    forged.id = 'forged';
    sealSignedRecord(forged as unknown as Record<string, unknown>, lines[11].metadata.hash, traceChainFields, KEYS.alice.key_id, () => lines[8].metadata.signature, link(lines[8].metadata));
    await write([...lines, forged]);
    await rm(cacheDir(), { recursive: true, force: true });
    const appended = await report(false);
    assert.equal(appended.result.status, 'verified', 'its prev_hash is right');
    assert.deepEqual(verdicts(appended).at(-1), [13, 13, 'invalid', 'alice']);
    assert.deepEqual(appended.signatures.signers, { alice: 3, bob: 3, carol: 3, dave: 3 }, 'the record it named is checked on its own, and stands');
    assert.equal(appended.signatures.checked, 5, 'four heads, then alice\'s last genuine record');
  });

  it('a valid signature vouches only for records of its own key', async () => {
    const lines = await read();
    // A forged record in alice's name (bad signature), then a genuine record of dave naming it as his previous one.
    const forged = structuredClone(lines[8]);
    forged.id = 'forged';
    sealSignedRecord(forged as unknown as Record<string, unknown>, lines[11].metadata.hash, traceChainFields, KEYS.alice.key_id, () => lines[0].metadata.signature);
    const daves = structuredClone(lines[11]);
    daves.id = 'daves';
    sealSignedRecord(daves as unknown as Record<string, unknown>, forged.metadata.hash, traceChainFields, KEYS.dave.key_id, SIGNERS.dave.sign, link(forged.metadata));
    await write([...lines, forged, daves]);
    const result = await report(false);
    assert.deepEqual(verdicts(result).slice(-2), [
      [13, 13, 'invalid', 'alice'],
      [14, 14, 'signed', 'dave'],
    ]);
  });

  it('an unknown key\'s records are signed by an UNKNOWN key, a revoked key\'s records REVOKED; the others stay signed', async () => {
    await unlink(join(ws.root, '.orchestration/signers/bob.pub'));
    await mkdir(join(ws.root, '.orchestration/signers/revoked'), { recursive: true });
    await rename(join(ws.root, '.orchestration/signers/carol.pub'), join(ws.root, '.orchestration/signers/revoked/carol.pub'));
    const result = await report();
    assert.deepEqual(result.signatures.counts, { signed: 6, signed_before_revocation: 0, unsigned: 0, legacy: 0, unknown_key: 3, revoked: 3, invalid: 0 });
    assert.deepEqual(verdicts(result).slice(0, 4), [
      [1, 1, 'signed', 'alice'],
      [2, 2, 'unknown_key', undefined],
      [3, 3, 'revoked', 'carol'],
      [4, 4, 'signed', 'dave'],
    ]);
    assert.equal(result.signatures.checked, 3, 'revoked records are still checked (a forged one is invalid, not revoked); unknown ones cannot be');
  });
});

describeInVerifyModes('signature audit: older logs and many keys', () => {
  let ws: TraceWorkspace;
  afterEach(() => ws.dispose());

  it('a log written under scheme 1 (prev_signed runs) still verifies, and a writer of scheme 2 continues it', async () => {
    ws = await traceWorkspace();
    for (const name of ['alice', 'bob']) await publishSigner(ws.root, name, KEYS[name].public_key);
    await writeSyntheticTrace(ws.trace, 30, { signers: [SIGNERS.alice, SIGNERS.bob], runLength: 5, scheme: 1 });
    const verify = async () => (await verifyWorkspaceLogs(ws.root, ws.anchors, { signers: await loadWorkspaceSigners(ws.root) }))[0];
    const old = await verify();
    assert.equal(old.result.status, 'verified');
    assert.deepEqual(old.signatures?.signers, { alice: 15, bob: 15 });
    assert.equal(old.signatures?.checked, 6, 'one per run of 5');

    const sink = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: () => SIGNERS.alice });
    await sink.recordMutation(mutationEvent());
    await sink.recordMutation(mutationEvent());
    await sink.close();
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Line);
    assert.equal(lines[30].metadata.signing?.prev, undefined, 'scheme 1 records are not named: verify links only scheme 2 records');
    assert.equal(lines[31].metadata.signing?.prev, link(lines[30].metadata));
    const continued = await verify();
    assert.deepEqual(continued.signatures?.signers, { alice: 17, bob: 15 });
    assert.equal(continued.signatures?.checked, 7);
  });

  it('more key chains open at once than are kept in memory: the oldest are checked during the pass, every verdict stays right', async () => {
    ws = await traceWorkspace();
    const keys = Array.from({ length: 1100 }, (_, i) => generateSigningKey(`k${i}`));
    const signers = keys.map(recordSignerFor);
    // Each key writes one record, then each a second one naming its first: 1100 chains open at once.
    await writeSyntheticTrace(ws.trace, 2200, { signers, runLength: 1 });
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    // Break the first record of k5 (its own signature), and the second record of k7.
    const bad = [5, 1107].map((i) => {
      const record = JSON.parse(lines[i]) as Line;
      record.metadata.signature = { ...record.metadata.signature, sig: JSON.parse(lines[0]).metadata.signature.sig };
      lines[i] = canonicalJson(record);
      return i + 1;
    });
    await writeFile(ws.trace, `${lines.join('\n')}\n`);
    const published: PublishedSigner[] = keys.map((k) => ({ name: k.name, keyId: k.key_id, status: 'trusted', file: `${k.name}.pub`, key: createPublicKey(k.public_key) }));
    const audit = new SignatureAudit({ byKeyId: new Map(published.map((p) => [p.keyId, p])), signers: published, problems: [] }, undefined, (wanted) =>
      readRecordLines(ws.trace, traceChainFields, wanted),
    );
    const result = await verifyLog(ws.trace, { onRecord: (line) => audit.add(line) });
    const report = await audit.finish();
    assert.equal(result.status, 'verified');
    assert.equal(report.counts.invalid, 2);
    assert.deepEqual(report.runs.filter((r) => r.verdict === 'invalid').map((r) => r.from), bad);
    assert.equal(report.counts.signed, 2198);
    assert.equal(report.signers.k5, 1, 'k5\'s second record stands: it names the first by its swapped signature, which no record of k5 has');
    assert.equal(report.signers.k7, 1);
    // Keys in strict turn, more of them than MAX_HEADS: each first record is checked before its key's second arrives.
    assert.ok(report.checked >= 1100 && report.checked <= 2200, `${report.checked} checks`);
  });
});
