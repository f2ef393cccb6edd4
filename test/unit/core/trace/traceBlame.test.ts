import { strict as assert } from 'node:assert';
import { blameFile } from '../../../../src/core/trace/traceBlame';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const F = ['import { x } from "./x";', 'export function f() {', '  return x;', '}'];
const G = ['export function g() {', '  return 2;', '}'];
const text = (lines: string[]) => `${lines.join('\n')}\n`;

describe('traceBlame', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-F', agent: { name: 'agent-f', model_id: 'model-f' }, timestamp: '2026-01-01T10:00:00.000Z',
      files: [{ path: 'src/mod.ts', after: text(F) }],
    }));
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-G', agent: { name: 'agent-g' }, timestamp: '2026-01-01T11:00:00.000Z',
      files: [{ path: 'src/mod.ts', before: text(F), after: text([...F, ...G]) }],
    }));
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-OTHER', timestamp: '2026-01-01T12:00:00.000Z',
      files: [{ path: 'src/other.ts', after: text(G) }],
    }));
    await sink.close();
  });
  afterEach(() => ws.dispose());

  it('attributes each line to the record that wrote it, even after a human moved blocks around', async () => {
    const current = text(['// added by a human', ...G, '', ...F]);
    const lines = await blameFile(ws.trace, 'src/mod.ts', current);
    assert.deepEqual(
      lines.map((l) => [l.line, l.intentId ?? '-', l.agent ?? '-', l.model ?? '-']),
      [
        [1, '-', '-', '-'],
        [2, 'INT-G', 'agent-g', '-'],
        [3, 'INT-G', 'agent-g', '-'],
        [4, 'INT-G', 'agent-g', '-'],
        [5, '-', '-', '-'],
        [6, 'INT-F', 'agent-f', 'model-f'],
        [7, 'INT-F', 'agent-f', 'model-f'],
        [8, 'INT-F', 'agent-f', 'model-f'],
        [9, 'INT-F', 'agent-f', 'model-f'],
      ],
    );
    assert.match(lines[1].recordId!, /^[0-9a-f-]{36}$/);
    assert.equal(lines[1].timestamp, '2026-01-01T11:00:00.000Z');
  });

  it('gives a line to the newest record when several wrote the same content', async () => {
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-REDO', agent: { name: 'agent-redo' }, timestamp: '2026-01-02T09:00:00.000Z',
      files: [{ path: 'src/mod.ts', before: '', after: text(G) }],
    }));
    await sink.close();
    const lines = await blameFile(ws.trace, 'src/mod.ts', text([...F, ...G]));
    assert.deepEqual(lines.map((l) => l.intentId), ['INT-F', 'INT-F', 'INT-F', 'INT-F', 'INT-REDO', 'INT-REDO', 'INT-REDO']);
  });

  it('leaves every line unattributed for a file the trace never touched, and edited lines (the rest of their range keeps its record)', async () => {
    assert.ok((await blameFile(ws.trace, 'src/new.ts', text(F))).every((l) => l.recordId === undefined));
    const edited = await blameFile(ws.trace, 'src/mod.ts', text([...F, 'export function g() {', '  return 3;', '}']));
    assert.deepEqual(edited.slice(4).map((l) => l.intentId), ['INT-G', undefined, 'INT-G'], 'the g range no longer matches as a whole; its unchanged lines do');
  });

  it('matches content regardless of CRLF line endings in the current file', async () => {
    const lines = await blameFile(ws.trace, 'src/mod.ts', [...F, ...G].join('\r\n'));
    assert.ok(lines.every((l) => l.intentId !== undefined));
  });

  it('after an edit of line 3 of a record\'s 2-3 range, the unchanged line 2 stays that record\'s (issue 24)', async () => {
    const sink = ws.sink();
    const before = text(['a', 'b', 'c', 'd']);
    const after = text(['a', 'B2', 'C3', 'd']);
    await sink.recordMutation(mutationEvent({ intent_id: 'INT-BASE', timestamp: '2026-01-03T09:00:00.000Z', files: [{ path: 'src/r.ts', after: before }] }));
    await sink.recordMutation(mutationEvent({ intent_id: 'INT-23', timestamp: '2026-01-03T10:00:00.000Z', files: [{ path: 'src/r.ts', before, after }] }));
    await sink.close();
    const lines = await blameFile(ws.trace, 'src/r.ts', text(['a', 'B2', 'C3 edited by a person', 'd']));
    assert.deepEqual(lines.map((l) => l.intentId ?? '(unattributed)'), ['INT-BASE', 'INT-23', '(unattributed)', 'INT-BASE']);
    // Lines moved down by an insertion above still find their record.
    const moved = await blameFile(ws.trace, 'src/r.ts', text(['new', 'a', 'B2', 'C3 edited', 'd']));
    assert.deepEqual(moved.map((l) => l.intentId ?? '-'), ['-', 'INT-BASE', 'INT-23', '-', 'INT-BASE']);
  });
});
