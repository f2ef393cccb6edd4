import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { changedRanges, hashLines, splitLines } from '../../../../src/core/trace/ranges';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('ranges', () => {
  it('covers a whole new file, 1-based and inclusive', () => {
    assert.deepEqual(changedRanges(undefined, 'a\nb\nc\n'), [{ start_line: 1, end_line: 3, content_hash: sha('a\nb\nc') }]);
  });

  it('reports only the changed and added lines of an edit, as separate runs', () => {
    const ranges = changedRanges('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\ne\nf\ng\n');
    assert.deepEqual(
      ranges.map((r) => [r.start_line, r.end_line]),
      [
        [2, 2],
        [6, 7],
      ],
    );
    assert.equal(ranges[1].content_hash, sha('f\ng'));
  });

  it('leaves no range for a pure deletion, since no new line carries it', () => {
    assert.deepEqual(changedRanges('a\nb\nc\n', 'a\nc\n'), []);
  });

  it('hashes CRLF and CR content the same as LF content', () => {
    const lf = changedRanges(undefined, 'x\ny\n');
    assert.deepEqual(changedRanges(undefined, 'x\r\ny\r\n'), lf);
    assert.deepEqual(changedRanges(undefined, 'x\ry\r'), lf);
    assert.deepEqual(changedRanges('x\r\n', 'x\r\nz\r\n'), [{ start_line: 2, end_line: 2, content_hash: sha('z') }]);
  });

  it('counts a last line without a newline as a line', () => {
    assert.deepEqual(splitLines('a\nb'), ['a', 'b']);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(changedRanges('a\nb', 'a\nb\n').map((r) => [r.start_line, r.end_line]), [[2, 2]]);
  });

  it('hashes a range as its lines joined with LF', () => {
    assert.equal(hashLines(['one', 'two']), sha('one\ntwo'));
  });

  it('falls back to the whole file for a rewrite too large to diff', () => {
    const before = Array.from({ length: 12000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 12000 }, (_, i) => `new ${i}`).join('\n');
    assert.deepEqual(changedRanges(before, after).map((r) => [r.start_line, r.end_line]), [[1, 12000]]);
  });
});
