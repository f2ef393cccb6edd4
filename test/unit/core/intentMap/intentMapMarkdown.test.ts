import { strict as assert } from 'node:assert';
import { renderIntentMap } from '../../../../src/core/intentMap/intentMapMarkdown';
import type { IntentMapView } from '../../../../src/core/intentMap/intentMapView';

/** A view whose every string came from a hand-edited log or intents file. */
function hostileView(): IntentMapView {
  return {
    records: { trace: 1, governance: 1 },
    intents: [
      {
        id: 'evil',
        name: 'Nice name\n## injected heading <img src=x onerror=alert(1)> [click](https://evil.example) *bold* #',
        status: 'IN_PROGRESS',
        scope: ['src/**', 'a`b|c'],
        changes: 1,
        last: { id: 'r1', timestamp: '2026-01-01T00:00:00.000Z', agent: 'agent\u202Egnp.exe' },
        files: [
          {
            path: 'src/a|b\n| forged | row |.ts',
            state: 'present',
            lines: [[1, 2]],
            records: [{ id: 'r1', lines: [[1, 2]] }],
            changes: 1,
            last: { id: 'r1', timestamp: '2026-01-01T00:00:00.000Z', change: 'created' },
          },
        ],
        refusals: [{ code: 'SCOPE_VIOLATION', count: 1, last: { id: 'g1', timestamp: '2026-01-01T00:00:01.000Z', tool: 'write_file', paths: ['x`y'], line: 1 } }],
      },
    ],
  };
}

describe('intent map Markdown', () => {
  it('never lets a name, path or agent from the logs become a heading, a table row, a link or HTML', () => {
    const text = renderIntentMap(hostileView());
    const lines = text.split('\n');
    assert.deepEqual(lines.filter((l) => l.startsWith('## ')).length, 1, 'one heading per intent');
    assert.ok(text.includes('\\<img') && !/(?<!\\)</.test(text.replace('<!--', '').replace('-->', '')), 'HTML is escaped');
    assert.ok(text.includes('\\[click\\](https://evil.example)'), 'a link is escaped');
    assert.ok(text.includes('\\*bold\\*'));
    assert.ok(text.includes('\\u000a'), 'a newline is shown as an escape');
    assert.ok(text.includes('\\u202e'), 'a bidi override is shown as an escape');
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| File') && !l.startsWith('| Refused'));
    assert.equal(rows.length, 2, 'one file row and one refusal row');
    // Each row still has exactly five (or three) cells: every `|` inside a cell is escaped.
    const cells = (row: string) => row.slice(2, -2).split(/(?<!\\)\| /).length;
    assert.equal(cells(rows[0]), 5);
    assert.equal(cells(rows[1]), 3);
    assert.ok(text.includes('``a`b|c``'), 'a backtick in a scope glob gets a longer code fence');
  });

  it('says so when the intents file is invalid, and when there are no intents', () => {
    const text = renderIntentMap({ planProblem: 'line 3, column 5: status must be one of PLANNED, IN_PROGRESS', records: { trace: 0, governance: 0 }, intents: [] });
    assert.match(text, /\*\*The intents file is invalid\*\* \(line 3, column 5: status must be one of PLANNED, IN_PROGRESS\)/);
    assert.match(text, /No intents yet\./);
    assert.match(text, /From 0 trace records and 0 governance records\./);
  });
});
