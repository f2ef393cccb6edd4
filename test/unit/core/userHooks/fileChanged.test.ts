import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Governor } from '../../../../src/core/governor';
import { createNodeServices } from '../../../../src/core/nodeServices';
import { cwdChangedFiring, fileChangedFiring, fileChangedNames, WatchedFiles } from '../../../../src/core/userHooks/fileChanged';
import { notFiredText } from '../../../../src/core/userHooks/hookEventDoors';
import { FileHookApprovals } from '../../../../src/core/userHooks/hookApprovals';
import { hookInputJson } from '../../../../src/core/userHooks/hookInput';
import { RecordingLogger, RecordingTrace, SAMPLE_INTENTS, ScriptedApprover } from '../../../support/governorHarness';

const hook = (event: string, matcher: string) => ({ event, matcher }) as { event: 'FileChanged'; matcher: string };

describe('FileChanged and CwdChanged, as a watcher fires them', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function governorWith(own: unknown): Promise<{ root: string; governor: Governor; home: string }> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-filechanged-')));
    const home = await mkdtemp(join(tmpdir(), 'ig-filechanged-home-'));
    dirs.push(root, home);
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    await writeFile(join(home, 'hooks.json'), JSON.stringify(own));
    const services = { ...(await createNodeServices({ root, approver: new ScriptedApprover(), trace: new RecordingTrace(), logger: new RecordingLogger() })), hookApprovals: new FileHookApprovals(join(home, 'approvals')), governorHome: home };
    return { root, governor: new Governor(services), home };
  }

  it("watches the literal file names FileChanged matchers list, as Claude Code does; a pattern or '*' names no file", () => {
    assert.deepEqual(fileChangedNames([hook('FileChanged', '.envrc|.env'), hook('FileChanged', ' data.csv '), hook('FileChanged', '.env')]), ['.envrc', '.env', 'data.csv']);
    assert.deepEqual(fileChangedNames([hook('FileChanged', '^\\.env'), hook('FileChanged', '*'), hook('FileChanged', ''), hook('FileChanged', 'src/x.ts')]), []);
    assert.deepEqual(fileChangedNames([hook('PreToolUse', 'Bash|Write')]), [], 'other events name tools, not files');
  });

  it("tells each change of a watched file once: a save reported twice is one 'change', an atomic save over the file a 'change', then 'unlink' and 'add'", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ig-watched-'));
    dirs.push(dir);
    const env = join(dir, '.env');
    await writeFile(env, 'A=1\n');
    const files = new WatchedFiles();
    files.know(env);
    assert.equal(files.changed(env, 'change'), undefined, 'nothing happened since the watch started');
    await writeFile(env, 'A=2\n');
    assert.equal(files.changed(env, 'add'), 'change');
    assert.equal(files.changed(env, 'change'), undefined, 'the same save reported again');
    await writeFile(join(dir, '.env.tmp'), 'A=3\n');
    await rename(join(dir, '.env.tmp'), env);
    assert.equal(files.changed(env, 'add'), 'change', 'an editor that saves by renaming a new file over it');
    await rm(env);
    assert.equal(files.changed(env, 'unlink'), 'unlink');
    await writeFile(env, 'A=4\n');
    assert.equal(files.changed(env, 'change'), 'add');
    const unseen = join(dir, 'other.env');
    await writeFile(unseen, 'B=1\n');
    assert.equal(files.changed(unseen, 'change'), 'change', 'a file under a watched folder, never seen: as reported');
  });

  it("gives the hook Claude Code's input (file_path, event) and selects hooks by the file's basename", async () => {
    const { root, governor, home } = await governorWith({});
    const marker = join(home, 'fired.jsonl');
    await writeFile(join(home, 'hooks.json'), JSON.stringify({ hooks: { FileChanged: [{ matcher: '.envrc|.env', hooks: [{ type: 'command', command: `cat >> '${marker}'; echo >> '${marker}'` }] }] } }));
    await governor.userHooks.fire(fileChangedFiring(join(root, 'notes.txt'), 'change', root, 'vscode-extension'));
    assert.equal(existsSync(marker), false, 'a file no matcher names runs no hook');
    await governor.userHooks.fire(fileChangedFiring(join(root, '.env'), 'unlink', root, 'vscode-extension'));
    const input = JSON.parse((await readFile(marker, 'utf8')).trim()) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'FileChanged');
    assert.equal(input.file_path, join(root, '.env'));
    assert.equal(input.event, 'unlink');
    assert.equal(input.cwd, root);
  });

  it('CwdChanged carries old_cwd and new_cwd (the first folder before and after) and the folders that came and went', () => {
    const firing = cwdChangedFiring({ oldCwd: '/w/a', newCwd: '/w/b', added: ['/w/b'], removed: ['/w/a'] }, 'vscode-extension');
    const input = JSON.parse(hookInputJson(firing, '/w/a', undefined)) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'CwdChanged');
    assert.equal(input.old_cwd, '/w/a');
    assert.equal(input.new_cwd, '/w/b');
    assert.equal(input.cwd, '/w/b');
    assert.deepEqual([input.added_folders, input.removed_folders], [['/w/b'], ['/w/a']]);
  });

  it("hands a SessionStart hook's watchPaths to the watcher here, but not Claude Code's (it watches them itself)", async () => {
    const answer = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: ['/w/.envrc', '/w/package.json'] } });
    const { root, governor } = await governorWith({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo '${answer}'` }] }] } });
    const seen: (readonly string[])[] = [];
    const listening = governor.userHooks.onWatchPaths((paths) => seen.push(paths));
    const start = (agent: string) => governor.userHooks.fire({ event: 'SessionStart', sessionKey: agent, sessionId: agent, agent: { name: agent }, cwd: root, fields: { source: 'startup' }, matchValue: 'startup' });
    await start('claude-code');
    assert.deepEqual(seen, []);
    await start('copilot-vscode');
    assert.deepEqual(seen, [['/w/.envrc', '/w/package.json']]);
    listening.dispose();
    await start('copilot-vscode');
    assert.equal(seen.length, 1, 'a disposed listener hears nothing');
  });

  it('hooks list says who fires the watched events instead of "not fired by" every door', () => {
    assert.match(notFiredText('ConfigChange') ?? '', /^fired by VS Code and the resident governor on a hooks file change; a block is logged$/u);
    assert.match(notFiredText('FileChanged') ?? '', /^fired by VS Code only, when a file its matcher names/u);
    assert.match(notFiredText('CwdChanged') ?? '', /workspace folders change/u);
    assert.match(notFiredText('Setup') ?? '', /^not fired by MCP, VS Code tools, Claude Code, VS Code agent, Cursor$/u);
  });
});
