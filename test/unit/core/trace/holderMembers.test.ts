import { strict as assert } from 'node:assert';
import { isCanonicalJsonText, type ValueSpan } from '../../../../src/core/trace/canonicalText';
import { spanMembers } from '../../../../src/core/trace/holderMembers';
import { canonicalJson } from '../../../../src/core/trace/traceChain';

/** The members the canonical scan notes in a plain line's object are what JSON.parse of the whole object gives for them. */
describe('members of a span, found by the canonical scan', () => {
  let seed = 11;
  const random = (below: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
  // Plain strings only (no escape, control character or surrogate), but with every character that could fool a skip.
  const chars = ['a', 'z', '0', '{', '}', '[', ']', ',', ':', ' ', 'é', '-'];
  const string = () => Array.from({ length: random(8) }, () => chars[random(chars.length)]).join('');
  const value = (depth: number): unknown => {
    switch (random(depth > 2 ? 5 : 7)) {
      case 0: return string();
      case 1: return random(2000) - 1000;
      case 2: return random(3) === 0 ? null : random(2) === 0;
      case 3: return random(1e6) / 1000;
      case 4: return '';
      case 5: return Array.from({ length: random(4) }, () => value(depth + 1));
      default: return Object.fromEntries(Array.from({ length: random(4) }, () => [string(), value(depth + 1)]));
    }
  };
  const KEYS = ['hash', 'kind', 'merge', 'signature', 'signing', 'reason', 'prev_signed', ''];

  it('matches JSON.parse on 20,000 random objects, inside a larger line, for keys present, absent and nested', () => {
    let found = 0;
    for (let round = 0; round < 20_000; round += 1) {
      const object: Record<string, unknown> = {};
      for (let k = random(7); k > 0; k -= 1) object[random(2) ? KEYS[random(KEYS.length)] : string()] = value(0);
      const inner = canonicalJson(object);
      const line = `{"a":[1,{"b":"}"}],"metadata":${inner},"z":"{"}`;
      const span: ValueSpan = { key: 'metadata', from: -1, to: -1, members: KEYS, found: [] };
      assert.ok(isCanonicalJsonText(line, undefined, span), line);
      assert.equal(span.plain, true);
      const picked = spanMembers(line, span);
      const expected = Object.fromEntries(Object.entries(JSON.parse(inner) as Record<string, unknown>).filter(([key]) => KEYS.includes(key)));
      assert.deepEqual(picked, expected, inner);
      found += Object.keys(picked).length;
    }
    assert.ok(found > 20_000, `only ${found} members picked in all`);
  });
});
