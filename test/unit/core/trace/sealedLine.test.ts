import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { canonicalJson, governanceChainFields, sealRecord, sealSignedRecord, SIGNATURE_KEY, traceChainFields, type ChainFields } from '../../../../src/core/trace/traceChain';

/** Sealing as the chain defines it, serialising the whole record each time: what the writer's lines must equal byte for byte. */
function sealByDefinition(record: Record<string, unknown>, prevHash: string, fields: ChainFields, sign?: (text: string) => unknown): string {
  const holder = fields(record) as Record<string, unknown>;
  delete holder.hash;
  delete holder[SIGNATURE_KEY];
  holder.prev_hash = prevHash;
  holder.hash = `sha256:${createHash('sha256').update(canonicalJson(record)).digest('hex')}`;
  const line = canonicalJson(record);
  if (!sign) return line;
  holder[SIGNATURE_KEY] = sign(line);
  return canonicalJson(record);
}

let seed = 11;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

const KEYS = ['id', 'files', 'metadata', 'hash', 'prev_hash', 'signing', 'a', 'Z', 'é', 'ü', '_x', 'tool', 'version', 'vcs', 'zz', '10', '9', ''];
function value(depth: number): unknown {
  switch (random(depth > 2 ? 5 : 8)) {
    case 0: return random(1000) - 500;
    case 1: return ['text', 'é "quoted" \\ \n', '', '\u2028', 'sha256:ab'][random(5)];
    case 2: return random(2) === 0;
    case 3: return null;
    case 4: return undefined;
    case 5: return Array.from({ length: random(4) }, () => value(depth + 1));
    default: return object(depth + 1);
  }
}
function object(depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = random(6); i > 0; i--) out[KEYS[random(KEYS.length)]] = value(depth);
  return out;
}

describe('sealing a record serialises it once', () => {
  const sign = (text: string) => ({ key_id: 'k1', sig: createHash('sha256').update(text).digest('base64') });
  for (const [name, fields, make] of [
    ['trace records (chain fields in metadata)', traceChainFields, () => ({ ...object(0), metadata: object(1) })],
    ['governance records (chain fields in the record)', governanceChainFields, () => object(0)],
  ] as const) {
    it(`gives the same line as the chain's definition for 3,000 random ${name}, signed or not`, () => {
      for (let i = 0; i < 3_000; i++) {
        const record = make() as Record<string, unknown>;
        const prev = `sha256:${i}`;
        const mode = i % 3;
        const expected = structuredClone(record);
        const actual = structuredClone(record);
        let want: string;
        let got: string;
        if (mode !== 2) {
          // sealRecord drops any signing note of an earlier seal.
          delete (fields(expected) as Record<string, unknown>).signing;
          delete (fields(expected) as Record<string, unknown>).prev_signed;
        }
        if (mode === 0) {
          want = sealByDefinition(expected, prev, fields);
          got = sealRecord(actual, prev, fields);
        } else if (mode === 1) {
          want = sealByDefinition(expected, prev, fields, sign);
          got = sealRecord(actual, prev, fields, sign);
        } else {
          const holder = fields(expected) as Record<string, unknown>;
          delete holder.prev_signed;
          holder.signing = { key_id: 'k1', scheme: 2, prev: 'link' };
          want = sealByDefinition(expected, prev, fields, sign);
          got = sealSignedRecord(actual, prev, fields, 'k1', sign, 'link');
        }
        assert.equal(got, want, JSON.stringify(record));
        assert.equal(JSON.stringify(actual), JSON.stringify(expected), 'the record holds the same chain fields');
      }
    });
  }
});
