import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileHookRunLog } from '../../../src/core/userHooks/fileHookRunLog';
import { FileHookApprovals } from '../../../src/core/userHooks/hookApprovals';
import { loadHookLayers } from '../../../src/core/userHooks/hookLayers';
import { hooksWorkspace, type HooksWorkspace } from '../../support/hooksWorkspace';

const PROJECT_HOOKS = JSON.stringify({
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/check-push.sh', if: 'Bash(git push:*)' }] },
      { matcher: 'Write|Edit', hooks: [{ type: 'command', args: ['node', 'scripts/lint.js'] }] },
    ],
    PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/audit', async: true }] }],
  },
});
const USER_HOOKS = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hello', once: true }] }] } });
const CLAUDE_SETTINGS = JSON.stringify({ permissions: { allow: [] }, hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npx prettier --check .' }] }] } });
const LEGACY_YAML = 'hooks:\n  - name: old-guard\n    event: pre\n    matcher: write_file\n    command: ./old-guard.sh\n';

describe('governor hooks list', function () {
  this.timeout(60_000);
  let ws: HooksWorkspace;
  beforeEach(async () => {
    ws = await hooksWorkspace();
  });
  afterEach(() => ws.dispose());

  it('shows every layer’s hooks with their state and last run, readable at 100 columns', async () => {
    await ws.file('.orchestration/hooks.json', PROJECT_HOOKS);
    await ws.file('~/hooks.json', USER_HOOKS);
    await ws.file('.claude/settings.json', CLAUDE_SETTINGS);
    const declared = loadHookLayers(ws.root, { home: ws.home, door: 'listing' });
    const push = declared.hooks.find((h) => h.if === 'Bash(git push:*)');
    assert.ok(push);
    await new FileHookApprovals(ws.approvalsDir).approve(ws.root, push.approvalHash, './scripts/check-push.sh');
    await new FileHookRunLog(join(ws.home, 'hook-runs')).record(ws.root, push.identity, { result: 'deny', durationMs: 40, at: new Date().toISOString() });

    const run = await ws.governor(['hooks', 'list']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    for (const line of lines) assert.ok([...line].length <= 100, `over 100 columns: ${line}`);
    const row = (text: RegExp) => assert.ok(lines.some((l) => text.test(l)), `no row ${text} in:\n${run.stdout}`);
    row(/^ {2}EVENT +MATCHER +TYPE +STATE +LAST RUN$/);
    row(/^\/.*\/governor-home\/hooks\.json: yours, runs without approval$/);
    row(/^ {2}SessionStart +\* +command once +user's own +never run$/);
    row(/^\.orchestration\/hooks\.json$/);
    row(/^ {2}PreToolUse +Bash if Bash\(git push:\*\) +command +approved +deny, 40 ms$/);
    row(/^ {2}PreToolUse +Write\|Edit +args +not approved +never run$/);
    row(/^ {2}PostToolUse +Write +http async +not approved +never run$/);
    row(/^\.claude\/settings\.json: not run for Claude Code \(it runs them itself\)$/);
    row(/^ {2}PreToolUse +Edit +command +not approved +never run$/);
    assert.match(run.stdout, /run `governor hooks trust` in a terminal to read and approve them/);
  });

  it('--json gives {hooks, problems, notes}, with the old hooks.yaml’s migration note', async () => {
    await ws.file('.orchestration/hooks.yaml', LEGACY_YAML);
    await ws.file('.orchestration/hooks.json', PROJECT_HOOKS);
    const run = await ws.governor(['hooks', 'list', '--workspace', ws.root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const listing = JSON.parse(run.stdout) as { hooks: Record<string, unknown>[]; problems: unknown[]; notes: string[] };
    assert.deepEqual(Object.keys(listing), ['doors', 'hooks', 'problems', 'warnings', 'notes', 'guards']);
    assert.equal(listing.hooks.length, 4);
    const legacy = listing.hooks.find((h) => h.layer === 'legacy');
    assert.ok(legacy);
    assert.equal(legacy.source, '.orchestration/hooks.yaml');
    assert.equal(legacy.stateText, 'not approved: run governor hooks trust');
    assert.equal(legacy.lastRunText, 'never run');
    assert.equal(legacy.action, './old-guard.sh');
    assert.deepEqual(listing.problems, []);
    assert.equal(listing.notes.length, 1);
    assert.match(listing.notes[0], /hooks\.yaml/);
  });

  it('a broken hooks file (a FIFO, invalid JSON) is listed as a problem below the table and exits 1, without hanging', async () => {
    await ws.file('~/hooks.json', USER_HOOKS);
    await ws.file('.claude/settings.json', '{"hooks": {"PreToolUse": [');
    await ws.file('.orchestration/.keep', '');
    execFileSync('mkfifo', [join(ws.root, '.orchestration', 'hooks.json')]);
    const run = await ws.governor(['hooks', 'list']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /SessionStart/, 'the readable files are still listed');
    const [, below] = run.stdout.split(/^Problems.*$/m);
    assert.ok(below, run.stdout);
    assert.match(below, /^ {2}\.orchestration\/hooks\.json: .*FIFO/m);
    assert.match(below, /^ {2}\.claude\/settings\.json: /m);
  });

  it('no hooks anywhere says so; --help documents list and trust; a wrong option is a usage error', async () => {
    const empty = await ws.governor(['hooks', 'list']);
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /^ {2}No user, project or managed hooks are declared for this workspace\.$/m);
    assert.match(empty.stdout, /^ {2}none installed: run `governor hooks install`$/m);
    const help = await ws.governor(['hooks', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /governor hooks list \[--workspace DIR\] \[--json\]/);
    assert.match(help.stdout, /governor hooks trust \[--workspace DIR\] \[--yes\]/);
    const wrong = await ws.governor(['hooks', 'list', '--yes']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /'list' takes no --yes/);
  });

  it('after `hooks install`, lists the agent doors it wrote (events, file, current) and the built-in guards, each with its layer', async () => {
    // Claude Code's install edits ~/.claude.json: a private HOME keeps the person's own out of it.
    ws.env.HOME = ws.home;
    const install = await ws.governor(['hooks', 'install', '--agent', 'claude', '--agent', 'gemini', '--agent', 'cline', '--agent', 'opencode', '--claude-hooks', 'command']);
    assert.equal(install.code, 0, install.stderr);

    const text = await ws.governor(['hooks', 'list']);
    assert.equal(text.code, 0, text.stderr);
    for (const line of text.stdout.split('\n')) assert.ok([...line].length <= 100, `over 100 columns: ${line}`);
    assert.doesNotMatch(text.stdout, /No hooks are declared|none installed/);
    assert.match(text.stdout, /^ {2}Claude Code: \.claude\/settings\.local\.json \(command hook\): current$/m);
    assert.match(text.stdout, /^ {4}events: .*PreToolUse.*PostToolUse/m);
    assert.match(text.stdout, /^ {2}Gemini CLI: \.gemini\/settings\.json \(command hook\): current$/m);
    assert.match(text.stdout, /^ {2}Cline: \.clinerules\/hooks\/ \(scripts\): installed$/m);
    assert.match(text.stdout, /^ {4}events: PreToolUse, SessionShutdown$/m, 'no PostToolUse file: the governor completes the changes itself');
    assert.match(text.stdout, /^ {2}intent-gate +before +no change without a bound, valid, IN_PROGRESS intent$/m);
    assert.match(text.stdout, /^ {2}approval-gate +before /m);
    assert.match(text.stdout, /^ {2}trace-recorder +after /m);
    assert.doesNotMatch(text.stdout, /Cursor|Codex/, 'doors not installed are not listed as text');

    type Listing = { doors: { agent: string; layer: string; state: string; hookFile: string; events: string[]; current?: boolean; door?: string }[]; guards: { name: string; layer: string; phase: string; summary: string }[] };
    const json = JSON.parse((await ws.governor(['hooks', 'list', '--json'])).stdout) as Listing;
    const claude = json.doors.find((d) => d.agent === 'claude');
    assert.deepEqual({ ...claude, events: undefined }, { agent: 'claude', label: 'Claude Code', layer: 'agent door', state: 'installed', door: 'command hook', hookFile: '.claude/settings.local.json', events: undefined, current: true, detail: 'current' });
    assert.ok(claude?.events.includes('PreToolUse'));
    assert.deepEqual(json.doors.find((d) => d.agent === 'cursor')?.state, 'not installed');
    assert.deepEqual(json.doors.map((d) => d.agent), ['vscode', 'claude', 'cursor', 'gemini', 'codex', 'copilot', 'opencode', 'cline', 'qwen', 'droid']);
    assert.deepEqual(json.guards.map((g) => `${g.phase} ${g.name}`), ['pre intent-gate', 'pre path-scope-guard', 'pre stale-guard', 'pre command-policy', 'pre signing-guard', 'pre approval-gate', 'post read-ledger', 'post trace-recorder', 'post intent-map']);
    assert.ok(json.guards.every((g) => g.layer === 'built-in' && g.summary.length > 0));

    // A door edited by hand (our PostToolUse entry gone) is no longer what an install writes.
    const file = join(ws.root, '.claude', 'settings.local.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> };
    delete settings.hooks.PostToolUse;
    writeFileSync(file, JSON.stringify(settings));
    const edited = JSON.parse((await ws.governor(['hooks', 'list', '--json'])).stdout) as Listing;
    assert.equal(edited.doors.find((d) => d.agent === 'claude')?.current, false);
    assert.match((await ws.governor(['hooks', 'list'])).stdout, /^ {2}Claude Code: \.claude\/settings\.local\.json \(command hook\): out of date: governor hooks install --agent claude$/m);
  });
});

describe('governor decide writes no last run (issue 24)', function () {
  this.timeout(60_000);
  it('a hook that decides in `governor decide` leaves hooks list at "never run"', async () => {
    const { spawn } = await import('node:child_process');
    const { bundledScript } = await import('../../support/bundledScript');
    const { finished } = await import('../../support/childProcesses');
    const ws = await hooksWorkspace();
    try {
      await ws.file('.orchestration/active_intents.yaml', 'active_intents:\n  - id: a\n    name: A\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n');
      await ws.file('~/hooks.json', JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'exit 2' }] }] } }));
      const child = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts')), 'decide', '--workspace', ws.root], { env: ws.env, cwd: ws.root, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end(JSON.stringify({ tool: 'write_file', input: { path: 'src/a.ts', content: 'x' }, intent_id: 'a' }));
      const decided = await finished(child);
      assert.match(decided.stdout, /"decision":\s*"deny"/, decided.stdout + decided.stderr);
      const list = JSON.parse((await ws.governor(['hooks', 'list', '--json'])).stdout) as { hooks: { lastRunText: string }[] };
      assert.deepEqual(list.hooks.map((h) => h.lastRunText), ['never run']);
    } finally {
      await ws.dispose();
    }
  });
});
