import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { agentHookRoute } from '../../../../src/core/bridge/agentHookRoute';
import type { BridgeAnswer, BridgeRequest } from '../../../../src/core/agents/common/nativeCall';
import { RESIDENT_HEADERS } from '../../../../src/core/agents/common/residentProtocol';
import { startLocalServer, type LocalServer } from '../../../../src/core/localServer/localServer';
import { RecordingLogger } from '../../../support/governorHarness';

/** A post answered at once and recorded after: which of the session's next calls wait for that recording. */
describe('agentHookRoute: a post recorded after its answer', () => {
  let root: string;
  let server: LocalServer;
  /** What the governor was asked, in order, paths relative to the workspace: `start post src/a.ts`, `end post src/a.ts`, … */
  let seen: string[];
  let releaseRecording: () => void;

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'ig-agent-hook-route-'));
    mkdirSync(join(root, '.orchestration'));
    seen = [];
    let recordingHeld = Promise.resolve();
    const decide = async (request: BridgeRequest): Promise<BridgeAnswer> => {
      const what = `${request.phase} ${request.calls.map((call) => ('path' in call.input ? relative(root, call.input.path) : call.input.command)).join(',')}`;
      seen.push(`start ${what}`);
      if (request.phase === 'post') await recordingHeld;
      seen.push(`end ${what}`);
      return { decision: 'allow' };
    };
    recordingHeld = new Promise<void>((resolve) => (releaseRecording = resolve));
    server = await startLocalServer({
      logger: new RecordingLogger(),
      routes: [agentHookRoute({ decide, governs: () => true, env: {}, intentFromEnv: false, answerPostEarly: () => true })],
    });
  });

  afterEach(async () => {
    releaseRecording();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const call = async (event: 'BeforeTool' | 'AfterTool', tool: string, input: Record<string, unknown>): Promise<number> => {
    const response = await fetch(`${server.origin}/agent-hook`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', [RESIDENT_HEADERS.agent]: 'gemini', [RESIDENT_HEADERS.cwd]: root, [RESIDENT_HEADERS.timeoutMs]: '5000' },
      body: JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: event, tool_name: tool, tool_input: input, ...(event === 'AfterTool' ? { tool_response: { llmContent: 'ok' } } : {}) }),
    });
    await response.text();
    return response.status;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('answers the post at once, and a write of another file is judged while that post is still being recorded', async () => {
    assert.equal(await call('AfterTool', 'write_file', { file_path: 'src/a.ts', content: 'a' }), 200);
    assert.equal(await call('BeforeTool', 'write_file', { file_path: 'src/b.ts', content: 'b' }), 200);
    assert.deepEqual(seen, ['start post src/a.ts', 'start pre src/b.ts', 'end pre src/b.ts']);
    releaseRecording();
    await settle();
    assert.deepEqual(seen.slice(3), ['end post src/a.ts']);
  });

  it('holds back an edit of the file being recorded (its basis moves with the record), in any spelling, until it is recorded', async () => {
    await call('AfterTool', 'write_file', { file_path: 'src/a.ts', content: 'a' });
    const edit = call('BeforeTool', 'replace', { file_path: join(root, 'src/A.ts'), old_string: 'a', new_string: 'b' });
    await settle();
    assert.deepEqual(seen, ['start post src/a.ts'], 'the edit was judged before the write it edits was recorded');
    releaseRecording();
    assert.equal(await edit, 200);
    assert.deepEqual(seen, ['start post src/a.ts', 'end post src/a.ts', 'start pre src/A.ts', 'end pre src/A.ts']);
  });

  it('holds back a command until the recording is done (it may name any file)', async () => {
    await call('AfterTool', 'write_file', { file_path: 'src/a.ts', content: 'a' });
    const command = call('BeforeTool', 'run_shell_command', { command: 'ls' });
    await settle();
    assert.deepEqual(seen, ['start post src/a.ts']);
    releaseRecording();
    await command;
    assert.deepEqual(seen.slice(0, 3), ['start post src/a.ts', 'end post src/a.ts', 'start pre ls']);
  });

  it('holds back the next post until the previous one is recorded, so records keep their order', async () => {
    await call('AfterTool', 'write_file', { file_path: 'src/a.ts', content: 'a' });
    const next = call('AfterTool', 'write_file', { file_path: 'src/b.ts', content: 'b' });
    await settle();
    assert.deepEqual(seen, ['start post src/a.ts']);
    releaseRecording();
    assert.equal(await next, 200);
    await settle();
    assert.deepEqual(seen, ['start post src/a.ts', 'end post src/a.ts', 'start post src/b.ts', 'end post src/b.ts']);
  });
});

