import { strict as assert } from 'node:assert';
import type { PreHook } from '../../../../src/core/pipeline/hookTypes';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';

const FILES = { 'src/auth/login.ts': 'export function login() {}\n' };

describe('hook engine', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ files: FILES });
    h.governor.services.sessions.bindIntent('s1', 'auth-refactor');
  });
  afterEach(() => h.dispose());

  it('runs the built-in guards in the documented order', () => {
    assert.deepEqual(h.governor.engine.preHookNames(), ['user-hooks', 'intent-gate', 'path-scope-guard', 'stale-guard', 'command-policy', 'signing-guard', 'approval-gate']);
    assert.deepEqual(h.governor.engine.postHookNames(), ['read-ledger', 'trace-recorder', 'intent-map', 'user-hooks']);
  });

  describe('fails closed', () => {
    const faulty: Array<[string, PreHook]> = [
      ['throws', { name: 'thrower', run: () => { throw new Error('boom'); } }],
      ['rejects', { name: 'rejecter', run: async () => Promise.reject(new Error('async boom')) }],
      ['hangs past its timeout', { name: 'sleeper', timeoutMs: 50, run: () => new Promise(() => {}) }],
      ['returns undefined', { name: 'empty', run: () => undefined as never }],
      ['returns a string', { name: 'stringy', run: () => 'allow' as never }],
      ['returns an unknown decision', { name: 'odd', run: () => ({ decision: { kind: 'maybe' } }) as never }],
      ['denies without a tool_error', { name: 'vague', run: () => ({ decision: { kind: 'deny', error: 'no' } }) as never }],
      ['asks without a risk', { name: 'shy', run: () => ({ decision: { kind: 'ask', ask: { reason: 'x' } } }) as never }],
      ['modifies to a non-object', { name: 'mangler', run: () => ({ decision: { kind: 'modify', input: [1] } }) as never }],
    ];
    for (const [what, hook] of faulty) {
      it(`a pre-hook that ${what} denies the call with HOOK_ERROR and nothing is written`, async () => {
        h.governor.engine.registerPre(hook);
        const result = await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' });
        assert.equal(codeOf(result), 'HOOK_ERROR');
        assert.match(result.ok ? '' : result.error.message, new RegExp(hook.name));
        assert.equal(h.trace.mutations.length, 0);
        assert.equal(h.trace.governance.at(-1)?.code, 'HOOK_ERROR');
        await assert.rejects(import('node:fs/promises').then((fs) => fs.readFile(`${h.root}/src/auth/new.ts`)));
      });
    }
  });

  it('a deny short-circuits: later hooks do not run', async () => {
    const ran: string[] = [];
    h.governor.engine.registerPre({ name: 'first', run: () => { ran.push('first'); return { decision: { kind: 'deny', error: { type: 'tool_error', code: 'HOOK_BLOCKED', message: 'blocked by policy' } } }; } });
    h.governor.engine.registerPre({ name: 'second', run: () => { ran.push('second'); return { decision: { kind: 'allow' } }; } }, { after: 'first' });
    const result = await h.call('read_file', { path: 'src/auth/login.ts' });
    assert.equal(codeOf(result), 'HOOK_BLOCKED');
    assert.deepEqual(ran, ['first']);
  });

  it('deny beats ask: an asking hook followed by a guard that denies never reaches the human', async () => {
    h.governor.engine.registerPre({ name: 'asker', run: () => ({ decision: { kind: 'ask', ask: { reason: 'looks risky', risk: 'high' } } }) });
    const result = await h.call('write_file', { path: 'docs/outside.md', content: 'x' });
    assert.equal(codeOf(result), 'SCOPE_VIOLATION');
    assert.equal(h.approver.requests.length, 0);
  });

  it('asks merge into one request with every reason and the highest risk', async () => {
    h.governor.engine.registerPre({ name: 'asker-a', run: () => ({ decision: { kind: 'ask', ask: { reason: 'reason A', risk: 'low' } } }) });
    h.governor.engine.registerPre({ name: 'asker-b', run: () => ({ decision: { kind: 'ask', ask: { reason: 'reason B', risk: 'high' } } }) });
    h.approver.script(true);
    const result = await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' });
    assert.equal(codeOf(result), 'ok');
    assert.equal(h.approver.requests.length, 1);
    assert.deepEqual(h.approver.requests[0].reasons, ['reason A', 'reason B']);
    assert.equal(h.approver.requests[0].risk, 'high');
  });

  it('the highest risk wins whichever hook asks first', async () => {
    h.governor.engine.registerPre({ name: 'asker-a', run: () => ({ decision: { kind: 'ask', ask: { reason: 'reason A', risk: 'high' } } }) });
    h.governor.engine.registerPre({ name: 'asker-b', run: () => ({ decision: { kind: 'ask', ask: { reason: 'reason B', risk: 'medium' } } }) });
    h.approver.script(true);
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' })), 'ok');
    assert.equal(h.approver.requests[0].risk, 'high');
  });

  it('a request from hooks that give no title and no files says which agent runs which tool, and names no file', async () => {
    h.governor.engine.registerPre({ name: 'asker', run: () => ({ decision: { kind: 'ask', ask: { reason: 'looks risky', risk: 'medium' } } }) });
    h.approver.script(false);
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' })), 'HITL_REJECT');
    const [request] = h.approver.requests;
    assert.equal(request.title, 'Allow test-agent to run write_file?');
    assert.equal(request.tool, 'write_file');
    assert.deepEqual(request.files, []);
    assert.deepEqual(request.reasons, ['looks risky']);
  });

  it('a file that several hooks name is listed once', async () => {
    h.governor.services.policy.approval = 'every-change';
    h.governor.engine.registerPre({ name: 'asker', run: () => ({ decision: { kind: 'ask', ask: { reason: 'touches login', risk: 'medium', files: ['src/auth/new.ts', 'src/auth/login.ts'] } } }) });
    h.approver.script(true);
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' })), 'ok');
    assert.deepEqual(h.approver.requests[0].files, ['src/auth/new.ts', 'src/auth/login.ts']);
  });

  it('a later ask that leaves a detail unset keeps the one an earlier hook gave', async () => {
    h.governor.services.policy.approval = 'every-change';
    const later: PreHook = { name: 'asker', run: () => ({ decision: { kind: 'ask', ask: { reason: 'looks risky', risk: 'medium', title: undefined, intent_id: undefined } } }) };
    h.governor.engine.registerPre(later, { after: 'approval-gate' });
    h.approver.script(true);
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' })), 'ok');
    const [request] = h.approver.requests;
    assert.equal(request.title, 'Allow test-agent to change src/auth/new.ts?', 'the approval gate’s title');
    assert.equal(request.intent_id, 'auth-refactor');
    assert.equal(request.reasons.length, 2);
  });

  it('a modify before the guards is checked by them: redirecting a write out of scope is refused', async () => {
    h.governor.engine.registerPre({ name: 'redirector', run: ({ call }) => ({ decision: { kind: 'modify', input: { ...call.input, path: '.git/config' } } }) });
    const result = await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' });
    assert.equal(codeOf(result), 'PROTECTED_PATH');
  });

  it('a modify before the guards changes what is written', async () => {
    h.governor.engine.registerPre({ name: 'header', run: ({ call }) => ({ decision: { kind: 'modify', input: { ...call.input, content: `// governed\n${String(call.input.content)}` } } }) });
    const result = await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' });
    assert.equal(codeOf(result), 'ok');
    const { readFile } = await import('node:fs/promises');
    assert.equal(await readFile(`${h.root}/src/auth/new.ts`, 'utf8'), '// governed\nx');
  });

  it('a modify after the guards is refused, since no guard would see it', async () => {
    h.governor.engine.registerPre({ name: 'late', run: ({ call }) => ({ decision: { kind: 'modify', input: { ...call.input, path: '.git/config' } } }) }, { after: 'approval-gate' });
    const result = await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' });
    assert.equal(codeOf(result), 'HOOK_ERROR');
  });

  it('context from hooks reaches the agent', async () => {
    h.governor.engine.registerPre({ name: 'advisor', run: () => ({ decision: { kind: 'allow' }, context: 'Run the auth tests after this change.' }) });
    const result = await h.call('read_file', { path: 'src/auth/login.ts' });
    assert.deepEqual(result.context, ['Run the auth tests after this change.']);
  });

  it('post-hooks run on success, block and error, and their failures never change the outcome', async () => {
    const seen: string[] = [];
    h.governor.engine.registerPost({ name: 'watcher', run: ({ outcome }) => { seen.push(outcome.status); } });
    h.governor.engine.registerPost({ name: 'broken', run: () => { throw new Error('post boom'); } });
    h.governor.engine.registerPost({ name: 'slow', timeoutMs: 30, run: () => new Promise(() => {}) });
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'ok');
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/x.ts', content: '' }, 'unbound')), 'NO_ACTIVE_INTENT');
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/missing.ts' })), 'INVALID_INPUT');
    assert.deepEqual(seen, ['success', 'blocked', 'error']);
    assert.ok(h.logger.lines.some((l) => l.includes('post-hook broken failed')));
    assert.ok(h.logger.lines.some((l) => l.includes('post-hook slow timed out')));
  });

  it('disposing a registration removes the hook', async () => {
    const registration = h.governor.engine.registerPre({ name: 'blocker', run: () => ({ decision: { kind: 'deny', error: { type: 'tool_error', code: 'HOOK_BLOCKED', message: 'no' } } }) });
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'HOOK_BLOCKED');
    registration.dispose();
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'ok');
  });

  it('an approver that crashes counts as a rejection', async () => {
    const result = await h.call('delete_file', { path: 'src/auth/login.ts', expected_content_hash: await hashOf(h, 'src/auth/login.ts') });
    // the scripted approver throws when it has no scripted answer
    assert.equal(codeOf(result), 'HITL_REJECT');
    const { readFile } = await import('node:fs/promises');
    assert.equal(await readFile(`${h.root}/src/auth/login.ts`, 'utf8'), FILES['src/auth/login.ts']);
  });

  describe('a call its agent stopped waiting for', () => {
    const call = (tool: string, input: unknown, signal: AbortSignal) =>
      h.governor.run({ tool, input, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute', signal });

    it('aborts the running pre-hook through its signal and is refused at once, logged as cancelled', async () => {
      const controller = new AbortController();
      let hookSignal: AbortSignal | undefined;
      // A slow policy check (a user hook's process, say) that would run for a minute if nobody stopped it.
      h.governor.engine.registerPre({
        name: 'slow-policy',
        timeoutMs: 60_000,
        run: ({ signal }) => {
          hookSignal = signal;
          setImmediate(() => controller.abort());
          return new Promise((resolve) => setTimeout(() => resolve({ decision: { kind: 'allow' } }), 60_000).unref());
        },
      });
      const result = await call('write_file', { path: 'src/auth/new.ts', content: 'x' }, controller.signal);
      assert.equal(codeOf(result), 'HITL_REJECT');
      assert.match(result.ok ? '' : result.error.message, /cancelled: the agent stopped waiting/i);
      assert.equal(result.ok ? undefined : result.error.meta?.reason, 'cancelled');
      assert.equal(hookSignal?.aborted, true, 'the hook was told to stop');
      assert.equal(h.trace.governance.at(-1)?.code, 'HITL_REJECT');
      assert.match(h.trace.governance.at(-1)?.message ?? '', /cancelled: the agent stopped waiting/i);
      await assert.rejects(import('node:fs/promises').then((fs) => fs.readFile(`${h.root}/src/auth/new.ts`)));
    });

    it('never reaches the human when it was cancelled before the approval', async () => {
      const result = await call('delete_file', { path: 'src/auth/login.ts', expected_content_hash: await hashOf(h, 'src/auth/login.ts') }, AbortSignal.abort());
      assert.equal(codeOf(result), 'HITL_REJECT');
      assert.equal(h.approver.requests.length, 0);
      const { readFile } = await import('node:fs/promises');
      assert.equal(await readFile(`${h.root}/src/auth/login.ts`, 'utf8'), FILES['src/auth/login.ts']);
    });

    it('a hook still gets a signal when the door passes none', async () => {
      let seen: AbortSignal | undefined;
      h.governor.engine.registerPre({ name: 'looker', run: ({ signal }) => ((seen = signal), { decision: { kind: 'allow' } }) });
      assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'ok');
      assert.equal(seen?.aborted, false);
    });
  });

  it('every call gets its own invocation id', async () => {
    const a = await h.call('read_file', { path: 'src/auth/login.ts' });
    const b = await h.call('read_file', { path: 'src/auth/login.ts' });
    assert.match(a.invocation_id, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.invocation_id, b.invocation_id);
  });
});

async function hashOf(h: Harness, rel: string): Promise<string> {
  const read = await h.call('read_file', { path: rel }, 'hasher');
  if (!read.ok) throw new Error(read.error.message);
  return String(read.output.data.content_hash);
}
