import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../src/core/approval/approver';
import { abortSignalFor, type CancellationTokenLike } from '../../../src/host/cancellationSignal';
import { codeOf, createHarness } from '../../support/governorHarness';

/** Behaves like vscode.CancellationTokenSource: cancel() flips the flag and fires the event once. */
function tokenSource() {
  const events = new EventEmitter();
  const token: CancellationTokenLike & { isCancellationRequested: boolean } = {
    isCancellationRequested: false,
    onCancellationRequested(listener) {
      events.on('cancel', listener);
      return { dispose: () => events.off('cancel', listener) };
    },
  };
  return {
    token,
    cancel() {
      if (token.isCancellationRequested) return;
      token.isCancellationRequested = true;
      events.emit('cancel');
    },
    listeners: () => events.listenerCount('cancel'),
  };
}

describe('CancellationToken → AbortSignal (language model tools)', () => {
  it('aborts when the token is cancelled, and not before', () => {
    const source = tokenSource();
    const { signal } = abortSignalFor(source.token);
    assert.equal(signal.aborted, false);
    source.cancel();
    assert.equal(signal.aborted, true);
  });

  it('is aborted already for a token cancelled before the call', () => {
    const source = tokenSource();
    source.cancel();
    assert.equal(abortSignalFor(source.token).signal.aborted, true);
  });

  it('drops its listener once disposed, so finished calls do not pile up on the token', () => {
    const source = tokenSource();
    const adapter = abortSignalFor(source.token);
    assert.equal(source.listeners(), 1);
    adapter.dispose();
    assert.equal(source.listeners(), 0);
  });

  it('a chat that stops its request while the human is asked: the delete is refused and the late Approve unused', async () => {
    const h = await createHarness({ files: { 'src/auth/login.ts': 'export const login = 1;\n' } });
    try {
      const source = tokenSource();
      let approve!: (approved: boolean) => void;
      h.governor.services.approver = {
        approve(_request: ApprovalRequest): Promise<ApprovalDecision> {
          setImmediate(() => source.cancel()); // the user presses Stop while the modal is open
          return new Promise((resolve) => (approve = (approved) => resolve({ approved, approver: 'late-human' })));
        },
      };
      assert.equal(codeOf(await h.bound('read_file', { path: 'src/auth/login.ts' })), 'ok');
      const cancellation = abortSignalFor(source.token);
      const result = await h.governor.run({ tool: 'delete_file', input: { path: 'src/auth/login.ts' }, session_id: 's1', agent: { name: 'vscode-agent' } }, { mode: 'execute', signal: cancellation.signal });
      cancellation.dispose();
      approve(true);
      assert.equal(codeOf(result), 'HITL_REJECT');
      assert.match(result.ok ? '' : result.error.message, /cancelled: the agent stopped waiting/i);
      assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), 'export const login = 1;\n');
      assert.match(h.trace.governance.at(-1)?.message ?? '', /cancelled: the agent stopped waiting/i);
    } finally {
      await h.dispose();
    }
  });
});
