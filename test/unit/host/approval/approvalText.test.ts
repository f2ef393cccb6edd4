import { strict as assert } from 'node:assert';
import { createTwoFilesPatch } from 'diff';
import { DIFF_PREVIEW_LINES, diffPreview } from '../../../../src/host/approval/approvalText';
import { APPROVE, ModalApprover } from '../../../../src/host/approval/modalApprover';
import { createHarness } from '../../../support/governorHarness';

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

describe('approval modal: change class', () => {
  const SESSION = "export function isExpired(token: string, now: number): boolean {\n  const parts = token.split(':');\n  return Number(parts[1]) < now;\n}\n";

  /** A real governed edit with approval every-change; returns the modal's detail text as the human sees it. */
  async function modalFor(search: string, replace: string): Promise<string> {
    const h = await createHarness({ files: { 'src/auth/session.ts': SESSION }, policy: { approval: 'every-change' } });
    try {
      await h.bound('read_file', { path: 'src/auth/session.ts' });
      h.approver.script(true);
      const result = await h.call('edit_file', { path: 'src/auth/session.ts', edits: [{ search, replace }] });
      assert.ok(result.ok, result.ok ? '' : result.error.message);
      const shown: string[] = [];
      const modal = new ModalApprover(
        {
          async modal(_title, detail) {
            shown.push(detail);
            return APPROVE;
          },
          async openDiff() {},
          notice() {},
        },
        'tester',
      );
      await modal.approve(h.approver.requests[0]);
      return shown[0];
    } finally {
      await h.dispose();
    }
  }

  it('names a rename a refactoring, with the rule that decided', async () => {
    const detail = await modalFor("const parts = token.split(':');\n  return Number(parts[1])", "const fields = token.split(':');\n  return Number(fields[1])");
    assert.match(detail, /^Mutation: edit$/m);
    assert.match(detail, /^Class: AST_REFACTOR \(syntax-tree: the same exports and signatures; .*\)$/m);
  });

  it('names a new branch an evolution, and what changed', async () => {
    const detail = await modalFor("split(':');\n", "split(':');\n  if (parts.length !== 3) return true;\n");
    assert.match(detail, /^Class: INTENT_EVOLUTION \(syntax-tree: changes `isExpired`\)$/m);
  });
});
