import { strict as assert } from 'node:assert';
import type { ApprovalRequest } from '../../../../src/core/approval/approver';
import { APPROVE, APPROVE_EXPANSION, approvalButtons, APPROVE_FOR_SESSION, MAX_DIFF_CHARS, MAX_WAITING, ModalApprover, OPEN_DIFF, REJECT, type ApprovalDialogs } from '../../../../src/host/approval/modalApprover';

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
    notice() {},
  };
  return { dialogs, shown, diffs };
}

/** Dialogs whose modals stay open until the test clicks a button for them, in the order they were shown. */
function heldDialogs() {
  const shown: string[] = [];
  const notices: string[] = [];
  const open: ((choice: string | undefined) => void)[] = [];
  const dialogs: ApprovalDialogs = {
    modal(title) {
      shown.push(title);
      return new Promise((resolve) => open.push(resolve));
    },
    async openDiff() {},
    notice(message) {
      notices.push(message);
    },
  };
  /** Clicks `choice` on the modal on screen (waits for it to be shown). */
  const click = async (choice: string | undefined) => {
    while (open.length === 0) await new Promise((resolve) => setImmediate(resolve));
    open.shift()!(choice);
  };
  const onScreen = async (count: number) => {
    while (shown.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  return { dialogs, shown, notices, click, onScreen };
}

describe('ModalApprover', () => {
  it('approves when the human clicks Approve, naming the OS user as the approver', async () => {
    const { dialogs, shown } = scriptedDialogs([APPROVE]);
    const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
    assert.deepEqual(decision, { approved: true, approver: 'modal:alice' });
    assert.deepEqual(shown[0].buttons, [REJECT, APPROVE, OPEN_DIFF]);
    assert.equal(shown[0].title, destructive.title);
    for (const part of ['Intent: auth-refactor', 'Tool: delete_file', 'Files: src/auth/old.ts', 'Mutation: delete', 'Deletes src/auth/old.ts', '-x']) {
      assert.ok(shown[0].detail.includes(part), `detail lacks ${part}:\n${shown[0].detail}`);
    }
    // The risk is rated from the operation alone ("low" for any write): shown, it reads as a verdict on the change.
    assert.doesNotMatch(shown[0].detail, /Risk:/);
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
    assert.deepEqual(shown[0].buttons, [REJECT, APPROVE]);
    assert.ok(shown[0].detail.includes('Command: rm -rf build'));
  });

  describe('the default answer (the first button, what Enter picks)', () => {
    const change = (over: Partial<ApprovalRequest>): ApprovalRequest => ({ ...destructive, risk: 'low', mutation_class: 'write', ...over });

    it('is Reject for deletes, commands and other servers\' tools, and for a high-risk change', () => {
      assert.equal(approvalButtons(destructive)[0], REJECT);
      assert.equal(approvalButtons(change({ mutation_class: 'command', risk: 'medium', diff: undefined }))[0], REJECT);
      assert.equal(approvalButtons(change({ mutation_class: 'scope_unknown' }))[0], REJECT);
      assert.equal(approvalButtons(change({ risk: 'high' }))[0], REJECT);
    });

    it('stays Approve for a write or an edit, with Reject last', () => {
      for (const mutation_class of ['write', 'edit']) {
        const buttons = approvalButtons(change({ mutation_class }));
        assert.equal(buttons[0], APPROVE);
        assert.equal(buttons.at(-1), REJECT);
      }
    });
  });

  describe('Approve for this Session', () => {
    const write: ApprovalRequest = {
      ...destructive,
      title: 'Allow claude-code to change src/auth/new.ts?',
      tool: 'write_file',
      files: ['src/auth/new.ts'],
      risk: 'low',
      mutation_class: 'write',
      reasons: ['Approval mode every-change (the default) asks before every write'],
      diff: '--- a/src/auth/new.ts\n+++ b/src/auth/new.ts\n@@ -0,0 +1 @@\n+x\n',
      session_id: 'mcp-http:1',
      session_approvable: true,
    };

    it('is offered, in order, for a write the governor allows it for, and says what it grants', async () => {
      const { dialogs, shown } = scriptedDialogs([APPROVE_FOR_SESSION]);
      const decision = await new ModalApprover(dialogs, 'alice').approve(write);
      assert.deepEqual(decision, { approved: true, approver: 'modal:alice', for_session: true });
      assert.deepEqual(shown[0].buttons, [APPROVE, APPROVE_FOR_SESSION, OPEN_DIFF, REJECT]);
      assert.match(shown[0].detail, /Approve for this Session: this agent session's later writes and edits inside auth-refactor's owned scope land without asking/);
    });

    it('keeps Open Diff… working beside it', async () => {
      const { dialogs, shown, diffs } = scriptedDialogs([OPEN_DIFF, APPROVE_FOR_SESSION]);
      assert.equal((await new ModalApprover(dialogs, 'alice').approve(write)).for_session, true);
      assert.equal(shown.length, 2);
      assert.deepEqual(diffs, [write]);
    });

    it('plain Approve approves this change only', async () => {
      const { dialogs } = scriptedDialogs([APPROVE]);
      assert.deepEqual(await new ModalApprover(dialogs, 'alice').approve(write), { approved: true, approver: 'modal:alice' });
    });

    it('is not offered for a delete, and a stray click on it is no approval', async () => {
      const { dialogs, shown } = scriptedDialogs([APPROVE_FOR_SESSION]);
      const decision = await new ModalApprover(dialogs, 'alice').approve(destructive);
      assert.deepEqual(shown[0].buttons, [REJECT, APPROVE, OPEN_DIFF]);
      assert.equal(decision.approved, false);
      assert.doesNotMatch(shown[0].detail, /Approve for this Session/);
    });
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
      notice() {},
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
      notice() {},
    };
    const approver = new ModalApprover(dialogs, 'alice');
    await assert.rejects(approver.approve(destructive));
    assert.equal((await approver.approve(destructive)).approved, true);
  });

  describe('when the agent stops waiting', () => {
    it('a request cancelled while queued is taken off the queue: its modal never shows', async () => {
      const { dialogs, shown, click, onScreen } = heldDialogs();
      const approver = new ModalApprover(dialogs, 'alice');
      const first = approver.approve({ ...destructive, title: 'first' });
      const controller = new AbortController();
      const second = approver.approve({ ...destructive, title: 'second' }, { signal: controller.signal });
      const third = approver.approve({ ...destructive, title: 'third' });
      await onScreen(1);
      controller.abort();
      const cancelled = await second; // settles while 'first' is still on screen
      assert.equal(cancelled.approved, false);
      assert.match(cancelled.reason ?? '', /cancelled: the agent stopped waiting/);
      await click(APPROVE);
      assert.equal((await first).approved, true);
      await click(APPROVE);
      assert.equal((await third).approved, true);
      assert.deepEqual(shown, ['first', 'third']);
    });

    it('a request already cancelled is never shown', async () => {
      const { dialogs, shown } = heldDialogs();
      const decision = await new ModalApprover(dialogs, 'alice').approve(destructive, { signal: AbortSignal.abort() });
      assert.equal(decision.approved, false);
      assert.deepEqual(shown, []);
    });

    it('a request cancelled while its modal shows is rejected at once; a later click is told it expired and nothing changed', async () => {
      const { dialogs, notices, click, onScreen } = heldDialogs();
      const approver = new ModalApprover(dialogs, 'alice');
      const controller = new AbortController();
      const answer = approver.approve(destructive, { signal: controller.signal });
      await onScreen(1);
      controller.abort();
      const decision = await answer; // the modal is still open: VS Code cannot close it from code
      assert.equal(decision.approved, false);
      assert.match(decision.reason ?? '', /cancelled: the agent stopped waiting/);
      assert.deepEqual(notices, []);
      await click(APPROVE);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(notices.length, 1);
      assert.match(notices[0], /expired/);
      assert.match(notices[0], /nothing was changed/i);
      // The queue moves on to the next request once the human has clicked.
      const next = approver.approve({ ...destructive, title: 'next' });
      await click(REJECT);
      assert.equal((await next).approved, false);
    });

    it('a request cancelled while its modal shows does not come back after Open Diff…', async () => {
      const { dialogs, shown, notices, click, onScreen } = heldDialogs();
      const controller = new AbortController();
      const answer = new ModalApprover(dialogs, 'alice').approve(destructive, { signal: controller.signal });
      await onScreen(1);
      controller.abort();
      await answer;
      await click(OPEN_DIFF);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(shown.length, 1);
      assert.equal(notices.length, 1);
    });
  });

  describe('bounds', () => {
    it(`refuses at once, without showing it, a request beyond ${MAX_WAITING} waiting`, async () => {
      const { dialogs, shown, click, onScreen } = heldDialogs();
      const approver = new ModalApprover(dialogs, 'alice');
      const answers = Array.from({ length: MAX_WAITING + 1 }, (_, i) => approver.approve({ ...destructive, title: `r${i}` }));
      await onScreen(1); // r0 on screen, MAX_WAITING waiting behind it
      const refused = await approver.approve({ ...destructive, title: 'one too many' });
      assert.equal(refused.approved, false);
      assert.match(refused.reason ?? '', /too many approvals are waiting/i);
      assert.equal(refused.refusal?.code, 'HITL_REJECT');
      assert.match(refused.refusal?.message ?? '', /too many approvals are waiting/i);
      for (let i = 0; i <= MAX_WAITING; i++) await click(REJECT);
      await Promise.all(answers);
      assert.ok(!shown.includes('one too many'));
      // Room again once the human has answered.
      const later = approver.approve({ ...destructive, title: 'later' });
      await click(APPROVE);
      assert.equal((await later).approved, true);
    });

    it(`keeps at most ${MAX_DIFF_CHARS} characters of a queued request's diff, and says it was cut`, async () => {
      const { dialogs, shown, diffs } = scriptedDialogs([OPEN_DIFF, REJECT]);
      const line = `-${'x'.repeat(99)}\n`;
      const huge = `--- a/src/big.ts\n+++ /dev/null\n@@ -1,20000 +0,0 @@\n${line.repeat(20_000)}`;
      await new ModalApprover(dialogs, 'alice').approve({ ...destructive, diff: huge });
      const kept = diffs[0].diff ?? '';
      assert.ok(kept.length <= MAX_DIFF_CHARS + 200, `kept ${kept.length} characters`);
      assert.ok(kept.startsWith('--- a/src/big.ts'));
      assert.match(kept, /diff cut/);
      assert.equal(diffs[0].diff_cut, true);
      assert.ok(shown[0].detail.length < 10_000, 'the modal shows a preview, not the whole diff');
    });
  });
});
