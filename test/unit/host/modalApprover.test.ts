import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../src/core/hooks/approver';
import { APPROVE, APPROVE_EXPANSION, ModalApprover, OPEN_DIFF, REJECT, type ApprovalDialogs } from '../../../src/host/modalApprover';

const destructive: ApprovalRequest = {
  kind: 'destructive',
  title: 'Allow claude-code to delete src/auth/old.ts?',
  intent_id: 'auth-refactor',
  tool: 'delete_file',
  files: ['src/auth/old.ts'],
  risk: 'high',
  mutation_class: 'delete',
  reasons: ['Deletes src/auth/old.ts'],
  diff: '--- a/src/auth/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
};

const expansion: ApprovalRequest = {
  kind: 'scope_expansion',
  title: "Expand the scope of intent 'auth-refactor'?",
  intent_id: 'auth-refactor',
  tool: 'request_scope_expansion',
  files: [],
  risk: 'medium',
  mutation_class: 'scope',
  reasons: ['claude-code asks to add docs/auth/** to the owned scope'],
  globs: ['docs/auth/**'],
  agent_reason: 'document the new token store',
};

/** Dialogs that answer from a script and record what was shown. */
function scriptedDialogs(answers: (string | undefined)[]) {
  const shown: { title: string; detail: string; buttons: string[] }[] = [];
  const diffs: ApprovalRequest[] = [];
  const dialogs: ApprovalDialogs = {
    async modal(title, detail, buttons) {
      shown.push({ title, detail, buttons });
      return answers.shift();
    },
    async openDiff(request) {
      diffs.push(request);
    },
  };
  return { dialogs, shown, diffs };
}

describe('ModalApprover', () => {
  it('approves when the human clicks Approve, naming the OS user as the approver', async () => {
    const { dialogs, shown } = scriptedDialogs([APPROVE]);
    const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
    assert.deepEqual(decision, { approved: true, approver: 'modal:alice' });
    assert.deepEqual(shown[0].buttons, [APPROVE, OPEN_DIFF, REJECT]);
    assert.equal(shown[0].title, destructive.title);
    for (const part of ['Intent: auth-refactor', 'Tool: delete_file', 'Files: src/auth/old.ts', 'Risk: high', 'Mutation: delete', 'Deletes src/auth/old.ts', '-x']) {
      assert.ok(shown[0].detail.includes(part), `detail lacks ${part}:\n${shown[0].detail}`);
    }
  });

  it('treats Reject and a dismissed modal as a rejection', async () => {
    for (const answer of [REJECT, undefined]) {
      const { dialogs } = scriptedDialogs([answer]);
      const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
      assert.equal(decision.approved, false);
      assert.equal(decision.approver, 'modal:alice');
    }
  });

  it('opens the diff and asks again after Open Diff…', async () => {
    const { dialogs, shown, diffs } = scriptedDialogs([OPEN_DIFF, OPEN_DIFF, APPROVE]);
    const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
    assert.equal(decision.approved, true);
    assert.equal(shown.length, 3);
    assert.deepEqual(diffs, [destructive, destructive]);
  });

  it('asks again even when the diff cannot be opened', async () => {
    const { dialogs, shown } = scriptedDialogs([OPEN_DIFF, REJECT]);
    dialogs.openDiff = async () => {
      throw new Error('no editor');
    };
    const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
    assert.equal(decision.approved, false);
    assert.equal(shown.length, 2);
  });

  it('offers no Open Diff… when there is no diff (commands)', async () => {
    const { dialogs, shown } = scriptedDialogs([APPROVE]);
    await new ModalApprover(dialogs, 'alice').approve({ ...destructive, diff: undefined, command: 'rm -rf build', tool: 'run_command' });
    assert.deepEqual(shown[0].buttons, [APPROVE, REJECT]);
    assert.ok(shown[0].detail.includes('Command: rm -rf build'));
  });

  it('asks scope expansions with their own buttons, globs and the agent reason', async () => {
    const { dialogs, shown } = scriptedDialogs([APPROVE_EXPANSION]);
    const decision = await new ModalApprover(dialogs, 'alice').approve(expansion);
    assert.equal(decision.approved, true);
    assert.deepEqual(shown[0].buttons, [APPROVE_EXPANSION, REJECT]);
    assert.ok(shown[0].detail.includes('docs/auth/**'));
    assert.ok(shown[0].detail.includes('document the new token store'));
    const { dialogs: again } = scriptedDialogs([APPROVE]); // the destructive button does not approve an expansion
    assert.equal((await new ModalApprover(again, 'alice').approve(expansion)).approved, false);
  });

  it('shows one modal at a time, first come first served', async () => {
    const order: string[] = [];
    let open = 0;
    const release: (() => void)[] = [];
    const dialogs: ApprovalDialogs = {
      async modal(title) {
        open += 1;
        assert.equal(open, 1, 'two modals were open at once');
        order.push(title);
        await new Promise<void>((resolve) => release.push(resolve));
        open -= 1;
        return title === 'second' ? REJECT : APPROVE;
      },
      async openDiff() {},
    };
    const approver = new ModalApprover(dialogs, 'alice');
    const answers = ['first', 'second', 'third'].map((title) => approver.approve({ ...destructive, title }));
    for (let i = 0; i < 3; i++) {
      while (release.length === 0) await new Promise((resolve) => setImmediate(resolve));
      release.shift()!();
    }
    const decisions = await Promise.all(answers);
    assert.deepEqual(order, ['first', 'second', 'third']);
    assert.deepEqual(decisions.map((d) => d.approved), [true, false, true]);
  });

  it('keeps serving the queue after a dialog fails', async () => {
    let calls = 0;
    const dialogs: ApprovalDialogs = {
      async modal() {
        calls += 1;
        if (calls === 1) throw new Error('window closed');
        return APPROVE;
      },
      async openDiff() {},
    };
    const approver = new ModalApprover(dialogs, 'alice');
    await assert.rejects(approver.approve(destructive));
    assert.equal((await approver.approve(destructive)).approved, true);
  });
});
