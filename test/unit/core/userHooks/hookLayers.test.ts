import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_SETTINGS_FILES, LEGACY_HOOKS_FILE, PROJECT_HOOKS_FILE, USER_HOOKS_FILE_NAME } from '../../../../src/core/userHooks/hookLayerFiles';
import { loadHookLayers, MAX_HOOKS_FILE_BYTES } from '../../../../src/core/userHooks/hookLayers';
import { LEGACY_MIGRATION_NOTE } from '../../../../src/core/userHooks/legacyHooksYaml';

const REPO = join(__dirname, '..', '..', '..', '..');
const OUR_BRIDGE = 'node "/opt/ig/dist/cli.js" hook claude --timeout-ms 110000';

function hooksJson(command: string, event = 'PreToolUse'): string {
  return JSON.stringify({ hooks: { [event]: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });
}

describe('loadHookLayers: every layer of user hooks, in order, as one door sees them', () => {
  let root: string;
  let home: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ig-layers-root-'));
    home = await mkdtemp(join(tmpdir(), 'ig-layers-home-'));
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await mkdir(join(root, '.claude'), { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  async function writeAllLayers(): Promise<void> {
    await writeFile(join(home, USER_HOOKS_FILE_NAME), hooksJson('user.sh'));
    await writeFile(join(root, PROJECT_HOOKS_FILE), hooksJson('project.sh'));
    await writeFile(join(root, LEGACY_HOOKS_FILE), 'hooks:\n  - name: legacy.sh\n    command: legacy.sh\n');
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[0]), JSON.stringify({ permissions: { allow: [] }, ...JSON.parse(hooksJson('claude.sh')) }));
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[1]), hooksJson('claude-local.sh'));
  }

  it('loads user, project, legacy, then Claude Code settings and settings.local, in that order', async () => {
    await writeAllLayers();
    const loaded = loadHookLayers(root, { home, door: 'mcp' });
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(
      loaded.hooks.map((h) => [h.name, h.source.layer, h.source.file]),
      [
        ['user.sh', 'user', join(home, 'hooks.json')],
        ['project.sh', 'project', '.orchestration/hooks.json'],
        ['legacy.sh', 'legacy', '.orchestration/hooks.yaml'],
        ['claude.sh', 'claude', '.claude/settings.json'],
        ['claude-local.sh', 'claude', '.claude/settings.local.json'],
      ],
    );
    assert.deepEqual(loaded.notes, [LEGACY_MIGRATION_NOTE]);
  });

  it("skips Claude Code's own files for the Claude Code door, so its hooks never run twice", async () => {
    await writeAllLayers();
    const loaded = loadHookLayers(root, { home, door: 'claude-code' });
    assert.deepEqual(loaded.hooks.map((h) => h.name), ['user.sh', 'project.sh', 'legacy.sh']);
  });

  it('no files at all: no hooks, no problems', () => {
    assert.deepEqual(loadHookLayers(root, { home, door: 'vscode' }), { hooks: [], problems: [], notes: [], warnings: [] });
  });

  it('a broken file is a problem that names it and says what to do; the other layers still load', async () => {
    await writeAllLayers();
    await writeFile(join(root, PROJECT_HOOKS_FILE), '{"hooks": {"PreToolUse": [');
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[0]), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', timeout: 5 }] }] } }));
    const loaded = loadHookLayers(root, { home, door: 'mcp' });
    assert.deepEqual(loaded.hooks.map((h) => h.name), ['user.sh', 'legacy.sh', 'claude-local.sh']);
    assert.deepEqual(loaded.problems.map((p) => p.file), ['.orchestration/hooks.json', '.claude/settings.json']);
    assert.match(loaded.problems[0].message, /^the file is not valid JSON \(.+\); fix it \(Claude Code's hooks format: \{"hooks": \{"PreToolUse": \[\.\.\.\]\}\}\)$/);
    assert.equal(loaded.problems[1].message, 'hooks.PreToolUse[0].hooks[0] needs "command" (a shell string) or "args" (a program and its arguments, no shell)');
  });

  it('an unknown event is a warning for that entry in every file, never a problem; Claude Code events such as Setup load', async () => {
    await writeFile(join(root, PROJECT_HOOKS_FILE), JSON.stringify({ hooks: { Setup: [], Bogus: [] } }));
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[0]), JSON.stringify({ hooks: { Setup: [], Bogus: [] } }));
    const loaded = loadHookLayers(root, { home, door: 'mcp' });
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.warnings, [
      '.orchestration/hooks.json: hooks.Bogus is not an event Claude Code or Intent Governor has; its hooks are skipped, the rest of the file holds',
      '.claude/settings.json: hooks.Bogus is not an event Claude Code or Intent Governor has; its hooks are skipped, the rest of the file holds',
    ]);
  });

  it("our own bridge entries in Claude Code's settings.local.json are not run again for the other doors", async () => {
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[1]), JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash|Read', hooks: [{ type: 'command', command: OUR_BRIDGE, timeout: 120 }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: OUR_BRIDGE, timeout: 120 }] }],
      },
    }));
    assert.deepEqual(loadHookLayers(root, { home, door: 'vscode' }), { hooks: [], problems: [], notes: [], warnings: [] });
  });

  it('an empty hooks.json is no hooks', async () => {
    await writeFile(join(root, PROJECT_HOOKS_FILE), '\n');
    assert.deepEqual(loadHookLayers(root, { home, door: 'mcp' }), { hooks: [], problems: [], notes: [], warnings: [] });
  });

  it('a file over the cap is a problem, not parsed', async () => {
    await writeFile(join(root, PROJECT_HOOKS_FILE), `{"hooks": {}, "pad": "${'x'.repeat(MAX_HOOKS_FILE_BYTES)}"}`);
    const loaded = loadHookLayers(root, { home, door: 'mcp' });
    assert.match(loaded.problems[0].message, /^the file is at least \d+ bytes, over the 262144-byte limit: refused; replace it with a JSON file of hooks/);
  });

  it('a FIFO as hooks.json, or /dev/zero as the settings, is a problem at once, never a hang (in a child process)', async () => {
    execFileSync('mkfifo', [join(root, PROJECT_HOOKS_FILE)]);
    execFileSync('mkfifo', [join(home, USER_HOOKS_FILE_NAME)]);
    execFileSync('mkfifo', [join(root, LEGACY_HOOKS_FILE)]);
    await symlink('/dev/zero', join(root, CLAUDE_SETTINGS_FILES[0]));
    await writeFile(join(root, CLAUDE_SETTINGS_FILES[1]), hooksJson('still-loaded.sh'));
    const script = `
      const { loadHookLayers } = require(${JSON.stringify(join(REPO, 'src/core/userHooks/hookLayers.ts'))});
      process.stdout.write(JSON.stringify(loadHookLayers(${JSON.stringify(root)}, { home: ${JSON.stringify(home)}, door: 'mcp' })));
    `;
    // A blocking open would never return: the child is killed at the timeout and the test fails instead of hanging.
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO, timeout: 15_000, encoding: 'utf8' });
    const loaded = JSON.parse(out) as ReturnType<typeof loadHookLayers>;
    assert.deepEqual(loaded.hooks.map((h) => h.name), ['still-loaded.sh']);
    assert.deepEqual(
      loaded.problems.map((p) => [p.file, p.message]),
      [
        [join(home, 'hooks.json'), 'the file is a FIFO (named pipe), not a regular file: refused; replace it with a JSON file of hooks ({"hooks": {"PreToolUse": [...]}})'],
        ['.orchestration/hooks.json', 'the file is a FIFO (named pipe), not a regular file: refused; replace it with a JSON file of hooks ({"hooks": {"PreToolUse": [...]}})'],
        ['.orchestration/hooks.yaml', 'the file is a FIFO (named pipe), not a regular file: refused; replace it with a YAML file of hooks'],
        ['.claude/settings.json', "the file is a character device, not a regular file: refused; replace it with Claude Code's JSON settings file"],
      ],
    );
  });

  it('names the user file ~/.intent-governor/hooks.json when the home is the default one', async () => {
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const defaultHome = join(home, '.intent-governor');
      await mkdir(defaultHome);
      await writeFile(join(defaultHome, USER_HOOKS_FILE_NAME), hooksJson('mine.sh'));
      const [spec] = loadHookLayers(root, { home: defaultHome, door: 'mcp' }).hooks;
      assert.equal(spec.source.file, '~/.intent-governor/hooks.json');
      assert.equal(spec.id, '~/.intent-governor/hooks.json#PreToolUse[0].hooks[0]');
    } finally {
      process.env.HOME = saved;
    }
  });
});
