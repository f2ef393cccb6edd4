import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { managedPolicyReport } from '../../../../src/core/agents/doctor/managedPolicyCheck';
import { managedPolicy } from '../../../../src/core/managed/managedPolicy';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { protectedPatternFor } from '../../../../src/core/paths/protectedPaths';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { RecordingLogger, RecordingTrace, ScriptedApprover } from '../../../support/governorHarness';
import { runGovernor } from '../../../support/runGovernor';

/** Issue 23: the administrator's managed file adds rules no intent, user file or repository file can drop. */
describe('issue 23: managed policy', function () {
  this.timeout(30_000);
  const saved = { HOME: process.env.HOME, MANAGED: process.env.INTENT_GOVERNOR_MANAGED_FILE };
  const dirs: string[] = [];
  let person: string;
  let managed: string;
  beforeEach(async () => {
    person = await mkdtemp(join(tmpdir(), 'ig-managed-person-'));
    dirs.push(person);
    managed = join(person, 'managed.json');
    process.env.HOME = person;
    process.env.INTENT_GOVERNOR_MANAGED_FILE = managed;
  });
  afterEach(() => {
    process.env.HOME = saved.HOME;
    if (saved.MANAGED === undefined) delete process.env.INTENT_GOVERNOR_MANAGED_FILE;
    else process.env.INTENT_GOVERNOR_MANAGED_FILE = saved.MANAGED;
  });
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('reads protectedPaths, requireSigning and telemetry; a rule of the wrong shape makes the file unusable', async () => {
    assert.equal(managedPolicy().state, 'absent');
    await writeFile(managed, JSON.stringify({ protectedPaths: ['secrets/**', 'deploy.key'], requireSigning: true, telemetry: { endpoint: 'http://127.0.0.1:4318', headers: { authorization: 'Bearer x' } } }));
    const policy = managedPolicy();
    assert.deepEqual([policy.state, policy.protectedPaths, policy.requireSigning, policy.telemetry?.endpoint], ['present', ['secrets/**', 'deploy.key'], true, 'http://127.0.0.1:4318']);
    for (const [value, problem] of [
      [{ protectedPaths: 'secrets' }, /protectedPaths must be an array/],
      [{ protectedPaths: ['!secrets/**'] }, /negation/],
      [{ protectedPaths: ['../etc'] }, /leads out/],
      [{ requireSigning: 'yes' }, /requireSigning must be true or false/],
      [{ telemetry: { endpoint: 'collector:4318' } }, /telemetry.endpoint must be an http\(s\) URL/],
      [{ telemetry: { endpoint: 'http://c:4318', headers: { a: 1 } } }, /telemetry.headers.a must be a string/],
    ] as const) {
      await writeFile(managed, JSON.stringify(value));
      const broken = managedPolicy();
      assert.equal(broken.state, 'broken', JSON.stringify(value));
      assert.match(broken.problem ?? '', problem);
    }
  });

  it("adds its protectedPaths to the built-in ones (anchored with a '/', else at any depth; folders' contents too); a broken file protects every path", async () => {
    assert.equal(protectedPatternFor('secrets/a.txt'), undefined);
    await writeFile(managed, JSON.stringify({ protectedPaths: ['secrets/', '/infra/prod/**', 'deploy.key'] }));
    for (const rel of ['secrets', 'secrets/a.txt', 'SECRETS/deep/b.txt', 'infra/prod/main.tf', 'deploy.key', 'src/auth/deploy.key', 'src/auth/Deploy.KEY/x', 'sub/secrets/c']) {
      assert.match(protectedPatternFor(rel) ?? '', /from the administrator's managed file/, rel);
    }
    for (const rel of ['infra/staging/main.tf', 'src/secrets.ts', 'sub/infra/prod/x', 'deploy.key.md']) assert.equal(protectedPatternFor(rel), undefined, rel);
    assert.equal(protectedPatternFor('.orchestration/x'), '**/.orchestration/**', 'the built-in patterns still come first');
    await writeFile(managed, '{ not json');
    assert.match(protectedPatternFor('src/auth/a.ts') ?? '', /every path, while the administrator's managed file .* cannot be used/);
    await rm(managed);
    assert.equal(protectedPatternFor('src/auth/a.ts'), undefined, 'the file is read again when it changes');
  });

  it('its protected path and its hook hold against an intent whose scope covers the path and user and project files that switch hooks off', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-managed-ws-')));
    const home = await mkdtemp(join(tmpdir(), 'ig-managed-home-'));
    dirs.push(root, home);
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(
      join(root, '.orchestration', 'active_intents.yaml'),
      'active_intents:\n  - id: everything\n    name: Everything\n    status: IN_PROGRESS\n    owned_scope:\n      - "**"\n      - secrets/**\n',
    );
    // Every file that could try to drop the managed rules: the user's, the person's Claude settings, the project's.
    const offSwitch = JSON.stringify({ disableAllHooks: true, allowManagedHooksOnly: false, hooks: {} });
    await writeFile(join(home, 'hooks.json'), offSwitch);
    await mkdir(join(person, '.claude'), { recursive: true });
    await writeFile(join(person, '.claude', 'settings.json'), offSwitch);
    await mkdir(join(root, '.claude'), { recursive: true });
    await writeFile(join(root, '.claude', 'settings.json'), offSwitch);
    const marker = join(home, 'managed-hook-ran');
    await writeFile(
      managed,
      JSON.stringify({
        protectedPaths: ['secrets/**'],
        hooks: {
          PreToolUse: [
            { matcher: 'Write', hooks: [{ type: 'command', if: 'Write(src/frozen*)', command: 'echo "frozen by the administrator" >&2; exit 2' }] },
            { matcher: 'Write', hooks: [{ type: 'command', command: `echo ran >> '${marker}'` }] },
          ],
        },
      }),
    );
    const services = { ...(await createNodeServices({ root, approver: new ScriptedApprover(), trace: new RecordingTrace(), logger: new RecordingLogger() })), governorHome: home, hookApprovals: new FileHookApprovals(join(home, 'approvals')) };
    services.sessions.bindIntent('s1', 'everything');
    const governor = new Governor(services);
    const call = (tool: string, input: Record<string, unknown>) => governor.run({ tool, input, session_id: 's1', agent: { name: 'test-agent' } }, { mode: 'execute' });

    const secret = await call('write_file', { path: 'secrets/token.txt', content: 'x\n' });
    assert.equal(!secret.ok && secret.error.code, 'PROTECTED_PATH', 'the intent scope covers secrets/**, the managed file protects it');
    assert.match(!secret.ok ? secret.error.message : '', /secrets\/\*\*, from the administrator's managed file/);
    const command = await call('run_command', { command: 'echo x > secrets/token.txt' });
    assert.equal(!command.ok && command.error.code, 'PROTECTED_PATH', 'a command writing there is refused the same way');
    await assert.rejects(readFile(join(root, 'secrets', 'token.txt')), 'nothing was written');

    const frozen = await call('write_file', { path: 'src/frozen.ts', content: 'x\n' });
    assert.equal(!frozen.ok && frozen.error.code, 'HOOK_BLOCKED', 'the managed hook ran though every other file says disableAllHooks');
    const allowed = await call('write_file', { path: 'src/ok.ts', content: 'x\n' });
    assert.ok(allowed.ok, JSON.stringify(allowed));
    assert.equal((await readFile(marker, 'utf8')).trim().split('\n').length, 2, 'the managed hook ran for both writes');
    const loaded = governor.userHooks.load('test-agent');
    assert.deepEqual([...new Set(loaded.hooks.map((h) => h.source.layer))], ['managed']);
    assert.ok(loaded.notes.some((n) => n.includes('disableAllHooks is honoured only in the managed file')));
  });

  it("governor doctor has a 'Managed policy' check naming the file and each rule it sets (telemetry headers counted, not shown)", async () => {
    assert.match(managedPolicyReport(process.env).detail, /no managed file at .*managed\.json/);
    await writeFile(
      managed,
      JSON.stringify({
        protectedPaths: ['secrets/**'],
        requireSigning: true,
        allowManagedHooksOnly: true,
        hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'true' }, { type: 'command', command: 'true' }] }] },
        telemetry: { endpoint: 'https://collector.example:4318', headers: { authorization: 'Bearer sekrit-token' } },
      }),
    );
    const root = await mkdtemp(join(tmpdir(), 'ig-managed-doctor-'));
    dirs.push(root);
    const run = await runGovernor(['doctor', '--json', '--workspace', root], { anchorDir: join(person, 'anchors'), home: person, env: { INTENT_GOVERNOR_MANAGED_FILE: managed } });
    const check = (JSON.parse(run.stdout) as { checks: { id: string; title: string; verdict: string; detail: string }[] }).checks.find((c) => c.id === 'managed-policy');
    assert.ok(check, run.stdout + run.stderr);
    assert.equal(check.title, 'Managed policy');
    assert.equal(check.verdict, 'ok');
    for (const part of [managed, 'protectedPaths: secrets/**', 'requireSigning', 'PreToolUse ×2', 'allowManagedHooksOnly', 'https://collector.example:4318 (1 header(s), not shown)']) assert.ok(check.detail.includes(part), `${part} in ${check.detail}`);
    assert.ok(!run.stdout.includes('sekrit-token'));
    await writeFile(managed, '[1]');
    const broken = managedPolicyReport(process.env);
    assert.equal(broken.verdict, 'broken');
    assert.match(broken.detail, /must be a JSON object.*every write is refused/);
  });
});
