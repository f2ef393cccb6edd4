import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { configChangeSource, fireConfigChanges, HookFileChanges } from '../../../../src/core/userHooks/configChange';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

describe('ConfigChange: a hooks file this governor reads changed', () => {
  const dirs: string[] = [];
  let root: string;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-configchange-')));
    home = await mkdtemp(join(tmpdir(), 'ig-configchange-home-'));
    const personal = await mkdtemp(join(tmpdir(), 'ig-configchange-HOME-'));
    dirs.push(root, home, personal);
    env = { HOME: personal, INTENT_GOVERNOR_MANAGED_FILE: join(personal, 'managed.json') };
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await mkdir(join(root, '.claude'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
  });

  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("names each file with Claude Code's source: the managed file policy, settings.local local, the workspace's project, the person's user", () => {
    assert.equal(configChangeSource(root, join(env.HOME as string, 'managed.json'), env), 'policy_settings');
    assert.equal(configChangeSource(root, join(root, '.claude', 'settings.local.json'), env), 'local_settings');
    assert.equal(configChangeSource(root, join(root, '.claude', 'settings.json'), env), 'project_settings');
    assert.equal(configChangeSource(root, join(root, '.orchestration', 'hooks.json'), env), 'project_settings');
    assert.equal(configChangeSource(root, join(root, '.agents', 'hooks.toml'), env), 'project_settings');
    assert.equal(configChangeSource(root, join(home, 'hooks.json'), env), 'user_settings');
    assert.equal(configChangeSource(root, join(env.HOME as string, '.claude', 'settings.json'), env), 'user_settings');
  });

  it('reports each change once: nothing at the start, a written, a created and a removed file at the next look only', async () => {
    await writeFile(join(root, '.orchestration', 'hooks.json'), '{"hooks": {}}');
    const changes = new HookFileChanges(root, home, env);
    assert.deepEqual(changes.take(), [], 'the files as they were at the start are no change');
    await writeFile(join(root, '.orchestration', 'hooks.json'), '{"hooks": {"PreToolUse": []}}');
    await writeFile(join(root, '.claude', 'settings.local.json'), '{}');
    assert.deepEqual(changes.take(), [
      { file: join(root, '.orchestration', 'hooks.json'), source: 'project_settings' },
      { file: join(root, '.claude', 'settings.local.json'), source: 'local_settings' },
    ]);
    assert.deepEqual(changes.take(), [], 'told once');
    await rm(join(root, '.claude', 'settings.local.json'));
    await writeFile(join(home, 'hooks.json'), '{"hooks": {}}');
    assert.deepEqual(
      changes.take().map((c) => c.source),
      ['user_settings', 'local_settings'],
    );
  });

  it("fires the person's ConfigChange hooks whose matcher names the source, with source and file_path; a block is logged as unable to undo the change", async () => {
    const marker = join(home, 'config-changes.log');
    const own = {
      hooks: {
        ConfigChange: [
          { matcher: 'project_settings', hooks: [{ type: 'command', command: `cat >> '${marker}'; echo >> '${marker}'` }] },
          { matcher: 'user_settings', hooks: [{ type: 'command', command: `echo user >> '${marker}'` }] },
          { matcher: 'local_settings', hooks: [{ type: 'command', command: `echo '{"decision": "block", "reason": "local settings need a review"}'` }] },
        ],
      },
    };
    const governorHome = await mkdtemp(join(tmpdir(), 'ig-configchange-gh-'));
    dirs.push(governorHome);
    await writeFile(join(governorHome, 'hooks.json'), JSON.stringify(own));
    const logger = new RecordingLogger();
    const services = { ...(await createNodeServices({ root, approver: new ScriptedApprover(), trace: new RecordingTrace(), logger })), hookApprovals: new FileHookApprovals(join(governorHome, 'approvals')), governorHome };
    const governor = new Governor(services);
    const changes = new HookFileChanges(root, governorHome, env);
    await writeFile(join(root, '.orchestration', 'hooks.json'), '{"hooks": {}}');
    await fireConfigChanges(governor.userHooks, changes.take(), root, 'governor-resident', logger);
    await fireConfigChanges(governor.userHooks, changes.take(), root, 'governor-resident', logger);
    const lines = (await readFile(marker, 'utf8')).split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `one change, one run: ${lines.join('\n')}`);
    const input = JSON.parse(lines[0]) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'ConfigChange');
    assert.equal(input.source, 'project_settings');
    assert.equal(input.file_path, join(root, '.orchestration', 'hooks.json'));
    assert.equal(input.cwd, root);
    assert.ok(typeof input.session_id === 'string' && input.session_id !== '');

    await writeFile(join(root, '.claude', 'settings.local.json'), '{}');
    await fireConfigChanges(governor.userHooks, changes.take(), root, 'governor-resident', logger);
    assert.ok(existsSync(join(root, '.claude', 'settings.local.json')));
    assert.ok(
      logger.lines.some((m) => /blocked the change of .*settings\.local\.json: local settings need a review.*cannot undo/u.test(m)),
      logger.lines.join('\n'),
    );
    assert.equal((await readFile(marker, 'utf8')).split('\n').filter(Boolean).length, 1, 'the user_settings hook did not run for a local_settings change');
  });
});
