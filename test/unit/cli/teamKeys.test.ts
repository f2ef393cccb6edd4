import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGovernor } from '../../support/runGovernor';
import { commitAndPush, createTeam, type Member, type Team } from '../../support/teamRepo';

const TRACE = '.orchestration/agent_trace.jsonl';
const REVOKED = '.orchestration/signers/revoked';

/**
 * Keys as a team runs them, with real git (a bare origin, clones with their own homes, keys and identities), agents
 * through `governor mcp`, and CI as a fresh clone: a revocation takes effect from where it was made, and every key
 * message names the person, the .pub to commit and the command to run.
 */
describe('a team\'s keys: revoking from where the logs stood, and messages that name the person', function () {
  this.timeout(240_000);
  let team: Team;
  let lead: Member;

  /** A member publishes their key in a commit of their own, as a team adds a developer. */
  async function join_(name: string): Promise<Member> {
    const m = await team.member(name);
    m.git('pull', '--quiet', '--no-rebase', 'origin', 'main');
    commitAndPush(m, `Add ${name}'s signing key`, 'main');
    return m;
  }

  const pull = (m: Member) => m.git('pull', '--quiet', '--no-rebase', 'origin', 'main');

  beforeEach(async () => {
    team = await createTeam();
    lead = await join_('lead');
  });
  afterEach(() => team.dispose());

  it('records signed before a revocation pass CI, the revoked key signs nothing more, and a record after the point fails naming bob', async () => {
    const alice = await join_('alice');
    const bob = await join_('bob');
    pull(alice);
    await alice.agentWrites('src/a.ts', 'export const a = 1;\n');
    commitAndPush(alice, 'alice\'s agent change', 'main');
    pull(bob);
    await bob.agentWrites('src/b.ts', 'export const b = 2;\n');
    commitAndPush(bob, 'bob\'s agent change', 'main');

    // The lead revokes bob's key where the logs stand now, and commits what the command names.
    pull(lead);
    const revoked = await lead.governor('keys', 'revoke', 'bob');
    assert.equal(revoked.code, 0, revoked.stdout + revoked.stderr);
    assert.match(revoked.stdout, /moved \.orchestration\/signers\/bob\.pub to \.orchestration\/signers\/revoked\/bob\.pub/);
    assert.match(revoked.stdout, /wrote \.orchestration\/signers\/revoked\/bob\.json/);
    const commit = /git add -A \.orchestration\/signers && git commit -m "Revoke bob's signing key"/;
    assert.match(revoked.stdout, commit);
    const point = JSON.parse(await readFile(join(lead.dir, REVOKED, 'bob.json'), 'utf8'));
    const traceLines = (await readFile(join(lead.dir, TRACE), 'utf8')).trim().split('\n');
    assert.deepEqual(point.logs[TRACE], { records: traceLines.length, last_hash: JSON.parse(traceLines.at(-1) as string).metadata.hash });
    lead.git('add', '-A', '.orchestration/signers');
    lead.git('commit', '--quiet', '-m', 'Revoke bob\'s signing key');
    lead.git('push', '--quiet', 'origin', 'main');
    const missing = await lead.governor('keys', 'revoke', 'nobody');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /There is no \.orchestration\/signers\/nobody\.pub\. `governor keys list` shows the signers/);

    // CI: bob's records from before the revocation were signed while his key was trusted.
    const green = await team.ci(['check', '--require-signatures']);
    assert.equal(green.code, 0, green.stdout + green.stderr);
    assert.match(green.stdout, /signed by bob \(ed25519:[0-9a-f]{32}\) before its revocation\n/);

    // Bob pulls the revocation: his agent's next write is refused, and nothing lands.
    pull(bob);
    const before = await readFile(join(bob.dir, TRACE), 'utf8');
    await assert.rejects(bob.agentWrites('src/b2.ts', 'export const b2 = 3;\n'), /SIGNING_KEY_REVOKED/);
    assert.equal(await readFile(join(bob.dir, TRACE), 'utf8'), before, 'no record');
    assert.equal(existsSync(join(bob.dir, 'src/b2.ts')), false, 'no file');

    // bob's key used where the revocation is not seen (a stale clone, a copied key): the record lands after the point.
    await mkdir(join(bob.home, 'hidden'), { recursive: true });
    await rename(join(bob.dir, REVOKED), join(bob.home, 'hidden', 'revoked'));
    await bob.agentWrites('src/b3.ts', 'export const b3 = 4;\n');
    await rm(join(bob.dir, '.orchestration/signers/bob.pub'));
    await rename(join(bob.home, 'hidden', 'revoked'), join(bob.dir, REVOKED));
    commitAndPush(bob, 'after the revocation', 'main');
    const red = await team.ci(['check', '--require-signatures']);
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /signed by bob \(ed25519:[0-9a-f]{32}\) before its revocation\n/, 'the old ones still verify');
    assert.match(red.stdout, /: signed by bob \(ed25519:[0-9a-f]{32}\), a REVOKED key\n +1 record after its revocation; added by bob <bob@example\.test>\n +bob runs `governor keys init --rotate` and commits the new \.pub\n/);
    for (const line of red.stdout.split('\n').filter((l) => /bob/.test(l))) assert.ok(line.length <= 100, `${line.length} columns: ${line}`);
  });

  it('a new developer\'s record with no .pub: CI names the person git says committed it, the .pub and the command; running it turns CI green', async () => {
    const carol = await team.member('carol');
    pull(carol);
    await carol.agentWrites('src/c.ts', 'export const c = 1;\n');
    // Her key's .pub stays out of the commit (the usual slip).
    await rm(join(carol.dir, '.orchestration/signers/carol.pub'));
    commitAndPush(carol, 'carol\'s agent change', 'main');

    const red = await team.ci(['check', '--require-signatures']);
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /: signed by an UNKNOWN key ed25519:[0-9a-f]{32}\n +first used in a commit by carol <carol@example\.test>, and no \.pub holds it: carol runs\n +`governor keys init`, then `git add \.orchestration\/signers\/<name>\.pub && git commit`\n/);
    for (const line of red.stdout.split('\n').filter((l) => /UNKNOWN key|no \.pub|governor keys init/.test(l))) assert.ok(line.length <= 100, `${line.length} columns: ${line}`);

    // A shallow clone (what CI checkouts make by default): git cannot say who, and the message says so.
    const shallow = join(team.root, 'shallow');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${team.origin}`, shallow], { env: { ...process.env, HOME: carol.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await mkdir(join(team.root, 'shallow-home'), { recursive: true });
    const unnamed = await runGovernor(['check', '--require-signatures'], { cwd: shallow, anchorDir: join(team.root, 'shallow-anchors'), home: join(team.root, 'shallow-home'), env: { CI: 'true' } });
    assert.equal(unnamed.code, 1, unnamed.stdout);
    assert.match(unnamed.stdout, /no \.pub holds it, and git cannot say whose \(no repository, or shallow\): its owner runs/);
    assert.doesNotMatch(unnamed.stdout, /carol <carol@/);

    // Carol runs what CI said, commits the .pub it printed, and CI is green.
    const init = await carol.governor('keys', 'init');
    assert.equal(init.code, 0, init.stdout + init.stderr);
    assert.match(init.stdout, /published \.orchestration\/signers\/carol\.pub: commit it/);
    carol.git('add', '.orchestration/signers/carol.pub');
    carol.git('commit', '--quiet', '-m', 'Add carol\'s signing key');
    carol.git('push', '--quiet', 'origin', 'main');
    const green = await team.ci(['check', '--require-signatures']);
    assert.equal(green.code, 0, green.stdout + green.stderr);
  });
});
