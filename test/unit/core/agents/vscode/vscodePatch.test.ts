import { strict as assert } from 'node:assert';
import { readVscodePatch } from '../../../../../src/core/agents/vscode/vscodePatch';

describe('readVscodePatch (VS Code apply_patch)', () => {
  it('reads the example VS Code gives its model: "@@class" context lines with no space, several in a row', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: /Users/someone/pygorithm/searching/binary_search.py',
      '@@class BaseClass',
      '@@    def search():',
      '-        pass',
      '+        raise NotImplementedError()',
      '',
      '@@class Subclass',
      '@@    def search():',
      '-        pass',
      '+        raise NotImplementedError()',
      '',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(readVscodePatch(patch), { ok: true, files: [{ kind: 'update', path: '/Users/someone/pygorithm/searching/binary_search.py' }] });
  });

  it('reads added files with their exact lines, deletions, updates, moves and "*** End of File", in order', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: /w/a.ts',
      '+export const a = 1;',
      '+',
      '*** Delete File: /w/old.ts',
      '*** Update File: /w/b.ts',
      '*** Move to: /w/c.ts',
      '@@',
      '-x',
      '+y',
      '*** End of File',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(readVscodePatch(patch), {
      ok: true,
      files: [
        { kind: 'add', path: '/w/a.ts', content: 'export const a = 1;\n' },
        { kind: 'delete', path: '/w/old.ts' },
        { kind: 'update', path: '/w/b.ts', moveTo: '/w/c.ts' },
      ],
    });
  });

  it('takes a patch without its "*** End Patch" line and with CRLF line ends, as VS Code does', () => {
    // Lines are split on "\n" only, so an added file keeps its "\r\n" line ends; the header's path loses its "\r".
    assert.deepEqual(readVscodePatch('*** Begin Patch\r\n*** Add File: /w/a.ts\r\n+a\r\n+b\r\n'), { ok: true, files: [{ kind: 'add', path: '/w/a.ts', content: 'a\r\nb' }] });
  });

  it('refuses what VS Code would refuse: no Begin line, an unknown line, an added line without "+", a file named twice, no file', () => {
    const cases: [string, RegExp][] = [
      ['*** Update File: /w/a.ts\n*** End Patch', /does not start with '\*\*\* Begin Patch'/],
      ["<<'EOF'\n*** Begin Patch\n*** Add File: /w/a.ts\n+a\n*** End Patch\nEOF", /does not start with/],
      ['*** Begin Patch\nhello\n*** End Patch', /'hello' is not a file header/],
      ['*** Begin Patch\n*** Add File: /w/a.ts\nhello\n*** End Patch', /'hello' in the new file \/w\/a\.ts does not start with '\+'/],
      ['*** Begin Patch\n*** Add File: /w/a.ts\n+a\n*** Update File: /w/a.ts\n@@\n-a\n+b\n*** End Patch', /names \/w\/a\.ts twice/],
      ['*** Begin Patch\n*** Update File: \n*** End Patch', /names no file/],
      ['*** Begin Patch\n*** End Patch', /changes no file/],
    ];
    for (const [text, message] of cases) {
      const read = readVscodePatch(text);
      assert.equal(read.ok, false, text);
      assert.match((read as { message: string }).message, message, text);
    }
  });

  it('refuses a "***" line inside hunks (a misplaced move or a header it does not know), never skipping it', () => {
    const read = readVscodePatch('*** Begin Patch\n*** Update File: /w/a.ts\n@@\n-a\n+b\n*** Move to: /w/elsewhere.ts\n*** End Patch');
    assert.equal(read.ok, false);
    assert.match((read as { message: string }).message, /is not a line of a hunk \(in the update of \/w\/a\.ts\)/);
  });
});
