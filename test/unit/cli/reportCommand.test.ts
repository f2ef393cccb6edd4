import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BranchReport } from '../../../src/core/trace/branchReport';
import { agentSession, commitAndPush, createTeam, type Member, type Team } from '../../support/teamRepo';

/**
 * `governor report` with real git and the real CLI: a team's main holds reviewed records, bob's branch adds his
 * agent's changes, a refusal, an approved delete and his key; the report lists only what the branch added.
 */
describe('governor report: what agents did on a branch, for the pull request', function () {
  this.timeout(240_000);
  let team: Team;
  let lead: Member;
  let bob: Member;

  before(async () => {
    team = await createTeam();
    lead = await team.member('lead');
    lead.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    await lead.agentWrites('src/base.ts', 'export const base = 0;\n');
    commitAndPush(lead, 'Lead publishes a key; the base\'s agent change', 'main');

    bob = await team.member('bob');
    bob.git('checkout', '--quiet', '-b', 'feat');
    await bob.agentWrites('src/feature.ts', 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
    const refused = await agentSession(bob);
    try {
      const outside = await refused.call('write_file', { path: 'docs/notes.md', content: 'outside the plan\n' });
      assert.equal(outside.code, 'SCOPE_VIOLATION', outside.text);
      const wipe = await refused.call('run_command', { command: 'rm -rf src' });
      assert.equal(wipe.code, 'HITL_REJECT', wipe.text);
    } finally {
      await refused.close();
    }
    await bob.agentWrites('src/old.ts', 'old\n');
    const approved = await agentSession(bob, { approve: 'always' });
    try {
      const read = await approved.call('read_file', { path: 'src/old.ts' });
      assert.equal(read.code, undefined, read.text);
      const removed = await approved.call('delete_file', { path: 'src/old.ts' });
      assert.equal(removed.code, undefined, removed.text);
      const ran = await approved.call('run_command', { command: "printf 'one\\ntwo\\n' > src/gen.txt" });
      assert.equal(ran.code, undefined, ran.text);
    } finally {
      await approved.close();
    }
    commitAndPush(bob, 'feat: bob\'s agent and bob\'s key');
  });
  after(() => team.dispose());

  it('in CI, prints a summary line and a section per intent, and appends the markdown to the job summary', async () => {
    const summary = join(team.root, 'step-summary.md');
    const run = await team.ci(['report'], { branch: 'feat', env: { GITHUB_BASE_REF: 'main', GITHUB_STEP_SUMMARY: summary } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const md = run.stdout;
    const lines = md.split('\n');
    assert.match(lines[0], /^## Agent changes since the merge base of origin\/main and HEAD/);
    assert.equal(lines[2], '**4 changes by 1 agent across 1 intent · 2 refusals · 1 approval · 1 command run · new signer: bob**');
    assert.match(md, /^### Intent `app`: 4 changes by bob-agent/m);
    assert.match(md, /^\| `src\/feature\.ts` \| 1-3 \| created \| bob-agent \|$/m);
    assert.match(md, /^\| `src\/old\.ts` \| 1 \| created, deleted \| bob-agent \|$/m);
    assert.match(md, /^- cli:--approve always approved `delete_file` on `src\/old\.ts`$/m);
    assert.match(md, /^- refused `SCOPE_VIOLATION`: bob-agent asked `write_file` for `docs\/notes\.md`$/m);
    assert.match(md, /^- rejected `HITL_REJECT`: bob-agent asked `run_command` for `\$ rm -rf src`$/m);
    assert.match(md, /^\| `src\/gen\.txt` \| 1-2 \| created \| bob-agent \|$/m);
    assert.match(md, /^- bob-agent ran `run_command`, changing `src\/gen\.txt`$/m);
    assert.match(md, /\*\*New signers\*\*[^\n]*`bob`/);
    // The base's records were reviewed with the base: not listed.
    assert.doesNotMatch(md, /src\/base\.ts/);
    assert.equal(await readFile(summary, 'utf8'), `${md}\n`);
  });

  it('--json gives the same report for machines', async () => {
    const run = await bob.governor('report', '--base', 'main', '--json');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as BranchReport;
    assert.deepEqual(report.summary, { changes: 4, agents: 1, intents: 1, refusals: 2, approvals: 1, commands: 1, outOfScope: 0, newSigners: 1 });
    assert.deepEqual(report.newSigners, ['bob']);
    const [app] = report.intents;
    assert.equal(app.intent, 'app');
    assert.deepEqual(app.files.map((f) => [f.path, f.lines]), [['src/feature.ts', [{ start: 1, end: 3 }]], ['src/gen.txt', [{ start: 1, end: 2 }]], ['src/old.ts', [{ start: 1, end: 1 }]]]);
    assert.deepEqual(app.agents.map((a) => a.name), ['bob-agent']);
    assert.deepEqual(app.refusals.map((r) => [r.code, r.tool, r.paths]), [['SCOPE_VIOLATION', 'write_file', ['docs/notes.md']], ['HITL_REJECT', 'run_command', ['src']]]);
    assert.equal(app.refusals[1].command, 'rm -rf src');
    assert.deepEqual(app.commands.map((c) => [c.status, c.files]), [['refused', ['src']], ['ran', ['src/gen.txt']]]);
    assert.deepEqual(app.approvals.map((a) => [a.approver, a.tool, a.paths]), [['cli:--approve always', 'delete_file', ['src/old.ts']]]);
    assert.ok(report.baseRecords.some((b) => b.log === '.orchestration/agent_trace.jsonl' && b.records === 1), JSON.stringify(report.baseRecords));
    assert.ok(!JSON.stringify(report.intents).includes('src/base.ts'));
  });

  it('says what to do on a bad flag or no base (exit 2), and exits 1 when the base cannot be found', async () => {
    const unknown = await bob.governor('report', '--base', 'main', '--since', 'x');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /governor report: .*--since.*Run 'governor report --help'/);
    const noRef = await bob.governor('report', '--base');
    assert.equal(noRef.code, 2);
    assert.match(noRef.stderr, /governor report: .*--base.*Run 'governor report --help'/);
    const noBase = await bob.governor('report');
    assert.equal(noBase.code, 2);
    assert.match(noBase.stderr, /--base REF/);
    const missing = await bob.governor('report', '--base', 'no-such-branch');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no-such-branch is not a commit git knows here/);
    const help = await bob.governor('--help');
    assert.match(help.stdout, /^ {2}report +Pull request report/m);
  });

  // Last: it merges main into bob's branch.
  it('after main is merged back (the union puts the base\'s new records after the branch\'s), lists only the branch\'s', async () => {
    await lead.agentWrites('src/main2.ts', 'export const m = 2;\n');
    commitAndPush(lead, 'main moves on', 'main');
    bob.git('pull', '--quiet', '--no-rebase', '--no-edit', 'origin', 'main');
    const log = (await readFile(join(bob.dir, '.orchestration/agent_trace.jsonl'), 'utf8')).trim().split('\n');
    assert.match(log.at(-1) ?? '', /src\/main2\.ts/, 'the union merge put main\'s new record last');
    // origin/main: bob's own main never moved, and everything since it is, rightly, the branch's.
    const run = await bob.governor('report', '--base', 'origin/main', '--json');
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as BranchReport;
    assert.equal(report.summary.changes, 4);
    const paths = report.intents.flatMap((i) => i.files.map((f) => f.path));
    assert.ok(paths.includes('src/feature.ts') && !paths.includes('src/main2.ts') && !paths.includes('src/base.ts'), paths.join(', '));
    assert.deepEqual(report.dropped, []);
  });
});
