import { strict as assert } from 'node:assert';
import { SessionRegistry } from '../../../../src/core/sessions/sessionRegistry';

const MINUTE = 60_000;

describe('SessionRegistry bounds', () => {
  it('end frees the session’s ledger: its reads and their text are gone', () => {
    const sessions = new SessionRegistry();
    sessions.recordRead('claude:a', 'src/x.ts', 'sha256:1', 'x'.repeat(1000));
    assert.equal(sessions.lastRead('claude:a', 'src/x.ts')?.text?.length, 1000);
    sessions.end('claude:a');
    assert.equal(sessions.lastRead('claude:a', 'src/x.ts'), undefined);
    assert.deepEqual(sessions.stats(), { sessions: 0, reads: 0, textBytes: 0 });
  });

  it('keeps the total read text under its cap across sessions, least recently used text first, hashes kept', () => {
    const sessions = new SessionRegistry({ maxTextBytes: 10 });
    sessions.recordRead('a', 'f', 'sha256:a', 'aaaa');
    sessions.recordRead('b', 'f', 'sha256:b', 'bbbb');
    assert.equal(sessions.lastRead('a', 'f')?.text, 'aaaa'); // a's text is now the most recently used
    sessions.recordRead('c', 'f', 'sha256:c', 'cccc');
    assert.deepEqual(sessions.lastRead('b', 'f'), { hash: 'sha256:b' });
    assert.equal(sessions.lastRead('a', 'f')?.text, 'aaaa');
    assert.equal(sessions.lastRead('c', 'f')?.text, 'cccc');
    assert.equal(sessions.stats().textBytes, 8);
  });

  it('a re-read or a forgotten read gives its bytes back', () => {
    const sessions = new SessionRegistry({ maxTextBytes: 10 });
    sessions.recordRead('a', 'f', 'sha256:1', 'aaaaaaaa');
    sessions.recordRead('a', 'f', 'sha256:2', 'aaaaaaaaa');
    assert.equal(sessions.stats().textBytes, 9);
    sessions.forgetRead('a', 'f');
    assert.equal(sessions.stats().textBytes, 0);
  });

  it('forgets a session idle past the limit, but one that selected its own intent keeps it (and loses its reads)', () => {
    let now = 0;
    const sessions = new SessionRegistry({ idleMs: 30 * MINUTE, now: () => now });
    sessions.recordRead('bridge', 'f', 'sha256:1', 'text');
    sessions.bindIntent('mcp', 'auth-refactor');
    sessions.recordRead('mcp', 'f', 'sha256:2', 'text');
    now = 20 * MINUTE;
    sessions.recordRead('busy', 'f', 'sha256:3', 'text');
    now = 45 * MINUTE; // bridge and mcp idle for 45 minutes, busy for 25
    sessions.get('busy');
    assert.equal(sessions.lastRead('bridge', 'f'), undefined);
    assert.equal(sessions.lastRead('mcp', 'f'), undefined);
    assert.equal(sessions.boundIntentId('mcp'), 'auth-refactor');
    assert.equal(sessions.lastRead('busy', 'f')?.text, 'text');
    assert.deepEqual(sessions.stats(), { sessions: 2, reads: 1, textBytes: 4 });
  });
});
