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
