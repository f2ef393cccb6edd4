import { strict as assert } from 'node:assert';
import { isToolError, toolError } from '../../../src/core/toolError';

describe('toolError', () => {
  it('builds the JSON an agent receives, with meta only when given', () => {
    assert.deepEqual(toolError('STALE_FILE', 'changed'), { type: 'tool_error', code: 'STALE_FILE', message: 'changed' });
    assert.deepEqual(toolError('HOOK_ERROR', 'x', { hook: 'h' }).meta, { hook: 'h' });
  });
  it('recognises tool errors and nothing else', () => {
    assert.equal(isToolError(toolError('INVALID_INPUT', 'bad')), true);
    assert.equal(isToolError({ type: 'tool_error', code: 'X' }), false);
    assert.equal(isToolError(null), false);
  });
});
