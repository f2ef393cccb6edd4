import { strict as assert } from 'node:assert';
import type { HookVerdict } from '../../../../src/core/userHooks/hookVerdict';
import { mergeVerdicts } from '../../../../src/core/userHooks/hookVerdictMerge';

const v = (fields: Partial<HookVerdict> = {}): HookVerdict => ({ decision: 'none', failures: [], ...fields });
const merged = (...verdicts: [string, HookVerdict][]) => mergeVerdicts(verdicts.map(([hook, verdict]) => ({ hook, verdict })));

describe("mergeVerdicts: several hooks' answers on one event as one", () => {
  const decisions: [string, HookVerdict['decision'][], HookVerdict['decision']][] = [
    ['nothing at all', [], 'none'],
    ['none and none', ['none', 'none'], 'none'],
    ['allow beats none', ['none', 'allow'], 'allow'],
    ['ask beats allow', ['allow', 'ask', 'allow'], 'ask'],
    ['deny beats ask, whichever comes first', ['deny', 'ask'], 'deny'],
    ['deny beats everything', ['allow', 'ask', 'none', 'deny'], 'deny'],
  ];
  for (const [name, list, expected] of decisions) {
    it(`deny > ask > allow > none: ${name}`, () => assert.equal(mergeVerdicts(list.map((decision, i) => ({ hook: `h${i}`, verdict: v({ decision }) }))).decision, expected));
  }

  it("keeps the first deny's reason and author", () => {
    assert.deepEqual(merged(['a', v({ decision: 'ask', reason: 'big', decidedBy: 'a' })], ['b', v({ decision: 'deny', reason: 'first', decidedBy: 'b' })], ['c', v({ decision: 'deny', reason: 'second', decidedBy: 'c' })]), v({ decision: 'deny', reason: 'first', decidedBy: 'b' }));
  });

  it("keeps the first ask's reason, and names the hook when the verdict did not", () => {
    assert.deepEqual(merged(['a', v({ decision: 'allow' })], ['b', v({ decision: 'ask', reason: 'check this' })], ['c', v({ decision: 'ask', reason: 'later' })]), v({ decision: 'ask', reason: 'check this', decidedBy: 'b' }));
  });

  it('names nobody for an allow', () => {
    assert.deepEqual(merged(['a', v({ decision: 'allow', reason: 'fine', decidedBy: 'a' })]), v({ decision: 'allow' }));
  });

  it('lets the last changed input win', () => {
    assert.deepEqual(merged(['a', v({ updatedInput: { path: 'a' } })], ['b', v({})], ['c', v({ decision: 'allow', updatedInput: { path: 'c' } })]).updatedInput, { path: 'c' });
  });

  it('concatenates contexts and system messages in order, and keeps every failure', () => {
    const result = merged(
      ['a', v({ context: 'one', systemMessage: 'shown 1', failures: [{ hook: 'a', message: 'timed out' }] })],
      ['b', v({ context: 'two' })],
      ['c', v({ systemMessage: 'shown 2', failures: [{ hook: 'c', message: 'exit 1' }] })],
    );
    assert.deepEqual(result, v({ context: 'one\ntwo', systemMessage: 'shown 1\nshown 2', failures: [{ hook: 'a', message: 'timed out' }, { hook: 'c', message: 'exit 1' }] }));
  });

  it('lets the last changed tool output win, and leaves it out when no hook changed it', () => {
    assert.deepEqual(merged(['a', v({ updatedToolOutput: 'first' })], ['b', v({})], ['c', v({ updatedToolOutput: { text: 'last' } })]).updatedToolOutput, { text: 'last' });
    assert.ok(!('updatedToolOutput' in merged(['a', v()], ['b', v({ decision: 'allow' })])));
    assert.ok(!('updatedInput' in merged(['a', v()])));
  });

  it('the first stop wins', () => {
    assert.equal(merged(['a', v({ stop: 'first freeze' })], ['b', v({ stop: 'second freeze' })]).stop, 'first freeze');
  });

  it("passes one hook's pass-through fields on as they are", () => {
    const only = { updatedPermissions: [{ rule: 'Bash(ls)' }], watchPaths: ['src'], initialUserMessage: 'hello' };
    assert.deepEqual(merged(['a', v()], ['b', v({ passThrough: only })]).passThrough, only);
    assert.ok(!('passThrough' in merged(['a', v()], ['b', v()])));
  });

  it('merges pass-through fields: permission updates accumulate, watched paths join once, any retry retries, the last message wins', () => {
    const result = merged(
      ['a', v({ passThrough: { updatedPermissions: [{ rule: 'one' }], watchPaths: ['src', 'docs'], retry: true, initialUserMessage: 'first' } })],
      ['b', v({ passThrough: { watchPaths: ['test'] } })],
      ['c', v({ passThrough: { updatedPermissions: [{ rule: 'two' }], watchPaths: ['docs', 'lib'], retry: false, initialUserMessage: 'last' } })],
    );
    assert.deepEqual(result.passThrough, { updatedPermissions: [{ rule: 'one' }, { rule: 'two' }], watchPaths: ['src', 'docs', 'test', 'lib'], retry: true, initialUserMessage: 'last' });
  });

  it('keeps one side of a pass-through field the other hook did not set', () => {
    const result = merged(['a', v({ passThrough: { updatedPermissions: [{ rule: 'one' }] } })], ['b', v({ passThrough: { watchPaths: ['src'] } })]);
    assert.deepEqual(result.passThrough, { updatedPermissions: [{ rule: 'one' }], watchPaths: ['src'] });
    assert.deepEqual(merged(['a', v({ passThrough: { retry: false } })], ['b', v({ passThrough: { retry: false } })]).passThrough, { retry: false });
    assert.deepEqual(merged(['a', v({ passThrough: { retry: false } })], ['b', v({ passThrough: { retry: true } })]).passThrough, { retry: true });
  });

  it('stops when any hook stopped', () => {
    assert.equal(merged(['a', v({ decision: 'allow' })], ['b', v({ decision: 'deny', reason: 'freeze', stop: 'freeze' })]).stop, 'freeze');
    assert.equal(merged(['a', v()], ['b', v()]).stop, undefined);
  });
});
