import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../../src/core/approval/approver';
import { approvalGate } from '../../../../src/core/guards/approvalGate';
import { CallFacts } from '../../../../src/core/pipeline/callFacts';
import { TOOLS } from '../../../../src/core/tools/toolRegistry';
import { codeOf, createHarness, SAMPLE_INTENTS, type Harness } from '../../../support/governorHarness';

const BOTH_IN_PROGRESS = SAMPLE_INTENTS.replace('status: PLANNED', 'status: IN_PROGRESS');

/** A human at the modal who answers from a script: 'once', 'session' or 'reject'; every request is kept. */
function human(h: Harness, ...answers: ('once' | 'session' | 'reject')[]): ApprovalRequest[] {
  const seen: ApprovalRequest[] = [];
  h.governor.services.approver = {
    interactive: true,
    async approve(request): Promise<ApprovalDecision> {
      seen.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected approval request: ${request.title}`);
      if (answer === 'reject') return { approved: false, approver: 'modal:alice', reason: 'rejected in the approval dialog' };
      return { approved: true, approver: 'modal:alice', ...(answer === 'session' ? { for_session: true } : {}) };
    },
  };
  return seen;
}

const write = (h: Harness, path: string, session = 's1') => h.call('write_file', { path, content: `${path}\n` }, session);

/** Another pre-hook (a user's hook, a command policy) that asks a person before every write to `path`. */
function askBefore(h: Harness, path: string, reason: string): void {
  h.governor.engine.registerPre({ name: 'other-asker', run: ({ call }) => (call.tool === 'write_file' && (call.input as { path?: string }).path === path ? { decision: { kind: 'ask', ask: { reason, risk: 'medium' } } } : { decision: { kind: 'allow' } }) });
}

describe('approval gate: approval modes', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('headless default (destructive-only): an in-scope write lands without asking, a delete asks', async () => {
    h = await createHarness({ files: { 'src/auth/old.ts': 'x\n' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(asked.length, 0);
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/old.ts' })), 'ok');
    assert.equal(codeOf(await h.call('delete_file', { path: 'src/auth/old.ts' })), 'ok');
    assert.equal(asked.length, 1);
  });

  it('every-change asks before every write, and the request names its session', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].session_id, 's1');
    assert.equal(asked[0].session_approvable, true);
    assert.match(asked[0].reasons.join('\n'), /every-change \(the default\) asks before every write/);
  });

  it('an intent’s own approval mode wins over the default, both ways', async () => {
    const intents = BOTH_IN_PROGRESS.replace('    constraints:', '    approval: every-change\n    constraints:').replace('      - docs/**', '      - docs/**\n    approval: destructive-only');
    h = await createHarness({ intents, policy: { approval: 'destructive-only' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(asked.length, 1, 'auth-refactor says every-change');
    assert.match(asked[0].reasons.join('\n'), /set by intent auth-refactor/);
    h.governor.services.policy.approval = 'every-change';
    assert.equal(codeOf(await h.bound('write_file', { path: 'docs/a.md', content: 'a\n' }, 'docs', 's2')), 'ok');
    assert.equal(asked.length, 1, 'docs says destructive-only');
  });

  it('an untrusted workspace asks for every write whatever the intent says, and offers no session-wide answer', async () => {
    const intents = SAMPLE_INTENTS.replace('    constraints:', '    approval: destructive-only\n    constraints:');
    h = await createHarness({ intents, policy: { trusted: false } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].session_approvable, undefined);
  });
});

describe('approval gate: Approve for this Session', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('later writes and edits by the session in the intent’s scope land without asking; the trace names the standing approval', async () => {
    h = await createHarness({ files: { 'test/auth/t.ts': 'one\n' }, policy: { approval: 'every-change' } });
    const asked = human(h, 'session');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(codeOf(await h.call('read_file', { path: 'test/auth/t.ts' })), 'ok');
    assert.equal(codeOf(await h.call('edit_file', { path: 'test/auth/t.ts', edits: [{ search: 'one', replace: 'two' }] })), 'ok');
    assert.equal(asked.length, 1, 'only the first change asked');
    assert.equal(await readFile(join(h.root, 'src/auth/b.ts'), 'utf8'), 'src/auth/b.ts\n');

    const [first, second, third] = h.trace.mutations;
    const standing = { session: 's1', intent: 'auth-refactor', granted_by: 'modal:alice', granted_at: second.approval!.standing!.granted_at };
    assert.deepEqual(first.approval, { approver: 'modal:alice', granted_standing: standing });
    assert.deepEqual(second.approval, { approver: 'modal:alice', standing });
    assert.equal(second.decision, 'approved');
    assert.deepEqual(third.approval, { approver: 'modal:alice', standing });
    assert.deepEqual(h.governor.services.standingApprovals.list().map((a) => `${a.session}/${a.intent}`), ['s1/auth-refactor']);
  });

  it('a dry run (decide) says allow for a change the standing approval covers, ask for one it does not', async () => {
    h = await createHarness({ files: { 'src/auth/old.ts': 'x\n' }, policy: { approval: 'every-change' } });
    human(h, 'session');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    const decide = (tool: string, input: unknown, session = 's1') => h.governor.run({ tool, input, session_id: session, agent: { name: 'test-agent' } }, { mode: 'judge' });
    assert.equal((await decide('write_file', { path: 'src/auth/b.ts', content: 'b\n' })).decision, 'allow');
    h.governor.services.sessions.bindIntent('s2', 'auth-refactor');
    assert.equal((await decide('write_file', { path: 'src/auth/b.ts', content: 'b\n' }, 's2')).decision, 'ask');
  });

  it('a write outside the intent’s scope is still refused by the scope guard, without a modal', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(codeOf(await write(h, 'src/billing/x.ts')), 'SCOPE_VIOLATION');
    assert.equal(asked.length, 1);
  });

  it('deletes still ask', async () => {
    h = await createHarness({ files: { 'src/auth/old.ts': 'x\n' }, policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'reject');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/old.ts' })), 'ok');
    assert.equal(codeOf(await h.call('delete_file', { path: 'src/auth/old.ts' })), 'HITL_REJECT');
    assert.equal(asked.length, 2);
    assert.equal(asked[1].session_approvable, undefined, 'a delete is never approved for the session');
  });

  it('covers only its own session and its own intent', async () => {
    h = await createHarness({ intents: BOTH_IN_PROGRESS, policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'once', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/b.ts', content: 'b\n' }, 'auth-refactor', 's2')), 'ok');
    assert.equal(codeOf(await h.bound('write_file', { path: 'docs/a.md', content: 'a\n' }, 'docs', 's1')), 'ok');
    assert.equal(asked.length, 3);
  });

  it('Approve (once) grants nothing: the next write asks again', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'once', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(asked.length, 2);
    assert.equal(h.trace.mutations[0].approval, undefined, 'the record format of a plain approval is unchanged');
  });

  it('ends when revoked', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    h.governor.services.standingApprovals.revoke('s1');
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(asked.length, 2);
  });

  it('ends when the intent’s owned scope changes', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    await h.file('.orchestration/active_intents.yaml', SAMPLE_INTENTS.replace('      - test/auth/**', '      - test/auth/**\n      - src/session/**'));
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(asked.length, 2);
    assert.deepEqual(h.governor.services.standingApprovals.list(), []);
  });

  it('ends when the intent’s status changes, even if it changes back', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    await h.file('.orchestration/active_intents.yaml', SAMPLE_INTENTS.replace('status: IN_PROGRESS', 'status: BLOCKED'));
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'INTENT_NOT_ACTIVE');
    await h.file('.orchestration/active_intents.yaml', SAMPLE_INTENTS);
    assert.equal(codeOf(await write(h, 'src/auth/c.ts')), 'ok');
    assert.equal(asked.length, 2);
  });

  it('is not honoured in an untrusted workspace', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    h.governor.services.policy.trusted = false;
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(asked.length, 2);
  });

  it('does not answer another hook’s question: a later write that another hook asks about still asks the person', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'session', 'reject');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    askBefore(h, 'src/auth/keys.ts', 'The team asks before anyone changes the key handling');
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok', 'the standing approval covers a write nobody else asks about');
    assert.equal(asked.length, 1);
    assert.equal(codeOf(await write(h, 'src/auth/keys.ts')), 'HITL_REJECT');
    assert.equal(asked.length, 2, 'the other hook’s question reached the person');
    assert.ok(asked[1].reasons.includes('The team asks before anyone changes the key handling'), asked[1].reasons.join('\n'));
    await assert.rejects(readFile(join(h.root, 'src/auth/keys.ts')), 'the rejected write did not land');
  });

  it('offers no session-wide answer when another hook asks too, so answering it grants nothing', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    askBefore(h, 'src/auth/a.ts', 'The team asks before anyone changes a.ts');
    const asked = human(h, 'session', 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(asked[0].session_approvable, undefined, 'the dialog offers Approve (once) only');
    assert.deepEqual(h.governor.services.standingApprovals.list(), [], 'an answer "for this session" to it grants nothing');
    assert.equal(codeOf(await write(h, 'src/auth/b.ts')), 'ok');
    assert.equal(asked.length, 2, 'the next write asks again');
  });

  it('an approver cannot claim a standing approval the governor did not grant', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const forged = { session: 's1', intent: 'auth-refactor', granted_by: 'someone', granted_at: '2020-01-01T00:00:00.000Z' };
    h.governor.services.approver = { approve: async () => ({ approved: true, approver: 'relay', standing: forged, granted: forged }) };
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.equal(h.trace.mutations[0].approval, undefined);
    assert.deepEqual(h.governor.services.standingApprovals.list(), []);
  });
});

describe('approval gate: what the dialog shows', () => {
  let h: Harness;
  afterEach(async () => h?.dispose());

  it('a write names the agent, the file and the mode that asks, with the diff of the new file', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    const [request] = asked;
    assert.equal(request.kind, 'destructive');
    assert.equal(request.title, 'Allow test-agent to change src/auth/a.ts?');
    assert.deepEqual(request.files, ['src/auth/a.ts']);
    assert.deepEqual(request.reasons, ['Approval mode every-change (the default) asks before every write']);
    assert.equal(request.risk, 'low');
    assert.equal(request.intent_id, 'auth-refactor');
    assert.equal(request.diff, ['===================================================================', '--- a/src/auth/a.ts', '+++ b/src/auth/a.ts', '@@ -0,0 +1,1 @@', '+a', ''].join('\n'));
  });

  it('an edit shows the lines it changes, against the file as it is', async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'one\ntwo\n' }, policy: { approval: 'every-change' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('read_file', { path: 'src/auth/login.ts' })), 'ok');
    assert.equal(codeOf(await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'two', replace: 'three' }] })), 'ok');
    assert.equal(asked[0].title, 'Allow test-agent to change src/auth/login.ts?');
    assert.deepEqual(asked[0].reasons, ['Approval mode every-change (the default) asks before every edit']);
    assert.equal(asked[0].diff, ['===================================================================', '--- a/src/auth/login.ts', '+++ b/src/auth/login.ts', '@@ -1,2 +1,2 @@', ' one', '-two', '+three', ''].join('\n'));
  });

  it('a delete is high risk, says deletes always ask, and diffs the file against /dev/null', async () => {
    h = await createHarness({ files: { 'src/auth/old.ts': 'x\n' } });
    const asked = human(h, 'reject');
    assert.equal(codeOf(await h.bound('read_file', { path: 'src/auth/old.ts' })), 'ok');
    assert.equal(codeOf(await h.call('delete_file', { path: 'src/auth/old.ts' })), 'HITL_REJECT');
    const [request] = asked;
    assert.equal(request.title, 'Allow test-agent to delete src/auth/old.ts?');
    assert.deepEqual(request.files, ['src/auth/old.ts']);
    assert.deepEqual(request.reasons, ['Deletes src/auth/old.ts; deletes ask in every approval mode']);
    assert.equal(request.risk, 'high');
    assert.equal(request.diff, ['===================================================================', '--- a/src/auth/old.ts', '+++ /dev/null', '@@ -1,1 +0,0 @@', '-x', ''].join('\n'));
    assert.equal(await readFile(join(h.root, 'src/auth/old.ts'), 'utf8'), 'x\n');
  });

  it('an untrusted workspace says so as the reason', async () => {
    h = await createHarness({ policy: { trusted: false, approval: 'destructive-only' } });
    const asked = human(h, 'once');
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/a.ts', content: 'a\n' })), 'ok');
    assert.deepEqual(asked[0].reasons, ['The workspace is not trusted, so every change asks']);
  });

  it('a scope expansion asks in every approval mode, naming the intent, the globs and the agent’s reason', async () => {
    h = await createHarness({ policy: { approval: 'destructive-only' } });
    const asked = human(h, 'reject');
    const result = await h.bound('request_scope_expansion', { globs: ['src/session/**', 'test/session/**'], reason: 'login needs the session store' });
    assert.equal(codeOf(result), 'HITL_REJECT');
    assert.equal(asked.length, 1);
    const [request] = asked;
    assert.equal(request.kind, 'scope_expansion');
    assert.equal(request.title, "Expand the scope of intent 'auth-refactor'?");
    assert.deepEqual(request.reasons, ['test-agent asks to add src/session/**, test/session/** to the owned scope']);
    assert.deepEqual(request.globs, ['src/session/**', 'test/session/**']);
    assert.equal(request.agent_reason, 'login needs the session store');
    assert.equal(request.intent_id, 'auth-refactor');
    assert.equal(request.risk, 'medium');
    assert.equal(request.session_approvable, undefined, 'a scope expansion is never approved for the session');
    assert.equal(await readFile(join(h.root, '.orchestration/active_intents.yaml'), 'utf8'), SAMPLE_INTENTS, 'the rejected globs were not added');
  });

  it('on its own, without the scope guard before it, offers no session-wide answer for a path outside the intent’s scope', async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    h.governor.services.sessions.bindIntent('s1', 'auth-refactor');
    const ask = async (path: string) => {
      const call = { tool: 'write_file', input: { path, content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' }, invocation_id: `gate-${path}` };
      const result = await approvalGate.run({ call, facts: new CallFacts(call, TOOLS.write_file, h.governor.services), signal: new AbortController().signal });
      assert.equal(result.decision.kind, 'ask');
      return result.decision.kind === 'ask' ? result.decision.ask : undefined;
    };
    assert.equal((await ask('src/auth/a.ts'))?.session_approvable, true);
    const outside = await ask('src/billing/x.ts');
    assert.equal(outside?.session_approvable, undefined);
    assert.deepEqual(outside?.files, ['src/billing/x.ts']);
  });
});
