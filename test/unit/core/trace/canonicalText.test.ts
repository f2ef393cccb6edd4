import { strict as assert } from 'node:assert';
import { isCanonicalJsonText } from '../../../../src/core/trace/canonicalText';
import { canonicalJson, GENESIS_HASH, sealRecord, signedLineHashMatches, traceChainFields } from '../../../../src/core/trace/traceChain';

describe('isCanonicalJsonText', () => {
  it('answers as canonicalJson(JSON.parse(text)) === text does, for every shape a line can take', () => {
    const texts = [
      '{"a":1,"b":[1,{"c":null,"d":true,"e":false}],"f":"x\\"y\\\\z"}',
      '{"10":1,"9":2}',
      '{"a":{"b":1},"a2":2}',
      '{"a":"\\u001f","b":"é","c":"\\n"}',
      '[{"b":1},{"a":2}]',
      '{"a":1,"a":1}',
      '{"a":1,"a":2}',
      '{"b":1,"a":1}',
      '{"a": 1}',
      ' {"a":1}',
      '{"a":1.0}',
      '{"a":1e3}',
      '{"a":-0}',
      '{"a":12345678901234567890}',
      '{"a":"\\u0041"}',
      '{"a":"\\/"}',
      '{"\\u0062":1,"a":2}',
      '{"a":1,"\\u0062":2}',
      '{"x":{"b":1,"a":2}}',
    ];
    for (const text of texts) assert.equal(isCanonicalJsonText(text), canonicalJson(JSON.parse(text)) === text, text);
  });

  it('agrees with canonicalJson on random records, canonical or with their keys shuffled', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return [1, -2.5, 'a"b', 'ü\\', null, true, 'k:v,'][Math.floor(random() * 7)];
      if (r < 0.5) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, () => [`k${Math.floor(random() * 6)}`, value(depth + 1)]));
    };
    for (let i = 0; i < 500; i += 1) {
      const v = value(0);
      const text = JSON.stringify(v);
      assert.equal(isCanonicalJsonText(text), canonicalJson(v) === text, text);
      assert.equal(isCanonicalJsonText(canonicalJson(v)), true);
    }
  });

  it('refuses duplicate keys, reordered keys, whitespace, needless escapes and numbers JSON.stringify would write otherwise', () => {
    const refused = [
      '{"a":1,"a":1}', // a repeated key, even with the same value
      '{"b":{"x":1,"x":2},"c":1}', // repeated inside a nested object
      '{"a":1,"c":2,"b":3}', // out of order
      '{"ab":1,"a":2}', // a prefix sorts first
      '{"a":1,\t"b":2}',
      '{"a":[1, 2]}',
      '{"a":1}\n',
      '{"a":"\\u0041"}', // an escape JSON.stringify does not write
      '{"a":"\\/"}',
      '{"a":"x\\u00e9"}',
      '{"a":1.50}',
      '{"a":1E3}',
      '{"a":-0.0}',
      '{"a":1000000000000000000000}', // written 1e+21
    ];
    for (const text of refused) {
      assert.notEqual(canonicalJson(JSON.parse(text)), text, `not canonical: ${text}`);
      assert.equal(isCanonicalJsonText(text), false, text);
    }
    const accepted = ['{"a":"x\\"y\\\\","b":"\\n\\u001f\\ud800","c":-1.5,"d":1e+21,"e":[true,false,null,{}]}', '{"a":"é","b":0,"c":-12}', '{"A":1,"_":2,"a":3}'];
    for (const text of accepted) assert.equal(isCanonicalJsonText(text), true, text);
  });

  it('notes where the holder\'s hash and signature keys start, so the hash check finds both pairs without searching', () => {
    const record: Record<string, unknown> = { files: [{ path: 'a.ts', hash: 'nested', signature: 'nested' }], metadata: { kind: 'mutation' } };
    const line = sealRecord(record, GENESIS_HASH, traceChainFields, () => ({ key_id: 'ed25519:00000000000000000000000000000000', sig: 'c2ln' }));
    const keys = { hash: -1, signature: -1 };
    assert.equal(isCanonicalJsonText(line, keys), true);
    assert.equal(line.startsWith('"hash":"sha256:', keys.hash), true);
    assert.equal(line.startsWith('"signature":{"key_id"', keys.signature), true);
    const holder = (JSON.parse(line) as { metadata: Record<string, unknown> }).metadata;
    assert.equal(signedLineHashMatches(line, holder, holder.hash as string, keys), true);
    // A wrong hint is only a hint: the pairs are then searched for, and an edit still fails.
    assert.equal(signedLineHashMatches(line, holder, holder.hash as string, { hash: 3, signature: 5 }), true);
    assert.equal(signedLineHashMatches(line.replace('"a.ts"', '"b.ts"'), holder, holder.hash as string, keys), false);
  });
});
