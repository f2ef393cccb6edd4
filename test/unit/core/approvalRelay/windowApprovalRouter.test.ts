import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { relayRoutes } from '../../../../src/core/approvalRelay/relayRoutes';
import { RELAY_ANSWER_PATH, RELAY_EVENTS_PATH, RELAY_KEY_HEADER } from '../../../../src/core/approvalRelay/relayProtocol';
import { WindowApprovalRouter } from '../../../../src/core/approvalRelay/windowApprovalRouter';
import { startHttpMcpServer, type HttpMcpServer } from '../../../../src/core/mcp/httpMcpServer';
import { bundledScript } from '../../../support/bundledScript';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';

const RELAY_KEY = 'relay-key-'.padEnd(43, 'k');
const LOGIN = 'src/auth/login.ts';

/** A VS Code window attached to the relay, as a child process (see relayWindowChild.ts). */
interface Window {
  child: ChildProcess;
  /** Resolves when the window has printed a line starting with `prefix`. */
  line(prefix: string): Promise<string>;
  /** Everything printed so far. */
  output(): string;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('approval relay: approvals go to the window the human uses', function () {
  this.timeout(60_000);
  let h: Harness;
  let server: HttpMcpServer;
  let router: WindowApprovalRouter;
  let notices: string[];
  const windows: ChildProcess[] = [];

  const openWindow = async (id: string, mode: 'approve' | 'session' | 'reject' | 'hold', focus: 'focused' | 'unfocused' = 'focused', key = RELAY_KEY): Promise<Window> => {
    const child = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', '..', 'support', 'relayWindowChild.ts')), `http://127.0.0.1:${server.port}`, server.token, key, id, mode, focus], { stdio: ['ignore', 'pipe', 'pipe'] });
    windows.push(child);
    let out = '';
    const waiters: Array<() => void> = [];
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      for (const wake of waiters.splice(0)) wake();
    });
    const line = (prefix: string) =>
      new Promise<string>((resolve, reject) => {
        const look = () => {
          const found = out.split('\n').find((l) => l.startsWith(prefix));
          if (found !== undefined) return resolve(found);
          if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`window ${id} ended without printing ${prefix}: ${out}`));
          waiters.push(look);
        };
        child.once('exit', look);
        look();
      });
    if (key === RELAY_KEY) await line('ready');
    return { child, line, output: () => out };
  };

  const write = (content: string) => h.bound('write_file', { path: LOGIN, content, expected_content_hash: undefined });

  beforeEach(async () => {
    h = await createHarness({ policy: { approval: 'every-change' } });
    notices = [];
    router = new WindowApprovalRouter({ id: 'serving', approver: h.approver, notice: (m) => notices.push(m) }, h.logger);
    h.governor.services.approver = router;
    server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: relayRoutes(router, RELAY_KEY, h.logger) });
  });
  afterEach(async () => {
    for (const child of windows.splice(0)) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await server.close();
    await h.dispose();
  });

  it("a write waits for the focused window's human; their Approve lands it, and the serving window only gets a notice", async () => {
    const focused = await openWindow('tab2', 'approve');
    const result = await write('approved elsewhere\n');
    assert.equal(codeOf(result), 'ok');
    assert.equal(await readFile(join(h.root, LOGIN), 'utf8'), 'approved elsewhere\n');
    assert.match(await focused.line('asked '), /write_file|login\.ts/);
    assert.equal(h.approver.requests.length, 0, 'the serving window showed no modal');
    assert.match(notices.join('\n'), /waiting for approval in another VS Code window/);
  });

  it('Approve for this Session clicked in another window stands for the session: the next write asks nobody', async () => {
    const focused = await openWindow('tab2', 'session');
    assert.equal(codeOf(await write('first\n')), 'ok');
    await focused.line('asked ');
    const second = await h.call('write_file', { path: LOGIN, content: 'second\n', expected_content_hash: `sha256:${createHash('sha256').update('first\n').digest('hex')}` });
    assert.equal(codeOf(second), 'ok');
    assert.equal(await readFile(join(h.root, LOGIN), 'utf8'), 'second\n');
    // A second question would have been printed by the window before its answer let the write through.
    assert.equal(focused.output().split('\n').filter((l) => l.startsWith('asked ')).length, 1, focused.output());
    assert.equal(h.approver.requests.length, 0);
  });

  it('a Reject in the focused window refuses the write', async () => {
    await openWindow('tab2', 'reject');
    assert.equal(codeOf(await write('rejected\n')), 'HITL_REJECT');
  });

  it('with no other window focused, the serving window asks itself', async () => {
    const other = await openWindow('tab2', 'approve', 'unfocused');
    router.focus('serving', true);
    h.approver.script(true);
    assert.equal(codeOf(await write('asked here\n')), 'ok');
    assert.equal(h.approver.requests.length, 1);
    assert.match(await other.line('notice '), /another VS Code window/);
  });

  it('a window that closes before answering hands the question to another window, never approving by its absence', async () => {
    const away = await openWindow('tab2', 'hold');
    h.approver.script(false);
    const pending = write('never\n');
    await away.line('asked ');
    away.child.kill('SIGKILL');
    assert.equal(codeOf(await pending), 'HITL_REJECT');
    assert.equal(h.approver.requests.length, 1, 'the serving window was asked once the other had gone');
  });

  it('when the agent stops waiting, the question is withdrawn from the window that shows it', async () => {
    const shown = await openWindow('tab2', 'hold');
    const stop = new AbortController();
    await h.governor.run({ tool: 'select_active_intent', input: { intent_id: 'auth-refactor' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });
    const pending = h.governor.run({ tool: 'write_file', input: { path: LOGIN, content: 'x\n' }, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute', signal: stop.signal });
    await shown.line('asked ');
    stop.abort();
    assert.equal(codeOf(await pending), 'HITL_REJECT');
    await shown.line('cancelled ');
  });

  it('a client without the relay key (an agent holding only the MCP token) can neither receive nor answer questions', async () => {
    const intruder = await openWindow('intruder', 'approve', 'focused', 'wrong-key'.padEnd(43, 'x'));
    assert.match(await intruder.line('closed '), /HTTP 403/);
    const headers = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' };
    const events = await fetch(`http://127.0.0.1:${server.port}${RELAY_EVENTS_PATH}?window=x`, { headers });
    assert.equal(events.status, 403);
    const answer = await fetch(`http://127.0.0.1:${server.port}${RELAY_ANSWER_PATH}`, { method: 'POST', headers, body: JSON.stringify({ window: 'x', id: 'y', decision: { approved: true, approver: 'me' } }) });
    assert.equal(answer.status, 403);
    const noToken = await fetch(`http://127.0.0.1:${server.port}${RELAY_EVENTS_PATH}?window=x`, { headers: { [RELAY_KEY_HEADER]: RELAY_KEY } });
    assert.equal(noToken.status, 401);
    h.approver.script(false);
    assert.equal(codeOf(await write('not by the intruder\n')), 'HITL_REJECT');
  });
});
