import { strict as assert } from 'node:assert';
import { parseCodexPatch, type PatchOperation } from '../../../../../src/core/agents/common/applyPatch';

function operations(text: string): PatchOperation[] {
  const parsed = parseCodexPatch(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.ok ? parsed.operations : [];
}

function failure(text: string): string {
  const parsed = parseCodexPatch(text);
  assert.equal(parsed.ok, false, JSON.stringify(parsed));
  return parsed.ok ? '' : parsed.message;
}

describe("Codex's apply_patch format", () => {
  it('reads every file a patch touches: an added file with its content, a deletion, an update with its chunks and a move', () => {
    const text = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const a = 1;',
      '+',
      '*** Delete File: old.txt',
      '*** Update File: src/app.ts',
      '*** Move to: src/main.ts',
      '@@ function main() {',
      ' const x = 1;',
      '-const y = 2;',
      '+const y = 3;',
      '@@',
      '-last',
      '+final',
      '*** End of File',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(operations(text), [
      { kind: 'add', path: 'src/new.ts', content: 'export const a = 1;\n\n' },
      { kind: 'delete', path: 'old.txt' },
      {
        kind: 'update',
        path: 'src/app.ts',
        moveTo: 'src/main.ts',
        chunks: [
          { context: 'function main() {', oldLines: ['const x = 1;', 'const y = 2;'], newLines: ['const x = 1;', 'const y = 3;'], endOfFile: false },
          { oldLines: ['last'], newLines: ['final'], endOfFile: true },
        ],
      },
    ]);
  });

  it('reads a patch as Codex does: a heredoc wrapper, surrounding whitespace, a first chunk without "@@", and an empty line as empty context', () => {
    const text = `  <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n line1\n\n-line2\n+line2 changed\n*** End Patch\nEOF\n`;
    assert.deepEqual(operations(text), [{ kind: 'update', path: 'a.txt', chunks: [{ oldLines: ['line1', '', 'line2'], newLines: ['line1', '', 'line2 changed'], endOfFile: false }] }]);
  });

  it('says what is wrong with a text that is not a patch', () => {
    assert.match(failure('echo hi'), /does not start with '\*\*\* Begin Patch'/);
    assert.match(failure('*** Begin Patch\n*** Add File: a\n+x\n'), /does not end with '\*\*\* End Patch'/);
    assert.match(failure('*** Begin Patch\n*** Rename File: a\n*** End Patch'), /'\*\*\* Rename File: a' is not a valid hunk header/);
    assert.match(failure('*** Begin Patch\n*** Update File: a.txt\n*** End Patch'), /the update of a\.txt has no changes/);
    assert.match(failure('*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n@@\nnot a change line\n*** End Patch'), /'not a change line' is not a change line/);
  });
});
