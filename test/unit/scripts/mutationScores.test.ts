import { strict as assert } from 'node:assert';
// @ts-expect-error: a plain ESM script of scripts/ with no type declarations
import { MUTATION_THRESHOLD, scoreTable, scoresByModule } from '../../../scripts/mutationScores.mjs';

const mutants = (statuses: Record<string, number>): { status: string }[] => Object.entries(statuses).flatMap(([status, n]) => Array.from({ length: n }, () => ({ status })));

describe('mutation scores: what CI holds each security module to', () => {
  it('counts timeouts as killed, uncovered mutants as survivors, and leaves equivalents and compile errors out', () => {
    const [row] = scoresByModule({ files: { 'src/core/a.ts': { mutants: mutants({ Killed: 7, Timeout: 2, Survived: 1, NoCoverage: 1, Ignored: 4, CompileError: 3 }) } } });
    assert.deepEqual({ ...row, score: Number(row.score.toFixed(2)) }, { file: 'src/core/a.ts', killed: 9, survived: 2, equivalent: 4, score: 81.82 });
    assert.ok(row.score < MUTATION_THRESHOLD, 'a module at 81.8% is below the threshold CI holds');
  });

  it('prints one row per module, sorted, and the whole run last', () => {
    const table = scoreTable(scoresByModule({ files: { 'src/b.ts': { mutants: mutants({ Killed: 1, Survived: 1 }) }, 'src/a.ts': { mutants: mutants({ Killed: 3 }) } } }));
    const rows = table.split('\n');
    assert.equal(rows[2], '| `src/a.ts` | 3 | 0 | 0 | 100.0% |');
    assert.equal(rows[3], '| `src/b.ts` | 1 | 1 | 0 | 50.0% |');
    assert.equal(rows[4], '| **all** | 4 | 1 | 0 | 80.0% |');
  });
});
