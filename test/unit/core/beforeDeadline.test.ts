import { strict as assert } from 'node:assert';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeDeadline, CallDeadline } from '../../../src/core/beforeDeadline';

describe('beforeDeadline and CallDeadline', () => {
  it('a call whose deadline passes is told so, while its work is still running', async () => {
    const deadline = new CallDeadline(new AbortController().signal, 30);
    const answer = await beforeDeadline(new Promise(() => undefined), deadline.signal);
    assert.deepEqual(answer, { settled: false });
    assert.equal((deadline.signal.reason as DOMException).name, 'TimeoutError');
    deadline.dispose();
  });

  it('a call whose client went away is cancelled at once, with the client’s reason', async () => {
    const client = new AbortController();
    const deadline = new CallDeadline(client.signal, 60_000);
    client.abort(new Error('the hook gave up'));
    assert.equal(deadline.signal.aborted, true);
    assert.equal((deadline.signal.reason as Error).message, 'the hook gave up');
    deadline.dispose();
  });

  it('an answered call leaves nothing running: disposed, its deadline never fires', async () => {
    const client = new AbortController();
    const deadline = new CallDeadline(client.signal, 20);
    assert.deepEqual(await beforeDeadline(Promise.resolve('allow'), deadline.signal), { settled: true, value: 'allow' });
    deadline.dispose();
    client.abort();
    await delay(60);
    assert.equal(deadline.signal.aborted, false);
  });
});
