import { strict as assert } from 'node:assert';
import { readHookAnswer } from '../../../../src/core/userHooks/hookAnswer';

describe('readHookAnswer: our short form and Claude Code hook output alike', () => {
  const decision = (answer: Record<string, unknown>) => {
    const read = readHookAnswer(answer);
    return typeof read === 'string' ? `invalid: ${read}` : read.decision;
  };

  it("reads Claude Code's refusals as refusals, never as allow", () => {
    assert.equal(decision({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } }), 'deny');
    assert.equal(decision({ continue: false, stopReason: 'stop everything' }), 'deny');
    assert.equal(decision({ decision: 'block', reason: 'legacy block' }), 'deny');
    assert.equal(decision({ hookSpecificOutput: { permissionDecision: 'ask' } }), 'ask');
  });

  it('lets the most severe signal win when an answer mixes them', () => {
    assert.equal(decision({ decision: 'allow', hookSpecificOutput: { permissionDecision: 'deny' } }), 'deny');
    assert.equal(decision({ decision: 'ask', hookSpecificOutput: { permissionDecision: 'allow' } }), 'ask');
    assert.equal(decision({ continue: false, hookSpecificOutput: { permissionDecision: 'allow' } }), 'deny');
  });

  it('gives the reason the hook gave, from either form', () => {
    assert.deepEqual(readHookAnswer({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'secrets in the diff' } }), { decision: 'deny', reason: 'secrets in the diff' });
    assert.equal((readHookAnswer({ continue: false, stopReason: 'frozen' }) as { reason: string }).reason, 'frozen');
  });

  it("carries a changed input from 'modify' or Claude's updatedInput, and contexts from both", () => {
    assert.deepEqual(readHookAnswer({ hookSpecificOutput: { updatedInput: { path: 'src/auth/a.ts' }, additionalContext: 'moved' } }), {
      decision: 'allow',
      context: 'moved',
      updatedInput: { path: 'src/auth/a.ts' },
    });
    assert.deepEqual((readHookAnswer({ modify: { x: 1 } }) as { updatedInput: unknown }).updatedInput, { x: 1 });
  });

  it("reads a PermissionRequest's decision.behavior deny as a refusal", () => {
    assert.deepEqual(readHookAnswer({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no network' } } }), { decision: 'deny', reason: 'no network' });
  });

  it('treats a malformed answer as a failure, not an allow', () => {
    assert.match(decision({ continue: 'false' }), /^invalid/);
    assert.match(decision({ hookSpecificOutput: { decision: { behavior: 'sometimes' } } }), /^invalid/);
    assert.match(decision({ hookSpecificOutput: { permissionDecision: 'maybe' } }), /^invalid: .*permissionDecision 'maybe'/);
    assert.match(decision({ decision: 'sure' }), /^invalid/);
    assert.match(decision({ hookSpecificOutput: 'deny' }), /^invalid/);
    assert.match(decision({ hookSpecificOutput: { updatedInput: 'x' } }), /^invalid/);
  });
});
