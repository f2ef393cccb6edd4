import { strict as assert } from 'node:assert';
import type { HookEventName } from '../../../../src/core/userHooks/hookEvents';
import type { HookExecution } from '../../../../src/core/userHooks/hookExecution';
import { MAX_REASON_CHARS, readHookExecution } from '../../../../src/core/userHooks/hookOutput';
import type { HookAction, HookSpec, OnFailure } from '../../../../src/core/userHooks/hookSpec';
import type { HookVerdict } from '../../../../src/core/userHooks/hookVerdict';

const COMMAND: HookAction = { type: 'command', command: './guard.sh' };
const PROMPT: HookAction = { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' };

function spec(event: HookEventName, onFailure: OnFailure = 'block', action: HookAction = COMMAND): HookSpec {
  return {
    id: `.orchestration/hooks.json#${event}[0].hooks[0]`,
    identity: 'sha256:test',
    name: 'guard',
    event,
    matcher: '',
    action,
    timeoutMs: 60_000,
    async: false,
    asyncRewake: false,
    once: false,
    onFailure,
    source: { layer: 'project', file: '.orchestration/hooks.json' },
    approvalHash: 'sha256:0',
  };
}

const exited = (exitCode: number, stdout: string, stderr = ''): HookExecution => ({ kind: 'exited', exitCode, stdout, stderr, durationMs: 1 });
const json = (answer: unknown): HookExecution => exited(0, `${JSON.stringify(answer)}\n`);
const verdict = (fields: Partial<HookVerdict>): HookVerdict => ({ decision: 'none', failures: [], ...fields });
const denied = (reason: string, fields: Partial<HookVerdict> = {}): HookVerdict => verdict({ decision: 'deny', reason, decidedBy: 'guard', ...fields });

describe("readHookExecution: a hook's run read with Claude Code's protocol", () => {
  describe('exit 0 with JSON on stdout: every field', () => {
    const rows: [string, HookEventName, unknown, HookVerdict][] = [
      ['an empty answer says nothing', 'PreToolUse', {}, verdict({})],
      ['continue: false stops the agent and refuses, with stopReason', 'PreToolUse', { continue: false, stopReason: 'release freeze' }, denied('release freeze', { stop: 'release freeze' })],
      ['continue: false without a reason still stops', 'PostToolUse', { continue: false }, denied('the hook stopped the agent (continue: false)', { stop: 'the hook stopped the agent (continue: false)' })],
      ['continue: true says nothing', 'PreToolUse', { continue: true }, verdict({})],
      ['decision "block" refuses with its reason', 'PreToolUse', { decision: 'block', reason: 'not on main' }, denied('not on main')],
      ['decision "deny" refuses', 'UserPromptSubmit', { decision: 'deny' }, denied('the hook gave no reason')],
      ['decision "approve" allows', 'PreToolUse', { decision: 'approve', reason: 'fine' }, verdict({ decision: 'allow' })],
      ['decision "allow" allows', 'PreToolUse', { decision: 'allow' }, verdict({ decision: 'allow' })],
      ['decision "ask" asks with its reason', 'PreToolUse', { decision: 'ask', reason: 'touches billing' }, verdict({ decision: 'ask', reason: 'touches billing', decidedBy: 'guard' })],
      ['a PostToolUse block tells the model why (the tool already ran): in its reason, not again as context', 'PostToolUse', { decision: 'block', reason: 'lint failed: 3 errors' }, denied('lint failed: 3 errors')],
      ['a PostToolUseFailure block does too', 'PostToolUseFailure', { decision: 'block', reason: 'retry with --force' }, denied('retry with --force')],
      ['permissionDecision "defer" asks a person', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'defer' } }, verdict({ decision: 'ask', reason: 'the hook deferred this decision (permissionDecision: defer), so a person decides', decidedBy: 'guard' })],
      ['a Stop block keeps the agent working, with the reason', 'Stop', { decision: 'block', reason: 'tests are red' }, denied('tests are red')],
      ['systemMessage is for the user', 'PreToolUse', { systemMessage: 'formatting ran' }, verdict({ systemMessage: 'formatting ran' })],
      ['suppressOutput changes nothing here', 'PostToolUse', { suppressOutput: true }, verdict({})],
      ['permissionDecision "deny" refuses with permissionDecisionReason', 'PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'secrets in the diff' } }, denied('secrets in the diff')],
      ['permissionDecision "deny" without a reason is still a refusal', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'deny' } }, denied('the hook gave no reason')],
      ['permissionDecision "ask"', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'big change' } }, verdict({ decision: 'ask', reason: 'big change', decidedBy: 'guard' })],
      ['permissionDecision "allow"', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'allow', permissionDecisionReason: 'read-only' } }, verdict({ decision: 'allow' })],
      ['updatedInput changes the input', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { file_path: 'src/a.ts' } } }, verdict({ decision: 'allow', updatedInput: { file_path: 'src/a.ts' } })],
      ['our short form modify changes the input', 'PreToolUse', { modify: { path: 'src/b.ts' } }, verdict({ updatedInput: { path: 'src/b.ts' } })],
      ['additionalContext is for the model', 'PostToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'coverage dropped' } }, verdict({ context: 'coverage dropped' })],
      ['our short form additionalContext too', 'PreToolUse', { additionalContext: 'remember the ADR' }, verdict({ context: 'remember the ADR' })],
      ['PermissionRequest decision.behavior "deny" refuses with its message', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no network' } } }, denied('no network')],
      ['PermissionRequest deny with interrupt stops the agent', 'PermissionRequest', { hookSpecificOutput: { decision: { behavior: 'deny', message: 'enough', interrupt: true } } }, denied('enough', { stop: 'enough' })],
      ['PermissionRequest decision.behavior "allow" with updatedInput', 'PermissionRequest', { hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: { command: 'npm test' } } } }, verdict({ decision: 'allow', updatedInput: { command: 'npm test' } })],
      ['the most severe signal wins: approve + permissionDecision deny', 'PreToolUse', { decision: 'approve', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } }, denied('no')],
      ['the most severe signal wins: permissionDecision allow + continue false', 'PreToolUse', { continue: false, stopReason: 'halt', hookSpecificOutput: { permissionDecision: 'allow' } }, denied('halt', { stop: 'halt' })],
      ['the most severe signal wins: ask + behavior allow', 'PermissionRequest', { decision: 'ask', reason: 'check', hookSpecificOutput: { decision: { behavior: 'allow' } } }, verdict({ decision: 'ask', reason: 'check', decidedBy: 'guard' })],
      ['every field at once', 'PreToolUse', { systemMessage: 'shown', hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'why', additionalContext: 'ctx', updatedInput: { a: 1 } } }, verdict({ decision: 'ask', reason: 'why', decidedBy: 'guard', context: 'ctx', systemMessage: 'shown', updatedInput: { a: 1 } })],
    ];
    for (const [name, event, answer, expected] of rows) {
      it(name, () => assert.deepEqual(readHookExecution(spec(event), json(answer)), expected));
    }
  });

  describe('an answer that cannot be read is a failure, never an allow', () => {
    const rows: [string, string, RegExp][] = [
      ['JSON that does not parse', '{"decision": "approve"', /returned JSON that cannot be read/],
      ['JSON followed by other output', '{"decision":"approve"}\nall good', /returned JSON that cannot be read/],
      ['an unknown decision', '{"decision":"sure"}', /unknown decision 'sure'/],
      ['an unknown permissionDecision', '{"hookSpecificOutput":{"permissionDecision":"maybe"}}', /unknown permissionDecision 'maybe'/],
      ['an unknown PermissionRequest behavior', '{"hookSpecificOutput":{"decision":{"behavior":"sometimes"}}}', /unknown decision.behavior 'sometimes'/],
      ['a hookSpecificOutput that is not an object', '{"hookSpecificOutput":"deny"}', /'hookSpecificOutput' that is not an object/],
      ['an updatedInput that is not an object', '{"hookSpecificOutput":{"updatedInput":"src/a.ts"}}', /changed input \('updatedInput'\) that is not an object/],
      ['a modify that is an array', '{"modify":[1]}', /changed input \('modify'\) that is not an object/],
      ['a continue spelled as a string', '{"continue":"false"}', /'continue' that is not true or false/],
    ];
    for (const [name, stdout, message] of rows) {
      it(`${name}: refuses with onFailure "block"`, () => {
        const read = readHookExecution(spec('PreToolUse'), exited(0, stdout));
        assert.equal(read.decision, 'deny');
        assert.equal(read.decidedBy, 'guard');
        assert.match(read.reason ?? '', /^The hook 'guard' returned .*, so this is refused until the hook is fixed \(fail closed\)\. Tell the user\.$/);
        assert.equal(read.failures.length, 1);
        assert.match(read.failures[0].message, message);
      });
      it(`${name}: is logged and decides nothing with onFailure "continue"`, () => {
        const read = readHookExecution(spec('PreToolUse', 'continue'), exited(0, stdout));
        assert.equal(read.decision, 'none');
        assert.equal(read.reason, undefined);
        assert.match(read.failures[0].message, message);
      });
    }
  });

  describe('exit 0 with plain text', () => {
    const rows: [HookEventName, HookVerdict][] = [
      ['UserPromptSubmit', verdict({ context: 'Today is a release day.' })],
      ['SessionStart', verdict({ context: 'Today is a release day.' })],
      ['PreToolUse', verdict({})],
      ['PostToolUse', verdict({})],
      ['Notification', verdict({})],
    ];
    for (const [event, expected] of rows) {
      it(`${event}: ${expected.context ? 'context for the model' : 'ignored'}`, () => assert.deepEqual(readHookExecution(spec(event), exited(0, 'Today is a release day.\n')), expected));
    }
  });

  describe('exit 2', () => {
    const decisionEvents: HookEventName[] = ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'ScopeExpansionRequested'];
    for (const event of decisionEvents) {
      it(`${event}: refuses, with stderr as the reason`, () => assert.deepEqual(readHookExecution(spec(event), exited(2, '', 'not during the freeze\n')), denied('not during the freeze')));
    }
    const observationEvents: HookEventName[] = ['PostToolUse', 'PostToolUseFailure', 'PermissionDenied', 'SessionStart', 'SessionEnd', 'Notification', 'PreCompact', 'SubagentStart', 'IntentSelected', 'TraceRecorded'];
    for (const event of observationEvents) {
      it(`${event}: stderr becomes context for the model`, () => assert.deepEqual(readHookExecution(spec(event), exited(2, '', 'the build broke\n')), verdict({ context: 'the build broke' })));
    }
    it('ignores stdout, JSON or not (as Claude Code does)', () => {
      assert.deepEqual(readHookExecution(spec('PreToolUse'), exited(2, '{"decision":"approve"}', 'no')), denied('no'));
    });
    it('refuses even when stderr is empty', () => {
      assert.deepEqual(readHookExecution(spec('PreToolUse'), exited(2, '', '')), denied('the hook blocked this (exit 2) without saying why'));
    });
  });

  describe('any other exit, or a run that failed', () => {
    it('refuses with onFailure "block", saying which hook failed and how', () => {
      const read = readHookExecution(spec('PreToolUse'), exited(1, '{"decision":"approve"}', 'jq: command not found\n'));
      assert.equal(read.decision, 'deny');
      assert.equal(read.reason, "The hook 'guard' exited with code 1: jq: command not found, so this is refused until the hook is fixed (fail closed). Tell the user.");
      assert.deepEqual(read.failures, [{ hook: 'guard', message: 'exited with code 1: jq: command not found' }]);
    });
    it('decides nothing with onFailure "continue", but keeps the failure', () => {
      assert.deepEqual(readHookExecution(spec('PostToolUse', 'continue'), exited(127, '', 'sh: guard.sh: not found')), verdict({ failures: [{ hook: 'guard', message: 'exited with code 127: sh: guard.sh: not found' }] }));
    });
    it('reads a failed run (timeout, spawn failure, HTTP error) by onFailure alike', () => {
      const failed: HookExecution = { kind: 'failed', message: 'did not finish within 5000 ms; its process group was killed', durationMs: 5000 };
      assert.deepEqual(readHookExecution(spec('PreToolUse'), failed), denied("The hook 'guard' did not finish within 5000 ms; its process group was killed, so this is refused until the hook is fixed (fail closed). Tell the user.", { failures: [{ hook: 'guard', message: failed.message }] }));
      assert.deepEqual(readHookExecution(spec('PreToolUse', 'continue'), failed), verdict({ failures: [{ hook: 'guard', message: failed.message }] }));
    });
  });

  describe('prompt hooks: the model answers {"ok": ...}', () => {
    const read = (completion: string, event: HookEventName = 'PreToolUse', onFailure: OnFailure = 'block') => readHookExecution(spec(event, onFailure, PROMPT), exited(0, completion));
    const rows: [string, string, HookVerdict][] = [
      ['ok: true raises no objection (it never approves in the human\'s place)', '{"ok": true}', verdict({})],
      ['ok: false refuses with the reason', '{"ok": false, "reason": "no tests for this change"}', denied('no tests for this change')],
      ['ok: false without a reason still refuses', '{"ok": false}', denied('the model gave no reason')],
      ['inside a ```json fence', '```json\n{"ok": false, "reason": "fenced"}\n```', denied('fenced')],
      ['in one fence between prose', 'Here is my verdict:\n```\n{"ok": false, "reason": "prose"}\n```\nHope this helps.', denied('prose')],
      ['the full JSON output form', '{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "unsure"}}', verdict({ decision: 'ask', reason: 'unsure', decidedBy: 'guard' })],
      ['ok: true next to a stronger signal', '{"ok": true, "continue": false, "stopReason": "stop"}', denied('stop', { stop: 'stop' })],
    ];
    for (const [name, completion, expected] of rows) it(name, () => assert.deepEqual(read(completion), expected));

    it('ok: false on Stop keeps the agent working', () => assert.deepEqual(read('{"ok": false, "reason": "the TODO list is not done"}', 'Stop'), denied('the TODO list is not done')));

    const unreadable: [string, string][] = [
      ['prose', 'Looks fine to me.'],
      ['ok that is not a boolean', '{"ok": "yes"}'],
      ['two fences', '```json\n{"ok": true}\n```\nor\n```json\n{"ok": false}\n```'],
      ['JSON that does not parse', '{"ok": tru'],
    ];
    for (const [name, completion] of unreadable) {
      it(`${name} is a failure`, () => {
        const answer = read(completion);
        assert.equal(answer.decision, 'deny');
        assert.equal(answer.failures.length, 1);
        assert.equal(read(completion, 'PreToolUse', 'continue').decision, 'none');
      });
    }
  });

  describe('caps what reaches the model', () => {
    it(`cuts reasons to ${MAX_REASON_CHARS} characters, saying so`, () => {
      const long = 'x'.repeat(50_000);
      for (const read of [readHookExecution(spec('PreToolUse'), exited(2, '', long)), readHookExecution(spec('PreToolUse'), json({ decision: 'block', reason: long })), readHookExecution(spec('PreToolUse'), exited(1, '', long))]) {
        assert.ok((read.reason ?? '').length <= MAX_REASON_CHARS, `reason of ${read.reason?.length}`);
        assert.match(read.reason ?? '', /… \(cut off\)/);
      }
    });
  });
});
