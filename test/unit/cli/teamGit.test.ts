import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commitAndPush, createTeam, type Member, type Team } from '../../support/teamRepo';

const TRACE = '.orchestration/agent_trace.jsonl';

/**
 * The trace lives in a team's git: a bare origin, clones with their own homes, keys and identities, agents writing
 * through `governor mcp`, CI as a fresh clone. Ordinary history operations end green; what drops records ends red.
 */
describe('a team\'s git: the shared log through merges, rebases and reverts', function () {
  this.timeout(240_000);
  let team: Team;
  let lead: Member;

  /** Each member publishes their key in a commit of its own, as a team adds a developer. */
  async function join_(name: string, options?: { autocrlf?: boolean }): Promise<Member> {
    const m = await team.member(name, options);
    m.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    commitAndPush(m, `Add ${name}'s signing key`, 'main');
    return m;
  }

  beforeEach(async () => {
    team = await createTeam();
    lead = await join_('lead');
  });
  afterEach(() => team.dispose());

  it('sets up git on the first write: the logs merge as union with LF, scratch paths are ignored', async () => {
    await lead.agentWrites('src/a.ts', 'export const a = 1;\n');
    const attributes = await readFile(join(lead.dir, '.orchestration/.gitattributes'), 'utf8');
    assert.match(attributes, /^agent_trace\.jsonl merge=union eol=lf$/m);
    assert.match(attributes, /^governance_log\.jsonl merge=union eol=lf$/m);
    assert.match(lead.git('check-attr', 'merge', 'eol', '--', TRACE), /merge: union[\s\S]*eol: lf/);
    const ignored = await readFile(join(lead.dir, '.orchestration/.gitignore'), 'utf8');
    for (const line of ['*.lock', 'pending/', '*.tmp', 'intent_map.md']) assert.ok(ignored.split('\n').includes(line), line);
    // A lock folder left by a process stopped mid-rebuild is not staged by `git add -A`.
    await mkdir(join(lead.dir, '.orchestration/intent_map.md.lock'), { recursive: true });
    await writeFile(join(lead.dir, '.orchestration/intent_map.md.lock/owner-4242'), '{"pid":4242}');
    lead.git('add', '-A');
    const staged = lead.git('diff', '--cached', '--name-only');
    assert.doesNotMatch(staged, /\.lock|pending\/|intent_map\.md/);
    assert.match(staged, /agent_trace\.jsonl/);
  });

  it('two branches\' records merge without a conflict, on an autocrlf clone too, and CI stays green after the next write', async () => {
    await lead.agentWrites('src/setup.ts', 'export {};\n');
    commitAndPush(lead, 'First agent change', 'main');
    const alice = await join_('alice', { autocrlf: true });
    const bob = await join_('bob');
    lead.git('pull', '--quiet', '--no-rebase', 'origin', 'main');

    alice.git('checkout', '--quiet', '-b', 'feat-a');
    await alice.agentWrites('src/a.ts', 'export const a = 1;\n');
    commitAndPush(alice, 'feat-a');
    bob.git('checkout', '--quiet', '-b', 'feat-b');
    await bob.agentWrites('src/b.ts', 'export const b = 2;\n');
    commitAndPush(bob, 'feat-b');

    // The lead merges feat-a, then feat-b: no conflict in either log.
    lead.git('fetch', '--quiet', 'origin');
    lead.git('merge', '--quiet', '--no-edit', 'origin/feat-a');
    lead.git('merge', '--quiet', '--no-edit', 'origin/feat-b');
    lead.git('push', '--quiet', 'origin', 'main');
    const gate = await team.ci(['check', '--require-signatures']);
    assert.equal(gate.code, 0, gate.stdout + gate.stderr);

    // Bob fast-forwards to main (his anchor moved under him) and his agent writes once: no discontinuity note.
    bob.git('checkout', '--quiet', 'main');
    bob.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    await bob.agentWrites('src/b2.ts', 'export const b2 = 3;\n');
    assert.doesNotMatch(await readFile(join(bob.dir, TRACE), 'utf8'), /"discontinuity"/);
    commitAndPush(bob, 'after the merge');
    // The same on alice's autocrlf clone, after pull --rebase.
    alice.git('checkout', '--quiet', 'main');
    await alice.agentWrites('src/a2.ts', 'export const a2 = 4;\n');
    alice.git('add', '-A');
    alice.git('commit', '--quiet', '-m', 'alice on main');
    alice.git('pull', '--quiet', '--rebase', 'origin', 'main');
    await alice.agentWrites('src/a3.ts', 'export const a3 = 5;\n');
    assert.doesNotMatch(await readFile(join(alice.dir, TRACE), 'utf8'), /"discontinuity"|\r/);
    commitAndPush(alice, 'alice after rebase', 'main');

    const after = await team.ci(['check', '--require-signatures']);
    assert.equal(after.code, 0, after.stdout + after.stderr);
    const local = await alice.governor('check');
    assert.equal(local.code, 0, local.stdout + local.stderr);
  });

  it('a revert keeps the writer quiet locally, and check --base names the record the revert took and its commit', async () => {
    await lead.agentWrites('src/one.ts', '1\n');
    commitAndPush(lead, 'one', 'main');
    lead.git('checkout', '--quiet', '-b', 'undo');
    await lead.agentWrites('src/two.ts', '2\n');
    lead.git('add', '-A');
    lead.git('commit', '--quiet', '-m', 'two');
    lead.git('revert', '--no-edit', 'HEAD');
    await lead.agentWrites('src/three.ts', '3\n');
    assert.doesNotMatch(await readFile(join(lead.dir, TRACE), 'utf8'), /"discontinuity"/);
    // The revert took "two"'s record with it; main's records are all there.
    const kept = await lead.governor('check', '--base', 'main');
    assert.equal(kept.code, 0, kept.stdout);
    assert.match(kept.stdout, /ok {4}\.orchestration\/agent_trace\.jsonl: all \d+ record\(s\) of the merge base of main/);
    commitAndPush(lead, 'three');
    const gate = await lead.governor('check', '--base', 'HEAD~2', '--exact-base');
    assert.equal(gate.code, 1, gate.stdout);
    assert.match(gate.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl: record \d+ of the base's log \(id [0-9a-f-]+, intent app, agent [^)]+\) is gone/);
    assert.match(gate.stdout, /dropped by [0-9a-f]{12} "Revert "two"" \(lead <lead@example\.test>\)/);
  });

  it('a moved anchor git cannot explain: the writer\'s note fails every clone until one person\'s signed acceptance, pushed, clears it for all', async () => {
    await lead.agentWrites('src/one.ts', '1\n');
    commitAndPush(lead, 'one', 'main');
    const alice = await join_('alice');
    lead.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    // An uncommitted record thrown away by hand (git restore), then the next write: git does not account for that.
    lead.git('checkout', '--quiet', '-b', 'three');
    await lead.agentWrites('src/two.ts', '2\n');
    lead.git('checkout', '--', TRACE);
    await lead.agentWrites('src/three.ts', '3\n');
    assert.match(await readFile(join(lead.dir, TRACE), 'utf8'), /"kind":"discontinuity"/);
    commitAndPush(lead, 'three');
    const pr = { branch: 'three', env: { GITHUB_BASE_REF: 'main' } };
    const failing = await team.ci(['check', '--require-signatures'], pr);
    assert.equal(failing.code, 1, failing.stdout);
    assert.match(failing.stdout, /TAMPERED at line \d+: line \d+ records that a writer found the anchored head missing or moved/);
    alice.git('fetch', '--quiet', 'origin');
    alice.git('checkout', '--quiet', 'three');
    assert.equal((await alice.governor('check')).code, 1, 'alice, who did nothing, sees the note too');

    const accepted = await lead.governor('trace', 'reanchor');
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stdout, /agent_trace\.jsonl: appended an acceptance of 1 discontinuity note: commit and push it, and every clone accepts it/);
    const acceptance = (await readFile(join(lead.dir, TRACE), 'utf8')).trim().split('\n').at(-1) ?? '';
    assert.match(acceptance, /"kind":"acceptance"/);
    assert.match(acceptance, /"accepted_by":"lead <lead@example\.test>"/);
    commitAndPush(lead, 'Accept the discontinuity after checking it');
    const green = await team.ci(['check', '--require-signatures'], pr);
    assert.equal(green.code, 0, green.stdout);
    assert.match(green.stdout, /1 discontinuity accepted by the acceptance record at line \d+/);
    alice.git('pull', '--quiet', '--no-rebase', 'origin', 'three');
    const aliceCheck = await alice.governor('check');
    assert.equal(aliceCheck.code, 0, aliceCheck.stdout);
    await alice.agentWrites('src/four.ts', '4\n');
    assert.equal((await alice.governor('check')).code, 0);
  });

  it('check --base fails on a truncated log, a dropped middle record and a force-push that removed a teammate\'s records', async () => {
    for (const n of [1, 2, 3]) await lead.agentWrites(`src/f${n}.ts`, `${n}\n`);
    commitAndPush(lead, 'three records', 'main');
    const lines = (await readFile(join(lead.dir, TRACE), 'utf8')).split('\n').filter(Boolean);

    lead.git('checkout', '--quiet', '-b', 'cut');
    await writeFile(join(lead.dir, TRACE), `${lines.slice(0, 2).join('\n')}\n`);
    const truncated = await lead.governor('check', '--base', 'main');
    assert.equal(truncated.code, 1, truncated.stdout);
    assert.match(truncated.stdout, /record 3 of the base's log .* is gone/);

    await writeFile(join(lead.dir, TRACE), `${[lines[0], lines[2]].join('\n')}\n`);
    const middle = await lead.governor('check', '--base', 'main');
    assert.equal(middle.code, 1, middle.stdout);
    assert.match(middle.stdout, /record 2 of the base's log .* is gone/);
    lead.git('checkout', '--quiet', '--', TRACE);

    // Bob pushes a record; the lead force-pushes main without it. Against the previous tip, CI fails.
    const bob = await join_('bob');
    await bob.agentWrites('src/bob.ts', 'b\n');
    commitAndPush(bob, 'bob', 'main');
    const before = bob.git('rev-parse', 'HEAD').trim();
    lead.git('checkout', '--quiet', 'main');
    lead.git('push', '--quiet', '--force', 'origin', 'main');
    const forced = await team.ci(['check', '--base', before, '--exact-base']);
    assert.equal(forced.code, 1, forced.stdout);
    assert.match(forced.stdout, /record \d+ of the base's log \(id [^,]+, intent app, agent bob-agent\) is gone/);
  });

  it('merging main back, cherry-pick and a squash merge pass check --base; a new signer is named and refused on request', async () => {
    await lead.agentWrites('src/base.ts', 'base\n');
    commitAndPush(lead, 'base', 'main');
    const bob = await join_('bob');
    bob.git('checkout', '--quiet', '-b', 'feat');
    await bob.agentWrites('src/feat.ts', 'feat\n');
    commitAndPush(bob, 'feat');
    lead.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    await lead.agentWrites('src/main2.ts', 'main2\n');
    commitAndPush(lead, 'main moves on', 'main');

    bob.git('pull', '--quiet', '--no-rebase', '--no-edit', 'origin', 'main');
    const back = await bob.governor('check', '--base', 'origin/main');
    assert.equal(back.code, 0, back.stdout);

    lead.git('fetch', '--quiet', 'origin');
    lead.git('cherry-pick', 'origin/feat~0^{/feat}');
    assert.equal((await lead.governor('check', '--base', 'origin/main')).code, 0);
    lead.git('reset', '--quiet', '--hard', 'origin/main');
    lead.git('merge', '--squash', '--quiet', 'origin/feat');
    lead.git('commit', '--quiet', '-m', 'squash feat');
    const squashed = await lead.governor('check', '--base', 'origin/main', '--require-signatures');
    assert.equal(squashed.code, 0, squashed.stdout);

    // A branch that adds a signer and records signed by it: named, and refused with --require-known-signers.
    const eve = await team.member('eve');
    eve.git('checkout', '--quiet', '-b', 'eve');
    await eve.agentWrites('src/eve.ts', 'eve\n');
    commitAndPush(eve, 'eve');
    const named = await team.ci(['check', '--base', 'origin/main', '--require-signatures'], { branch: 'eve', env: { GITHUB_BASE_REF: 'main' } });
    assert.match(named.stdout, /new {3}signer eve: \.orchestration\/signers\/eve\.pub is added by this branch/);
    const refused = await team.ci(['check', '--require-known-signers'], { branch: 'eve', env: { GITHUB_BASE_REF: 'main' } });
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl lines \d+-\d+ are signed by eve, a signer this branch adds/);
  });

  it('sealing old records on main: a branch opened before merges cleanly, every clone and CI stay green, and a changed sealed record fails', async () => {
    for (const n of [1, 2, 3, 4]) await lead.agentWrites(`src/s${n}.ts`, `${n}\n`);
    commitAndPush(lead, 'four records', 'main');
    const whole = await readFile(join(lead.dir, TRACE), 'utf8');
    const alice = await join_('alice');
    alice.git('checkout', '--quiet', '-b', 'feat-a');
    await alice.agentWrites('src/a.ts', 'a\n');
    commitAndPush(alice, 'feat-a');

    lead.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    const sealed = await lead.governor('trace', 'seal', '--older-than', '0', '--keep', '2');
    assert.equal(sealed.code, 0, sealed.stdout + sealed.stderr);
    const segment = /sealed (\d+) records? into (\.orchestration\/sealed\/agent_trace\.\d{9}\.jsonl); 2 stay/.exec(sealed.stdout);
    assert.ok(segment, sealed.stdout);
    // The seal moves bytes, it does not change them: the segment and the working file are the log as it was.
    const moved = await readFile(join(lead.dir, segment[2]), 'utf8');
    assert.equal(moved + (await readFile(join(lead.dir, TRACE), 'utf8')), whole);
    assert.equal(moved.split('\n').filter(Boolean).length, Number(segment[1]));
    assert.match(lead.git('check-attr', 'eol', 'diff', '--', segment[2]), /eol: lf[\s\S]*diff: unset/);
    commitAndPush(lead, 'Seal old Agent Trace records', 'main');
    const sealedMain = lead.git('rev-parse', 'HEAD').trim();
    await lead.agentWrites('src/after.ts', 'after\n');
    assert.doesNotMatch(await readFile(join(lead.dir, TRACE), 'utf8'), /"discontinuity"/);
    commitAndPush(lead, 'after the seal', 'main');

    // The branch opened before the seal merges without a conflict; only the working file was merged.
    lead.git('fetch', '--quiet', 'origin');
    lead.git('merge', '--quiet', '--no-edit', 'origin/feat-a');
    assert.equal(await readFile(join(lead.dir, segment[2]), 'utf8'), moved);
    assert.equal((await readFile(join(lead.dir, TRACE), 'utf8')).split('\n').filter(Boolean).length, 2 + 1 + 1);
    const base = await lead.governor('check', '--base', sealedMain, '--require-signatures');
    assert.equal(base.code, 0, base.stdout);
    assert.match(base.stdout, /all \d+ record\(s\) of the merge base/);
    lead.git('push', '--quiet', 'origin', 'main');
    const gate = await team.ci(['check', '--require-signatures']);
    assert.equal(gate.code, 0, gate.stdout + gate.stderr);
    const verify = await team.ci(['trace', 'verify']);
    assert.match(verify.stdout, /merged|verified/, verify.stdout);

    // Alice pulls main over her branch's log and writes: no note, and her check is green.
    alice.git('checkout', '--quiet', 'main');
    alice.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    await alice.agentWrites('src/a2.ts', 'a2\n');
    assert.doesNotMatch(await readFile(join(alice.dir, TRACE), 'utf8'), /"discontinuity"/);
    const local = await alice.governor('check');
    assert.equal(local.code, 0, local.stdout + local.stderr);

    // A sealed record edited on a branch: check --base names it, though the working file is untouched.
    lead.git('checkout', '--quiet', '-b', 'edit-sealed');
    await writeFile(join(lead.dir, segment[2]), moved.replace('"src/s1.ts"', '"src/x1.ts"'));
    const edited = await lead.governor('check', '--base', 'main');
    assert.equal(edited.code, 1, edited.stdout);
    assert.match(edited.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl: record 1 of the base's log \(id [0-9a-f-]+, intent app, agent [^)]+\) is (gone|changed)/);
  });

  it('check says when the marks are missing and when a scratch file or the intent map is committed', async () => {
    await lead.agentWrites('src/a.ts', 'a\n');
    await writeFile(join(lead.dir, '.orchestration/.gitattributes'), '# emptied\n');
    await writeFile(join(lead.dir, '.orchestration/intent_map.md'), '# map\n');
    lead.git('add', '-f', '.orchestration/intent_map.md');
    const said = await lead.governor('check');
    assert.match(said.stdout, /warn {2}git: \.orchestration\/agent_trace\.jsonl is not marked merge=union eol=lf/);
    assert.match(said.stdout, /warn {2}git: \.orchestration\/intent_map\.md is committed.*git rm --cached \.orchestration\/intent_map\.md/);
    assert.ok(existsSync(join(lead.dir, '.orchestration/.gitignore')));
  });

  it('hooks install writes the git files before any record, and doctor puts back what was removed and says what is committed', async () => {
    const installed = await lead.governor('hooks', 'install', '--agent', 'cursor');
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /git: \.orchestration\/\.gitattributes written \(commit it/);
    assert.equal(existsSync(join(lead.dir, TRACE)), false, 'no record was written');
    assert.match(lead.git('check-attr', 'merge', '--', TRACE), /merge: union/);
    await writeFile(join(lead.dir, '.orchestration/.gitattributes'), '*.md text\n');
    await mkdir(join(lead.dir, '.orchestration/pending'), { recursive: true });
    await writeFile(join(lead.dir, '.orchestration/pending/entry.json'), '{}');
    lead.git('add', '-f', '.orchestration/pending/entry.json');
    const doctor = await lead.governor('doctor', '--json');
    const check = (JSON.parse(doctor.stdout) as { checks: { id: string; verdict: string; detail: string; fix?: string }[] }).checks.find((c) => c.id === 'git-setup');
    assert.ok(check, doctor.stdout);
    assert.equal(check.verdict, 'warning');
    assert.match(check.detail, /scratch file\(s\) of the governor's writers are committed \(\.orchestration\/pending\/entry\.json\)/);
    assert.match(check.fix ?? '', /git rm -r --cached \.orchestration\/pending/);
    const attributes = await readFile(join(lead.dir, '.orchestration/.gitattributes'), 'utf8');
    assert.match(attributes, /^\*\.md text$/m, 'the line a person wrote is kept');
    assert.match(attributes, /^agent_trace\.jsonl merge=union eol=lf$/m);
  });
});
