import { strict as assert } from 'node:assert';
import { packCheckedLines, unpackCheckedLines } from '../../../../src/core/trace/checkedLineBatch';
import type { CheckedLine } from '../../../../src/core/trace/lineChecks';

/** A worker's batch travels as columns: unpacked, it is the checked lines it packed, field for field. */
describe('checked lines packed for the trip from a worker', () => {
  let seed = 5;
  const random = (below: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
  const pick = <T>(items: readonly T[]): T => items[random(items.length)];
  const hash = () => `sha256:${random(1e9).toString(16).padStart(64, '0')}`;
  const key = 'ed25519:0123456789abcdef0123456789abcdef';
  // Usual shapes, and each way a holder can fall outside them (sent whole).
  const signatures = [undefined, { key_id: key, sig: 'c2ln' }, { key_id: key, sig: 'c2ln', extra: 1 }, { key_id: key }, 'junk', { key_id: 7, sig: 's' }, null, [key]];
  const signings = [undefined, { key_id: key, scheme: 2 }, { key_id: key, scheme: 2, prev: hash() }, { key_id: key, scheme: '2' }, { key_id: key, scheme: 2, prev: 5 }, { scheme: 2 }, {}];
  const kinds = [undefined, 'mutation', 'discontinuity', 3];

  function line(): CheckedLine {
    if (random(10) === 0) return { line: 0, offset: random(1e6), bytes: random(2000), complete: random(2) === 0, problem: 'the line is not valid JSON', hash: '', prev: '', holder: {}, canonical: false, hashMatches: false };
    const own = hash();
    const prev = hash();
    const holder: Record<string, unknown> = { hash: random(20) ? own : hash(), prev_hash: random(20) ? prev : 'x' };
    const kind = random(3) ? pick(kinds.slice(0, 3)) : pick(kinds);
    if (kind !== undefined) holder.kind = kind;
    const signature = random(3) ? pick(signatures.slice(0, 2)) : pick(signatures);
    if (signature !== undefined) holder.signature = signature;
    const signing = random(3) ? pick(signings.slice(0, 3)) : pick(signings);
    if (signing !== undefined) holder.signing = signing;
    if (random(15) === 0) holder.reason = 'moved';
    if (random(15) === 0) holder.merge = { heads: [hash()] };
    if (random(15) === 0) holder.prev_signed = true;
    const checked: CheckedLine = { line: 0, offset: random(1e6), bytes: random(2000), complete: true, hash: own, prev, holder, canonical: random(8) !== 0, hashMatches: random(8) !== 0 };
    if (random(6) === 0) checked.text = `{"line":${random(100)}}`;
    if (random(2) === 0) checked.link = hash();
    return checked;
  }

  it('gives back 20,000 random lines exactly, usual holders and odd ones alike', () => {
    const lines = Array.from({ length: 20_000 }, line);
    const back: CheckedLine[] = [];
    for (let i = 0; i < lines.length; i += 500) back.push(...unpackCheckedLines(structuredClone(packCheckedLines(lines.slice(i, i + 500)))));
    assert.deepEqual(back, lines);
    const usual = lines.filter((checked) => packCheckedLines([checked]).holders.length === 0).length;
    assert.ok(usual > 4_000 && usual < 16_000, `${usual} of 20,000 holders in columns: not a mix`);
  });
});
