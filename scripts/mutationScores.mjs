// The scores of a StrykerJS report (mutation-testing-report-schema), one row per mutated module.

/** The score every mutated module must reach (killed over killed, survived and uncovered; equivalents left out). */
export const MUTATION_THRESHOLD = 90;

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/**
 * Per file: killed, survived (not covered counted as survived: a mutant no test reaches is a bug no test catches),
 * the equivalents marked in the source (Ignored) and the score. Compile and runtime errors are not valid mutants.
 * @param {{ files: Record<string, { mutants: { status: string }[] }> }} report
 */
export function scoresByModule(report) {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const killed = mutants.filter((m) => DETECTED.has(m.status)).length;
      const survived = mutants.filter((m) => UNDETECTED.has(m.status)).length;
      const equivalent = mutants.filter((m) => m.status === 'Ignored').length;
      const valid = killed + survived;
      return { file, killed, survived, equivalent, score: valid === 0 ? 100 : (100 * killed) / valid };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** @param {ReturnType<typeof scoresByModule>} scores a markdown table, with the whole run's row last */
export function scoreTable(scores) {
  const total = scores.reduce((sum, row) => ({ killed: sum.killed + row.killed, survived: sum.survived + row.survived, equivalent: sum.equivalent + row.equivalent }), { killed: 0, survived: 0, equivalent: 0 });
  const all = total.killed + total.survived;
  const line = (name, row, score) => `| ${name} | ${row.killed} | ${row.survived} | ${row.equivalent} | ${score.toFixed(1)}% |`;
  return [
    '| module | killed | survived | equivalent | score |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...scores.map((row) => line(`\`${row.file}\``, row, row.score)),
    line('**all**', total, all === 0 ? 100 : (100 * total.killed) / all),
  ].join('\n');
}
