import { strict as assert } from 'node:assert';
import {
  canonicalJson,
  computeRecordHash,
  GENESIS_HASH,
  governanceChainFields,
  lineHashMatches,
  recordLink,
  sealRecord,
  sealSignedRecord,
  signedLineHashMatches,
  signedText,
  traceChainFields,
} from '../../../../src/core/trace/traceChain';

describe('traceChain', () => {
  it('serialises with sorted keys at every depth, so key order never changes a hash', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 'x' }], c: null } }), '{"a":{"c":null,"d":[2,{"y":"x","z":1}]},"b":1}');
    assert.equal(canonicalJson({ '10': 'a', '2': 'b', x: undefined }), '{"10":"a","2":"b"}');
  });

  it('seals a record with prev_hash and a hash that recomputes from its content', () => {
    const record: Record<string, unknown> = { id: 'r1', files: [], metadata: { kind: 'mutation' } };
    const line = sealRecord(record, GENESIS_HASH, traceChainFields);
    const parsed = JSON.parse(line) as { metadata: { hash: string; prev_hash: string } };
    assert.equal(parsed.metadata.prev_hash, GENESIS_HASH);
    assert.match(parsed.metadata.hash, /^sha256:[0-9a-f]{64}$/);
    assert.equal(computeRecordHash(parsed, traceChainFields), parsed.metadata.hash);
    assert.equal(lineHashMatches(line, parsed.metadata.hash), true);
  });

  it('gives a different hash when any field changes, including prev_hash', () => {
    const a = JSON.parse(sealRecord({ kind: 'governance', code: 'X' }, GENESIS_HASH, governanceChainFields)) as { hash: string };
    const b = JSON.parse(sealRecord({ kind: 'governance', code: 'Y' }, GENESIS_HASH, governanceChainFields)) as { hash: string };
    const c = JSON.parse(sealRecord({ kind: 'governance', code: 'X' }, a.hash, governanceChainFields)) as { hash: string };
    assert.equal(new Set([a.hash, b.hash, c.hash]).size, 3);
  });

  it('does not accept an edited line on the fast path', () => {
    const line = sealRecord({ kind: 'governance', code: 'X' }, GENESIS_HASH, governanceChainFields);
    const hash = (JSON.parse(line) as { hash: string }).hash;
    assert.equal(lineHashMatches(line.replace('"X"', '"Z"'), hash), false);
  });
});

describe('traceChain with signatures', () => {
  it('signs the canonical line including its hash, and leaves the signature out of the hash', () => {
    const seen: string[] = [];
    const record: Record<string, unknown> = { id: 'r1', files: [], metadata: { kind: 'mutation' } };
    const line = sealRecord(record, GENESIS_HASH, traceChainFields, (text) => {
      seen.push(text);
      return { key_id: 'ed25519:00', sig: 'x' };
    });
    const parsed = JSON.parse(line) as { metadata: { hash: string; signature: unknown } };
    assert.deepEqual(parsed.metadata.signature, { key_id: 'ed25519:00', sig: 'x' });
    assert.equal(seen.length, 1);
    assert.match(seen[0], /"hash":"sha256:/);
    assert.doesNotMatch(seen[0], /signature/);
    assert.equal(signedText(line, parsed, traceChainFields), seen[0]);
    assert.equal(computeRecordHash(parsed, traceChainFields), parsed.metadata.hash, 'adding the signature did not change the hash');
    assert.equal(lineHashMatches(signedText(line, parsed, traceChainFields), parsed.metadata.hash), true);
  });

  it('scheme 2: the signing note (key, link to the key\'s previous record) is inside the hash and what the signature covers', () => {
    const prev = recordLink(`sha256:${'1'.repeat(64)}`, 'ed25519:00', 'sig-before');
    assert.match(prev, /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(prev, recordLink(`sha256:${'1'.repeat(64)}`, 'ed25519:00', 'sig-bef0re'), 'the link pins the signature bytes');
    const seen: string[] = [];
    const record: Record<string, unknown> = { id: 'r1', files: [], metadata: { kind: 'mutation', prev_signed: true } };
    const line = sealSignedRecord(record, GENESIS_HASH, traceChainFields, 'ed25519:00', (text) => (seen.push(text), { key_id: 'ed25519:00', sig: 'x' }), prev);
    const parsed = JSON.parse(line) as { metadata: Record<string, unknown> & { hash: string } };
    assert.deepEqual(parsed.metadata.signing, { key_id: 'ed25519:00', prev, scheme: 2 });
    assert.equal(parsed.metadata.prev_signed, undefined, 'scheme 1 vouching is not written');
    assert.match(seen[0], /"signing":\{"key_id":"ed25519:00","prev":"sha256:/);
    assert.equal(computeRecordHash(parsed, traceChainFields), parsed.metadata.hash);
    assert.equal(JSON.parse(sealRecord(parsed, GENESIS_HASH, traceChainFields)).metadata.signing, undefined, 'sealRecord drops a stale note');
  });

  it('checks a signed line\'s hash without cutting out its signature first, agreeing with the slow path', () => {
    const sign = () => ({ key_id: 'ed25519:00', sig: 'c2ln' });
    const trace = sealSignedRecord({ id: 'r1', files: [{ path: 'a' }], metadata: { kind: 'mutation' } }, GENESIS_HASH, traceChainFields, 'ed25519:00', sign);
    const governance = sealSignedRecord({ kind: 'governance', code: 'X', zz: 1 }, GENESIS_HASH, governanceChainFields, 'ed25519:00', sign);
    for (const [line, fields] of [[trace, traceChainFields], [governance, governanceChainFields]] as const) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      const holder = fields(parsed) as Record<string, unknown> & { hash: string };
      assert.equal(signedLineHashMatches(line, holder, holder.hash), true);
      assert.equal(lineHashMatches(signedText(line, parsed, fields), holder.hash), true);
      assert.equal(signedLineHashMatches(line.replace('"X"', '"Y"').replace('"a"', '"b"'), holder, holder.hash), false, 'an edit');
      assert.equal(signedLineHashMatches(line, { ...holder, signature: { key_id: 'ed25519:00', sig: 'other' } }, holder.hash), false, 'not its signature: the caller recomputes');
    }
    const unsigned = sealRecord({ kind: 'governance', code: 'X' }, GENESIS_HASH, governanceChainFields);
    assert.equal(signedLineHashMatches(unsigned, JSON.parse(unsigned), (JSON.parse(unsigned) as { hash: string }).hash), true);
  });

  it('re-sealing drops an old signature instead of carrying it to new content', () => {
    const record: Record<string, unknown> = { kind: 'governance', code: 'X', signature: { key_id: 'ed25519:00', sig: 'old' } };
    const parsed = JSON.parse(sealRecord(record, GENESIS_HASH, governanceChainFields)) as Record<string, unknown>;
    assert.equal(parsed.signature, undefined);
  });
});
