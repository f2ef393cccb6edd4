import { strict as assert } from 'node:assert';
import { isLowerHexFrom } from '../../../src/core/lowerHex';
import { isKeyId } from '../../../src/core/signing/recordSignature';
import { isChainHash } from '../../../src/core/trace/traceChain';

describe('lowercase hex tails (record hashes and key ids)', () => {
  it('takes 0-9 and a-f only, from the given place to the end, and not an empty tail', () => {
    assert.equal(isLowerHexFrom('x:0123456789abcdef', 2), true);
    for (const bad of ['x:0123456789abcdeF', 'x:01g', 'x:01 ', 'x:', 'x:é1']) assert.equal(isLowerHexFrom(bad, 2), false, bad);
  });

  it('a key id and a chain hash are what their regexes said they are', () => {
    const keyId = `ed25519:${'ab01'.repeat(8)}`;
    const hash = `sha256:${'0f'.repeat(32)}`;
    for (const value of [keyId, `${keyId}0`, keyId.slice(0, -1), keyId.toUpperCase(), keyId.replace('ed25519', 'ed25518'), `${keyId.slice(0, -1)}g`]) {
      assert.equal(isKeyId(value), /^ed25519:[0-9a-f]{32}$/.test(value), value);
    }
    for (const value of [hash, `${hash}0`, hash.slice(0, -1), hash.toUpperCase(), `${hash.slice(0, -1)}\n`, 42]) {
      assert.equal(isChainHash(value), typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value), String(value));
    }
  });
});