/** A governor that never answers (a step below it that does not listen to its signal): the launcher still gets a refusal in time. */
describe('agentHookRoute: an answer before the deadline, whatever the governor does', () => {
  let root: string;
  let server: LocalServer;
  let logger: RecordingLogger;
  let stuck: Promise<never>;
  /** What the route reported as stalled (a headless resident stops serving on it). */
  let stalled: string[];

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'ig-agent-hook-route-'));
    mkdirSync(join(root, '.orchestration'));
    logger = new RecordingLogger();
    stuck = new Promise<never>(() => undefined);
    stalled = [];
    server = await startLocalServer({
      logger,
      // Pres and the post recorded after its answer all wait for ever, and ignore the signal they are given.
      routes: [agentHookRoute({ decide: () => stuck, governs: () => true, env: {}, intentFromEnv: false, answerPostEarly: () => true, logger, stalled: (what) => stalled.push(what) })],
    });
  });

  afterEach(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** One Gemini CLI hook event with a 1.2 s hook timeout: the route's deadline is 0.2 s. */
  const call = async (event: 'BeforeTool' | 'AfterTool', input: Record<string, unknown>): Promise<{ status: number; text: string; ms: number }> => {
    const started = performance.now();
    const response = await fetch(`${server.origin}/agent-hook`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', [RESIDENT_HEADERS.agent]: 'gemini', [RESIDENT_HEADERS.cwd]: root, [RESIDENT_HEADERS.timeoutMs]: '1200' },
      body: JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: event, tool_name: 'write_file', tool_input: input, ...(event === 'AfterTool' ? { tool_response: { llmContent: 'ok' } } : {}) }),
    });
    return { status: response.status, text: await response.text(), ms: performance.now() - started };
  };

  it('refuses a call whose judgement never ends, with the reason, before the hook times out, and notes it in the log', async () => {
    const answer = await call('BeforeTool', { file_path: 'src/a.ts', content: 'a' });
    assert.equal(answer.status, 200);
    assert.ok(answer.ms < 1200, `answered after ${answer.ms} ms`);
    assert.match(answer.text, /did not decide within 1200 ms \(it was waiting on its judgement\), so the call is refused \(fail closed\)/);
    assert.doesNotMatch(answer.text, /"decision":"allow"/);
    assert.match(logger.lines.join('\n'), /warn gemini PreToolUse \(write_file\) in session gemini:s1 was not decided within 1200 ms, waiting on its judgement: refused/);
    assert.deepEqual(stalled, ['gemini PreToolUse (write_file) in session gemini:s1'], 'a headless resident is told, so it can hand the workspace over');
  });

  it("refuses an edit held back by a recording that never ends, saying what it waited on, and answers the next one too", async () => {
    assert.equal((await call('AfterTool', { file_path: 'src/a.ts', content: 'a' })).status, 200);
    for (let round = 0; round < 2; round += 1) {
      const answer = await call('BeforeTool', { file_path: 'src/a.ts', content: 'b' });
      assert.ok(answer.ms < 1200, `answered after ${answer.ms} ms`);
      assert.match(answer.text, /did not decide within 1200 ms \(it was waiting on the recording of the session's previous change\)/);
    }
  });
});
