import { strict as assert } from 'node:assert';
import {
  canonicalJson,
  computeRecordHash,
  GENESIS_HASH,
  governanceChainFields,
  lineHashMatches,
  sealRecord,
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

  it('re-sealing drops an old signature instead of carrying it to new content', () => {
    const record: Record<string, unknown> = { kind: 'governance', code: 'X', signature: { key_id: 'ed25519:00', sig: 'old' } };
    const parsed = JSON.parse(sealRecord(record, GENESIS_HASH, governanceChainFields)) as Record<string, unknown>;
    assert.equal(parsed.signature, undefined);
  });
});
