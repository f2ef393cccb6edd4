// Mutation testing of the security core (CONTRIBUTING.md, "Mutation testing"): runs StrykerJS on the modules in
// stryker.config.mjs, incrementally against the committed reports/mutation-incremental.json, then prints the score of
// each module and fails when one is below the threshold.
//   node scripts/mutation.mjs              incremental: only mutants in changed code or reached by changed tests run
//   node scripts/mutation.mjs --force      every mutant runs again
//   node scripts/mutation.mjs --report     also rewrites reports/mutation-score.md (commit it with the incremental file)
//   node scripts/mutation.mjs --scores     no run: the scores of the last run only
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTATE } from '../stryker.config.mjs';
import { MUTATION_THRESHOLD, scoreTable, scoresByModule } from './mutationScores.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const reportJson = join(root, 'reports', 'mutation', 'mutation.json');

let seconds;
if (!args.has('--scores')) {
  const started = Date.now();
  const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const run = spawnSync(process.execPath, ['--require', join(root, 'scripts', 'stryker-mocha12.cjs'), stryker, 'run', '--incremental', ...(args.has('--force') ? ['--force'] : [])], { cwd: root, stdio: 'inherit' });
  seconds = Math.round((Date.now() - started) / 1000);
  if (run.status !== 0) {
    console.error(`mutation: StrykerJS exited ${run.status ?? run.signal}; no scores`);
    process.exit(1);
  }
}

const report = JSON.parse(readFileSync(reportJson, 'utf8'));
// The report carries results it reused for modules no longer mutated: only the configured ones are held.
const scores = scoresByModule({ files: Object.fromEntries(Object.entries(report.files).filter(([file]) => MUTATE.includes(file))) });
const table = scoreTable(scores);
console.log(`\n${table}`);
const below = scores.filter((row) => row.score < MUTATION_THRESHOLD);

if (args.has('--report')) {
  const when = new Date().toISOString().slice(0, 10);
  const took = seconds === undefined ? '' : `, ${Math.floor(seconds / 60)} min ${seconds % 60} s on ${cpus().length} cores (${args.has('--force') ? 'every mutant' : 'incremental'})`;
  const text = [
    '# Mutation score of the security core',
    '',
    `Made by \`npm run test:mutation -- ${args.has('--force') ? '--force ' : ''}--report\` on ${when}${took}. Score = killed (timeouts included) over`,
    'killed plus survived plus not covered; mutants marked equivalent in the source (`// Stryker disable … : why`) are',
    `left out. CI fails when a module is below ${MUTATION_THRESHOLD}%.`,
    '',
    table,
    '',
  ].join('\n');
  writeFileSync(join(root, 'reports', 'mutation-score.md'), text);
}

if (below.length > 0) {
  console.error(`mutation: below ${MUTATION_THRESHOLD}%: ${below.map((row) => `${row.file} (${row.score.toFixed(1)}%)`).join(', ')}; see reports/mutation/index.html for the survivors`);
  process.exit(1);
}
console.log(`mutation: every module is at ${MUTATION_THRESHOLD}% or more`);
