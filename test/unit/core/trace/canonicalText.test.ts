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

  it('refuses what is not JSON at all, so a true answer needs no JSON.parse of the line', () => {
    const invalid = [
      '', '{', '}', '"', '{"a":1,}', '{,"a":1}', '[1,,2]', '[,1]', '[1,]', '{"a" 1}', '{"a"1}', '{"a":1}{}', '{"a":1}x', '{"a":1}]',
      '{"a":tru}', '{"a":trux}', '{"a":nul}', '{"a":fals}', '{"a":01}', '{"a":00}', '{"a":-}', '{"a":1.}', '{"a":.5}', '{"a":1e}',
      '{"a":1]', '[1}', '{"a"}', '{"a":}', '{1:2}', '{"a":"x', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\', '{"a":"\u0001"}',
      '{"a":"x"y"}', '{"a"::1}', '{:1}', '{"a":1:2}', '[1:2]', '{"a":[}', '{"a":{]}', 'truex', 'nul', '{"a":NaN}', '{"a":Infinity}',
      '{"a":1,"b"}', '{"a":[1 2]}', '{"a":\\u0031}',
    ];
    for (const text of invalid) {
      assert.throws(() => JSON.parse(text), `${text} is valid JSON after all`);
      assert.equal(isCanonicalJsonText(text), false, text);
    }
  });

  it('never calls a mutated line canonical unless JSON.parse reads it and re-serialises it byte for byte', () => {
    const line = sealRecord(
      { files: [{ path: 'src/a.ts', ranges: [{ start_line: 1, end_line: 12 }] }], id: 'r1', metadata: { intent_id: 'INT-1', ok: true, none: null, n: -1.5 }, vcs: { revision: 'abc' } },
      GENESIS_HASH,
      traceChainFields,
      () => ({ key_id: 'ed25519:00000000000000000000000000000000', sig: 'c2ln' }),
    );
    const alphabet = ['"', ',', ':', '{', '}', '[', ']', ' ', '\\', '0', '1', '-', '.', 'e', 'a', 't', 'n', 'u', '\u0001', 'é', '\ud800'];
    let seed = 11;
    const random = (below: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
    let accepted = 0;
    for (let i = 0; i < 20_000; i += 1) {
      let text = line;
      for (let edits = 1 + random(3); edits > 0; edits -= 1) {
        const at = random(text.length + 1);
        const kind = random(3);
        const char = alphabet[random(alphabet.length)];
        text = kind === 0 ? text.slice(0, at) + text.slice(at + 1) : kind === 1 ? text.slice(0, at) + char + text.slice(at) : text.slice(0, at) + char + text.slice(at + 1);
      }
      let reference: boolean;
      try {
        reference = canonicalJson(JSON.parse(text)) === text;
      } catch {
        reference = false;
      }
      const span = { key: 'metadata', from: -1, to: -1 };
      assert.equal(isCanonicalJsonText(text, undefined, span), reference, text);
      if (!reference) continue;
      accepted += 1;
      const metadata = (JSON.parse(text) as { metadata?: unknown }).metadata;
      if (span.from >= 0) assert.deepEqual(JSON.parse(text.slice(span.from, span.to)), metadata, text);
      else assert.equal(metadata === undefined || /\\|[\ud800-\udfff]/.test(text), true, text);
    }
    // Edits that keep a line canonical (a digit for a digit, a letter inside a string) are checked too.
    assert.ok(accepted > 500, `only ${accepted} mutated lines were canonical`);
  });

  it('says where the value of the named top-level key lies, and nothing for a nested key of that name', () => {
    const span = { key: 'metadata', from: -1, to: -1 };
    const text = '{"a":{"metadata":1},"metadata":{"hash":"x","n":[1,{"b":2}]},"z":3}';
    assert.equal(isCanonicalJsonText(text, undefined, span), true);
    assert.equal(text.slice(span.from, span.to), '{"hash":"x","n":[1,{"b":2}]}');
    assert.equal(isCanonicalJsonText('{"metadata":"last"}', undefined, span), true);
    assert.equal(text.length > 0 && '{"metadata":"last"}'.slice(span.from, span.to), '"last"');
    assert.equal(isCanonicalJsonText('{"a":{"metadata":1}}', undefined, span), true);
    assert.deepEqual([span.from, span.to], [-1, -1]);
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
