import { strict as assert } from 'node:assert';
import { chainMembers, checkLine, type CheckedLine } from '../../../../src/core/trace/lineChecks';
import { GENESIS_HASH, sealRecord, traceChainFields, type ChainFields } from '../../../../src/core/trace/traceChain';

/**
 * An Agent Trace line the scan proves canonical has only its holder parsed. The same layout under another
 * function takes the full path (JSON.parse of the whole line), so the two must judge every line alike.
 */
describe('checkLine on Agent Trace lines', () => {
  const fullPath: ChainFields = (record) => traceChainFields(record);
  // The full path keeps the whole holder; what verify reads of it are the chain members.
  const judged = (checked: CheckedLine) => {
    const { record: _record, ...rest } = checked;
    return { ...rest, holder: chainMembers(rest.holder) };
  };
  const sign = () => ({ key_id: 'ed25519:00000000000000000000000000000000', sig: 'c2ln' });

  function lines(): string[] {
    const out: string[] = [];
    let prev = GENESIS_HASH;
    for (let i = 0; i < 6; i += 1) {
      const record = { files: [{ path: `src/f${i}.ts`, ranges: [{ start_line: 1, end_line: i + 2 }] }], id: `r${i}`, metadata: { intent_id: 'INT-1', metadata: { nested: i } } };
      const line = sealRecord(record, prev, traceChainFields, i % 2 ? sign : undefined);
      prev = (JSON.parse(line) as { metadata: { hash: string } }).metadata.hash;
      out.push(line);
    }
    return out;
  }

  it('judges a mutated line as the full path does: problem, chain fields, holder, canonical, hash', () => {
    const alphabet = ['"', ',', ':', '{', '}', '[', ']', ' ', '\\', '0', '1', 'a', 'f', '\u0001'];
    let seed = 3;
    const random = (below: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
    const seen = { fast: 0, problem: 0, edited: 0, notCanonical: 0 };
    for (const original of lines()) {
      for (let i = 0; i < 3000; i += 1) {
        let text = original;
        // Mostly one edit, where most land inside strings and keep the line valid JSON.
        for (let edits = random(4) === 0 ? 2 : 1; edits > 0; edits -= 1) {
          const at = random(text.length);
          const char = alphabet[random(alphabet.length)];
          text = random(2) ? text.slice(0, at) + char + text.slice(at + 1) : text.slice(0, at) + text.slice(at + 1);
        }
        if (i === 0) text = original;
        const line = { line: 1, offset: 0, bytes: text.length, complete: true, text };
        const fast = checkLine(line, traceChainFields);
        const full = checkLine(line, fullPath);
        assert.deepEqual(judged(fast), judged(full), text);
        if (fast.record === undefined) seen.fast += 1;
        if (full.problem) seen.problem += 1;
        else if (!full.canonical) seen.notCanonical += 1;
        else if (!full.hashMatches) seen.edited += 1;
      }
    }
    // Every kind of line came up: the comparison is not of one kind only.
    for (const [kind, count] of Object.entries(seen)) assert.ok(count > 50, `${kind}: ${count}`);
  });

  it('reads only the chain members of a canonical line’s holder; the record is read from the text when asked for', () => {
    const [, text] = lines();
    const checked = checkLine({ line: 1, offset: 0, bytes: text.length, complete: true, text }, traceChainFields);
    assert.equal(checked.record, undefined);
    const metadata = (JSON.parse(text) as { metadata: Record<string, unknown> }).metadata;
    assert.deepEqual(Object.keys(checked.holder).sort(), ['hash', 'prev_hash', 'signature']);
    assert.deepEqual(checked.holder, chainMembers(metadata));
    assert.equal(checked.text, text);
    assert.deepEqual([checked.canonical, checked.hashMatches], [true, true]);
  });
});
