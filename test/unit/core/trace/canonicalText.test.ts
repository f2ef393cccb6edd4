import { strict as assert } from 'node:assert';
import { isCanonicalJsonText } from '../../../../src/core/trace/canonicalText';
import { canonicalJson } from '../../../../src/core/trace/traceChain';

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
});
