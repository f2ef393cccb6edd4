import { strict as assert } from 'node:assert';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { traceViewText } from '../../../../src/host/trace/traceView';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

describe("Show Agent Trace's view: readable in an editor beside the chat", () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
  });
  afterEach(() => ws.dispose());

  it('keeps every line within 80 columns: a narrow row per record, its model and each file with its changed lines below it', async () => {
    const sink = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never' });
    await sink.recordMutation(mutationEvent({
      agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5-20250929' },
      intent_id: 'auth-refactor',
      files: [
        { path: 'src/auth/session/tokens.ts', before: 'a\nb\n', after: 'a\nB\nc\n' },
        { path: 'src/auth/login.ts', before: '', after: 'x\n' },
        { path: 'src/auth/old name.ts', before: 'gone\n' },
      ],
    }));
    await sink.close();
    const lines = (await traceViewText(ws.root)).split('\n');
    const long = lines.filter((line) => line.length > 80);
    assert.deepEqual(long, [], 'no line runs past 80 columns');
    const header = lines.findIndex((line) => /^LINE +TIME +INTENT +AGENT +DECISION$/.test(line));
    assert.ok(header > 0, lines.join('\n'));
    const row = lines.findIndex((line) => /^1 +2026-01-01T12:00:\d\dZ +auth-refactor +claude-code +allow$/.test(line));
    assert.ok(row > header, lines.join('\n'));
    assert.deepEqual(lines.slice(row + 1, row + 5), ['      model claude-sonnet-4-5-20250929', '      src/auth/session/tokens.ts:2-3', '      src/auth/login.ts:1', '      src/auth/old name.ts (deleted)'], 'a path with a space and a deleted file stay on one line each');
  });
});
