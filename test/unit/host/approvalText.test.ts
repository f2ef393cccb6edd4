import { strict as assert } from 'node:assert';
import { createTwoFilesPatch } from 'diff';
import { DIFF_PREVIEW_LINES, diffPreview } from '../../../src/host/approvalText';

describe('approval modal text', () => {
  it('previews the first lines of the diff and says how many more there are', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 40 }, (_, i) => `LINE ${i}`).join('\n');
    const preview = diffPreview(createTwoFilesPatch('a/x.ts', 'b/x.ts', before, after));
    assert.equal(preview.length, DIFF_PREVIEW_LINES + 1);
    assert.ok(preview[0].startsWith('--- a/x.ts'), 'starts at the file header, not the Index/==== banner');
    assert.match(preview[DIFF_PREVIEW_LINES], /^… \d+ more lines \(Open Diff… shows the whole change\)$/);
  });

  it('shows a short diff whole', () => {
    const preview = diffPreview(createTwoFilesPatch('a/x.ts', 'b/x.ts', 'a\n', 'b\n'));
    assert.deepEqual(preview.slice(-2), ['-a', '+b']);
  });
});
