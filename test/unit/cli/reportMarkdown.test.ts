import { strict as assert } from 'node:assert';
import { reportMarkdown } from '../../../src/cli/reportMarkdown';
import { buildBranchReport, type ReportInputs } from '../../../src/core/trace/branchReport';
import { branchChange } from '../../support/branchChange';
import type { AgentTraceRecord, GovernanceRecord } from '../../../src/core/trace/traceRecord';

const change = (line: number, path: string, meta: Partial<AgentTraceRecord['metadata']> = {}) => branchChange(line, path, [[1, 1]], meta);

function markdown(records: ReportInputs['records'], outOfScope: ReportInputs['outOfScope'] = []): string {
  return reportMarkdown(buildBranchReport({ base: { commit: 'abc', said: 'main' }, records, baseRecords: [], dropped: [], outOfScope, newSigners: [] }));
}

describe('report markdown: read by a reviewer in seconds', () => {
  it('shows changes with no intent apart, out-of-scope paths with the scope, and unreadable lines', () => {
    const md = markdown({ trace: [change(1, 'src/a.ts'), change(2, 'x.ts', { intent_id: undefined, agent: 'cursor' })], governance: [], unreadable: 1 }, [{ traceLine: 1, intentId: 'app', path: 'src/a.ts', ownedScope: ['lib/**'] }]);
    assert.match(md, /^\*\*2 changes by 2 agents across 1 intent · 0 refusals · 0 approvals · 1 out of scope · no new signers\*\*$/m);
    assert.match(md, /^### No intent bound: 1 change by cursor \(m-1\)$/m);
    assert.match(md, /^- `src\/a\.ts` is outside `lib\/\*\*` \(trace line 1\)$/m);
    assert.match(md, /1 unreadable line/);
  });

  it('a recorded name cannot break the table or format the report', () => {
    const refusal: GovernanceRecord = { kind: 'governance', version: '1.0', id: 'g', timestamp: 't', tool: { name: 'x', version: '0' }, agent: { name: '**evil** <img>' }, intent_id: 'app', tool_name: 'write_file', decision: 'deny', code: 'SCOPE_VIOLATION', paths: ['a|b`c.ts'] };
    const md = markdown({ trace: [change(1, 'p|q.ts')], governance: [{ line: 1, record: refusal }], unreadable: 0 });
    assert.match(md, /^\| `p\\\|q\.ts` \| 1 \| modified \| claude \|$/m);
    assert.match(md, /\\\*\\\*evil\\\*\\\* \\<img\\>/);
    assert.match(md, /`` a\\\|b`c\.ts ``/);
  });
});
